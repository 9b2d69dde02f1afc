// The one grammar for the numbers people type, in the CLI's flags, spec files and the app's
// form (grammar.h).
#include "engine/experiment/grammar.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>

#include "engine/core/echo.h"

namespace rl {

namespace {

bool is_pow2(std::uint64_t x) {
  return x && std::has_single_bit(x);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// What one typed number reads as.
enum class Small { Ok, NotANumber, TooLarge };
constexpr int kMaxSmallExponent = 30;  // a block size or unroll factor is at most 2^30

// "1024" or "2^10" -> value; TooLarge for a well-formed number past 2^30 ("2^99", 20 digits),
// NotANumber for anything else.
Small parse_small(std::string_view t, long long* out) {
  if (t.size() > 2 && t[0] == '2' && t[1] == '^') {
    int k = -1;
    auto [p, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), k);
    if (p != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
      return Small::NotANumber;
    if (ec == std::errc::result_out_of_range || k > kMaxSmallExponent) return Small::TooLarge;
    if (k < 0) return Small::NotANumber;
    *out = 1LL << k;
    return Small::Ok;
  }
  long long v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || p != t.data() + t.size()) return Small::NotANumber;
  if (ec == std::errc::result_out_of_range) return Small::TooLarge;
  if (ec != std::errc()) return Small::NotANumber;
  *out = v;
  return Small::Ok;
}

// Items split at commas or semicolons ("256, 1024"), and at blanks within one ("64 128"); an
// empty item between separators ("1,,2") is a typing slip, said rather than skipped.
bool items_of(std::string_view text, std::vector<std::string_view>* out) {
  std::size_t i = 0;
  while (true) {
    const std::size_t end = text.find_first_of(",;", i);
    const std::string_view part = trim(text.substr(i, end == text.npos ? text.npos : end - i));
    if (part.empty() && (end != text.npos || !out->empty())) return false;
    for (std::size_t j = 0; j < part.size();) {
      const std::size_t blank = part.find_first_of(" \t", j);
      const std::string_view item = part.substr(j, blank == part.npos ? part.npos : blank - j);
      if (!item.empty()) out->push_back(item);
      if (blank == part.npos) break;
      j = blank + 1;
    }
    if (end == text.npos) return true;
    i = end + 1;
  }
}

template <typename T, typename Fmt>
std::string compress(const std::vector<T>& values, Fmt fmt) {
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && is_pow2(std::uint64_t(values[j])) &&
           values[j + 1] == values[j] * 2)
      ++j;
    out += out.empty() ? "" : ", ";
    if (j >= i + 4 &&
        is_pow2(std::uint64_t(values[i]))) {  // five or more: 1, 2, 4, 8 reads better listed
      out += fmt(values[i]) + ".." + fmt(values[j]);
      i = j + 1;
    } else {
      out += fmt(values[i]);
      ++i;
    }
  }
  return out;
}

}  // namespace

bool parse_int_list(std::string_view text, std::string_view what, std::vector<int>* out,
                    std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return false;
  };
  const std::string w(what);
  std::vector<int> values;
  std::vector<std::string_view> items;
  if (!items_of(text, &items)) return fail(w + " " + echo(text) + ": empty item in the list");
  if (items.empty()) return fail(w + ": none given");
  for (const std::string_view item : items) {
    const std::string quoted = echo(item);
    const std::size_t dots = item.find("..");
    const std::string too_large = w + " " + quoted + ": too large: at most 2^30 (" +
                                  std::to_string(1LL << kMaxSmallExponent) + ")";
    if (dots != std::string_view::npos) {
      long long a = 0, b = 0;
      const Small ra = parse_small(trim(item.substr(0, dots)), &a);
      const Small rb = parse_small(trim(item.substr(dots + 2)), &b);
      if (ra == Small::TooLarge || rb == Small::TooLarge) return fail(too_large);
      if (ra != Small::Ok || rb != Small::Ok || a <= 0 || b < a || b > (1LL << kMaxSmallExponent) ||
          !is_pow2(std::uint64_t(a)) || !is_pow2(std::uint64_t(b)))
        return fail(w + " " + quoted +
                    ": a range goes from a power of two to a larger one, e.g. 64..1024");
      for (long long v = a; v <= b; v *= 2) values.push_back(int(v));
      continue;
    }
    long long v = 0;
    const Small r = parse_small(item, &v);
    if (r == Small::TooLarge) return fail(too_large);
    if (r != Small::Ok) return fail(w + " " + quoted + ": expected a whole number, 2^K or A..B");
    if (v > (1LL << kMaxSmallExponent)) return fail(too_large);
    if (v <= 0) return fail(w + " " + quoted + ": must be a positive number up to 2^30");
    values.push_back(int(v));
  }
  *out = std::move(values);
  return true;
}

std::string format_int_list(const std::vector<int>& values) {
  return compress(values, [](int v) { return std::to_string(v); });
}

std::string format_size_list(const std::vector<std::uint64_t>& values) {
  return compress(values, [](std::uint64_t v) { return format_size(v); });
}

bool parse_size(std::string_view text, std::uint64_t* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "size " + echo(text) + ": " + why;
    return false;
  };
  std::string_view t = text;
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  if (t.empty()) return fail("empty");
  std::uint64_t value = 0;
  if (t.size() > 2 && t.substr(0, 2) == "2^") {
    int k = -1;
    auto [p, ec] = std::from_chars(t.data() + 2, t.data() + t.size(), k);
    if (ec != std::errc() || p != t.data() + t.size())
      return fail("expected 2^K with K a whole number");
    if (k < 0 || k > 40) return fail("exponent must be 0..40");
    value = std::uint64_t(1) << k;
  } else {
    int shift = 0;
    const char last = t.back();
    if (last == 'K' || last == 'k') shift = 10;
    if (last == 'M' || last == 'm') shift = 20;
    if (last == 'G' || last == 'g') shift = 30;
    if (shift) t.remove_suffix(1);
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ec == std::errc::result_out_of_range) return fail("too large");
    if (ec != std::errc() || p != t.data() + t.size())
      return fail("expected digits, 2^K, a K/M/G suffix or a range 2^A..2^B");
    if (value > ((std::uint64_t(1) << 40) >> shift)) return fail("too large (at most 2^40)");
    value <<= shift;
  }
  if (value == 0) return fail("N must be at least 1");
  *out = value;
  return true;
}

bool parse_size_list(std::string_view text, std::vector<std::uint64_t>* out, std::string* error) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  if (text.find_first_not_of(" ,") == std::string_view::npos) {
    if (error) *error = "sizes: none given";
    return false;
  }
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::size_t dots = item.find("..");
    if (dots != std::string_view::npos) {
      std::uint64_t a = 0, b = 0;
      if (!parse_size(item.substr(0, dots), &a, error) ||
          !parse_size(item.substr(dots + 2), &b, error))
        return false;
      if (!is_pow2(a) || !is_pow2(b) || a > b) {
        if (error) *error = "size range " + echo(item) + ": ends must be powers of two, low..high";
        return false;
      }
      for (std::uint64_t v = a; v <= b; v *= 2) sizes.push_back(v);
    } else {
      std::uint64_t v = 0;
      if (!parse_size(item, &v, error)) return false;
      sizes.push_back(v);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  *out = std::move(sizes);
  return true;
}

std::string format_size(std::uint64_t n) {
  if (is_pow2(n) && n >= 1024) {
    int k = 0;
    while ((std::uint64_t(1) << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

std::string format_shape(std::uint64_t rows, std::uint64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

bool parse_shape(std::string_view text, MatrixShape* out, std::string* error) {
  const std::string_view t = trim(text);
  auto fail = [&](const std::string& why) {
    if (error) *error = "shape " + echo(t) + ": " + why;
    return false;
  };
  const std::size_t x = t.find_first_of("xX");
  if (t.empty()) return fail("empty");
  if (x == std::string_view::npos || t.find_first_of("xX", x + 1) != std::string_view::npos)
    return fail("expected ROWSxCOLS, e.g. 4096x4096 or 2^12x2^12");
  MatrixShape s;
  std::string why;
  const std::string_view rows = trim(t.substr(0, x)), cols = trim(t.substr(x + 1));
  if (rows.empty()) return fail("rows missing (expected ROWSxCOLS)");
  if (cols.empty()) return fail("cols missing (expected ROWSxCOLS)");
  if (rows == "0") return fail("rows must be at least 1");
  if (cols == "0") return fail("cols must be at least 1");
  if (!parse_size(rows, &s.rows, &why)) return fail("rows: " + why);
  if (!parse_size(cols, &s.cols, &why)) return fail("cols: " + why);
  if (s.rows > (std::uint64_t(1) << 40) / s.cols)
    return fail("rows x cols too large (at most 2^40 elements)");
  *out = s;
  return true;
}

bool parse_shape_list(std::string_view text, std::vector<MatrixShape>* out, std::string* error) {
  if (text.find_first_not_of(" ,") == std::string_view::npos) {
    if (error) *error = "shapes: none given";
    return false;
  }
  std::vector<MatrixShape> shapes;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    MatrixShape s;
    if (!parse_shape(text.substr(start, comma == text.npos ? text.npos : comma - start), &s, error))
      return false;
    shapes.push_back(s);
    if (comma == text.npos) break;
    start = comma + 1;
  }
  *out = std::move(shapes);
  return true;
}

bool shapes_at_total(const std::vector<std::uint64_t>& values, bool values_are_rows,
                     std::uint64_t total, std::vector<MatrixShape>* out,
                     std::vector<std::string>* notes, std::string* error) {
  const std::string side = values_are_rows ? "rows" : "cols";
  const std::string other = values_are_rows ? "cols" : "rows";
  std::vector<std::uint64_t> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<MatrixShape> shapes;
  for (std::uint64_t v : sorted) {
    if (v == 0 || v > total) {
      if (error)
        *error =
            side + " " + format_size(v) + ": must be from 1 to the total " + format_size(total);
      return false;
    }
    const std::uint64_t derived = total / v;
    shapes.push_back(values_are_rows ? MatrixShape{v, derived} : MatrixShape{derived, v});
    if (total % v != 0 && notes)
      notes->push_back(side + " " + format_size(v) + ": " + format_size(total) + " / " +
                       format_size(v) + " = " + std::to_string(derived) + " " + other +
                       " (rounded down), " + std::to_string(total % v) +
                       " elements of the total left out");
  }
  if (shapes.empty()) {
    if (error) *error = side + ": none given";
    return false;
  }
  *out = std::move(shapes);
  return true;
}

}  // namespace rl
