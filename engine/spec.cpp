#include "spec.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <set>
#include <sstream>
#include <tuple>

#include "catalog.h"
#include "device.h"

namespace rl {

namespace {

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string gigabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / 1e9);
  return buf;
}

bool is_pow2(std::uint64_t x) {
  return x && !(x & (x - 1));
}

// The unroll factors a variant runs at, given the request.
std::vector<int> unrolls_for(const VariantRef& ref, const ExperimentSpec& s) {
  if (ref.unroll) return {*ref.unroll};
  // A variant with one factor has no unroll axis (CUB DeviceReduce): it ignores the request.
  if (s.unroll_factors.empty() || ref.variant->unroll_factors.size() == 1)
    return {ref.variant->default_unroll};
  std::vector<int> out;
  for (int u : s.unroll_factors)
    if (ref.variant->takes_unroll(u)) out.push_back(u);
  return out;
}

std::vector<Workspace> workspaces_for(const VariantInfo& v, const ExperimentSpec& s) {
  if (v.workspaces.size() == 1 && v.workspaces[0] == Workspace::Registers) return v.workspaces;
  std::vector<Workspace> out;
  for (Workspace w : s.workspaces)
    if (v.takes_workspace(w)) out.push_back(w);
  return out;
}

std::vector<int> blocks_for(const VariantInfo& v, const ExperimentSpec& s) {
  if (v.block_sizes.empty()) return {0};
  std::vector<int> out;
  for (int b : s.block_sizes)
    if (v.takes_block_size(b)) out.push_back(b);
  return out;
}

std::vector<DType> types_for(const VariantInfo& v, const ExperimentSpec& s) {
  std::vector<DType> out;
  for (DType t : s.types)
    if (std::find(v.types.begin(), v.types.end(), t) != v.types.end()) out.push_back(t);
  return out;
}

std::uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

}  // namespace

std::string PointSpec::label() const {
  const VariantInfo* v = find_variant_by_id(variant);
  std::ostringstream os;
  os << (v ? v->seed_label(unroll) : variant) << '/' << to_string(workspace);
  if (block_size) os << " B=" << block_size;
  os << " U=" << unroll << " N=" << format_size(size) << ' ' << to_string(type);
  return os.str();
}

std::uint64_t device_bytes_needed(const PointSpec& p, std::size_t l2_bytes) {
  // Upper bounds that hold for every variant: the input padded to a whole tile, a pristine copy
  // for in-place runs, one int64 partial per 32 elements, 64 MB for CUB temp storage and
  // counters, and the L2 flush buffer.
  const std::uint64_t pad = 1024u * 16u;
  const std::uint64_t input = (p.size + pad) * 4;
  const std::uint64_t pristine = p.workspace == Workspace::Global ? input : 0;
  const std::uint64_t partials = (p.size / 32 + 1) * 8;
  return input + pristine + partials + (std::uint64_t(64) << 20) + 2 * std::uint64_t(l2_bytes);
}

std::vector<std::string> validate(const ExperimentSpec& s, const DeviceInfo* device) {
  std::vector<std::string> errors;
  std::vector<VariantRef> refs;
  if (s.variants.empty()) errors.push_back("variants: none selected");
  for (const auto& name : s.variants) {
    auto ref = resolve_variant(name);
    if (!ref) {
      errors.push_back("variant '" + name + "': unknown (see `reductionlab-cli variants`)");
      continue;
    }
    if (ref->unroll && !ref->variant->takes_unroll(*ref->unroll))
      errors.push_back("variant '" + name + "': unroll " + std::to_string(*ref->unroll) +
                       " is not built; " + ref->variant->id + " takes " +
                       join_ints(ref->variant->unroll_factors));
    else
      refs.push_back(*ref);
  }
  if (s.workspaces.empty()) errors.push_back("workspaces: none selected");
  if (s.block_sizes.empty()) errors.push_back("block sizes: none selected");
  if (s.sizes.empty()) errors.push_back("sizes: none selected");
  if (s.types.empty()) errors.push_back("types: none selected");
  const int max_block =
      device && device->max_threads_per_block > 0 ? device->max_threads_per_block : 1024;
  for (int b : s.block_sizes) {
    if (b < 32 || b > 1024 || !is_pow2(std::uint64_t(b)))
      errors.push_back("block size " + std::to_string(b) +
                       ": must be a power of two from 32 to 1024");
    else if (b > max_block)
      errors.push_back("block size " + std::to_string(b) + ": above this device's limit of " +
                       std::to_string(max_block) + " threads per block");
  }
  for (int u : s.unroll_factors) {
    bool taken = false;
    for (const auto& r : refs) taken = taken || r.variant->takes_unroll(u);
    if (!taken && !refs.empty())
      errors.push_back("unroll " + std::to_string(u) + ": no selected variant takes it (" +
                       refs.front().variant->id + " takes " +
                       join_ints(refs.front().variant->unroll_factors) + ")");
  }
  if (errors.empty()) {
    for (const auto& r : refs) {
      const VariantInfo& v = *r.variant;
      if (unrolls_for(r, s).empty())
        errors.push_back("variant " + v.id + ": takes unroll factors " +
                         join_ints(v.unroll_factors) + "; none of those requested");
      if (blocks_for(v, s).empty())
        errors.push_back("variant " + v.id + ": takes block sizes " + join_ints(v.block_sizes) +
                         "; none of those requested");
      if (workspaces_for(v, s).empty())
        errors.push_back("variant " + v.id + ": does not take the requested workspace(s)");
      if (types_for(v, s).empty())
        errors.push_back("variant " + v.id + ": does not take the requested type(s)");
    }
  }
  for (std::uint64_t n : s.sizes) {
    if (n == 0) {
      errors.push_back("size 0: N must be at least 1");
      continue;
    }
    // The host always holds the input (and, for checking, the block model's copy of it).
    const std::uint64_t host_need = n * 4 * 2;
    const std::uint64_t host_have = host_memory_bytes();
    if (host_have && host_need > host_have)
      errors.push_back("size " + format_size(n) + ": needs " + gigabytes(host_need) +
                       " of host memory for the input and its check; " + gigabytes(host_have) +
                       " installed");
    if (device && device->backend == "cuda" && device->total_memory) {
      std::uint64_t need = 0;
      for (Workspace w : s.workspaces)
        need = std::max(need, device_bytes_needed(PointSpec{"", w, 1024, 16, n, DType::Int32},
                                                  device->l2_bytes));
      if (need > device->total_memory)
        errors.push_back("size " + format_size(n) + ": needs " + gigabytes(need) +
                         " of device memory; " + gigabytes(device->total_memory) + " total, " +
                         gigabytes(device->free_memory) + " free");
    }
  }
  const TimingOptions& t = s.timing;
  if (!(t.noise > 0 && t.noise < 1))
    errors.push_back("noise " + std::to_string(t.noise) + ": must be between 0 and 1 (0.01 = 1%)");
  if (!(t.budget_ms > 0 && t.budget_ms <= 600000))
    errors.push_back("budget " + std::to_string(t.budget_ms) +
                     " ms: must be above 0 and at most 600000");
  if (t.warmup < 0 || t.warmup > 1000) errors.push_back("warm-up runs: must be 0..1000");
  if (t.min_samples < 1 || t.max_samples < t.min_samples)
    errors.push_back("samples: need 1 <= min samples (" + std::to_string(t.min_samples) +
                     ") <= max samples (" + std::to_string(t.max_samples) + ")");
  else if (t.max_samples > 1000000)
    errors.push_back("max samples " + std::to_string(t.max_samples) + ": at most 1000000");
  if (!s.baseline.empty() && !resolve_variant(s.baseline))
    errors.push_back("baseline '" + s.baseline + "': unknown variant");
  return errors;
}

std::vector<PointSpec> expand(const ExperimentSpec& s) {
  std::vector<PointSpec> points;
  std::set<std::tuple<std::uint64_t, int, std::string, int, int, int>> seen;
  for (std::uint64_t n : s.sizes) {
    for (DType t : s.types) {
      for (const auto& name : s.variants) {
        auto ref = resolve_variant(name);
        if (!ref) continue;
        const VariantInfo& v = *ref->variant;
        if (std::find(v.types.begin(), v.types.end(), t) == v.types.end()) continue;
        for (Workspace w : workspaces_for(v, s))
          for (int b : blocks_for(v, s))
            for (int u : unrolls_for(*ref, s)) {
              if (!v.takes_unroll(u)) continue;
              auto key = std::make_tuple(n, int(t), v.id, int(w), b, u);
              if (!seen.insert(key).second) continue;
              points.push_back(PointSpec{v.id, w, b, u, n, t});
            }
      }
    }
  }
  return points;
}

bool parse_size(std::string_view text, std::uint64_t* out, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "size '" + std::string(text) + "': " + why;
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
        if (error)
          *error = "size range '" + std::string(item) + "': ends must be powers of two, low..high";
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

}  // namespace rl
