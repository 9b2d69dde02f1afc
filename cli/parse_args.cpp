#include "parse_args.h"

#include <charconv>
#include <cmath>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/spec.h"
#include "engine/user/user_kernel.h"

namespace rlcli {

namespace {

std::string in_quotes(std::string_view s) {
  return rl::echo(s);  // cut when long: the message stays short
}

[[noreturn]] void bad(std::string_view flag, std::string_view text, const std::string& why) {
  throw UsageError(std::string(flag) + " " + in_quotes(text) + ": " + why);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<std::string> split_list(std::string_view flag, std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        trim(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
    if (item.empty()) bad(flag, text, "empty item in the list");
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

int parse_int(std::string_view flag, std::string_view text) {
  const std::string_view t = trim(text);
  int value = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec == std::errc::result_out_of_range) bad(flag, text, "number too large");
  if (t.empty() || ec != std::errc() || p != t.data() + t.size())
    bad(flag, text, in_quotes(t) + " is not a whole number");
  return value;
}

std::vector<int> parse_int_list(std::string_view flag, std::string_view text) {
  // The engine's grammar (engine/experiment/grammar.h): "256,1024", "2^8", "64..1024", as in the
  // app.
  const std::string what = flag == "--block-sizes" ? "block size"
                           : flag == "--unroll"    ? "unroll factor"
                                                   : "value";
  std::vector<int> out;
  std::string error;
  if (!rl::parse_int_list(text, what, &out, &error))
    throw UsageError(std::string(flag) + ": " + error);
  return out;
}

double parse_number(std::string_view flag, std::string_view text) {
  const std::string_view t = trim(text);
  double value = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size() || !std::isfinite(value))
    bad(flag, text, "expected a number");
  return value;
}

std::uint64_t parse_size_arg(std::string_view flag, std::string_view text) {
  std::uint64_t n = 0;
  std::string error;
  if (!rl::parse_size(text, &n, &error)) throw UsageError(std::string(flag) + ": " + error);
  return n;
}

std::vector<std::uint64_t> parse_sizes_arg(std::string_view flag, std::string_view text) {
  std::vector<std::uint64_t> sizes;
  std::string error;
  if (!rl::parse_size_list(text, &sizes, &error))
    throw UsageError(std::string(flag) + ": " + error);
  return sizes;
}

std::vector<rl::Workspace> parse_workspaces(std::string_view flag, std::string_view text) {
  if (trim(text) == "both") return {rl::Workspace::Global, rl::Workspace::Shared};
  std::vector<rl::Workspace> out;
  for (const std::string& item : split_list(flag, text)) {
    const auto w = rl::parse_workspace(item);
    if (!w)
      bad(flag, text,
          "unknown workspace " + in_quotes(item) + " (expected global, shared or both)");
    out.push_back(*w);
  }
  return out;
}

std::vector<rl::DType> parse_types(std::string_view flag, std::string_view text) {
  if (trim(text) == "both") return {rl::DType::Int32, rl::DType::Float32};
  std::vector<rl::DType> out;
  for (const std::string& item : split_list(flag, text)) {
    const auto t = rl::parse_dtype(item);
    if (!t)
      bad(flag, text, "unknown type " + in_quotes(item) + " (expected int32, float32 or both)");
    out.push_back(*t);
  }
  return out;
}

std::vector<std::string> parse_variant_names(std::string_view flag, std::string_view text) {
  std::vector<std::string> out;
  for (const std::string& item : split_list(flag, text)) {
    // `all` stays in the spec: the engine decides, once the device is known, which variants it
    // stands for (rl::resolve_all).
    if (item != rl::kAllVariants && !rl::resolve_variant(item))
      bad(flag, text,
          "unknown variant " + in_quotes(item) + " (run `reductionlab-cli variants` for the list)");
    out.push_back(item);
  }
  return out;
}

std::string parse_variant_id(std::string_view flag, std::string_view text) {
  const auto ref = rl::resolve_variant(trim(text));
  if (!ref) bad(flag, text, "unknown variant (run `reductionlab-cli variants` for the list)");
  // reduceUnroll3 names no kernel, even where only the variant counts.
  if (ref->unroll && !ref->variant->takes_unroll(*ref->unroll)) {
    std::string factors;
    for (int u : ref->variant->unroll_factors)
      factors += (factors.empty() ? "" : ", ") + std::to_string(u);
    bad(flag, text,
        "unroll " + std::to_string(*ref->unroll) + " is not built; " + ref->variant->id +
            " takes " + factors);
  }
  return ref->variant->id;
}

DeviceChoice parse_device(std::string_view flag, std::string_view text) {
  const std::string_view t = trim(text);
  if (t == "cpu" || t == "host") return DeviceChoice{true, 0};
  if (t == "cuda" || t == "gpu") return DeviceChoice{false, 0};
  if (t.rfind("cuda:", 0) == 0) {
    const std::string_view digits = t.substr(5);
    int index = -1;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec == std::errc() && p == digits.data() + digits.size() && index >= 0)
      return DeviceChoice{false, index};
  }
  bad(flag, text, "expected cpu or cuda:N (see `reductionlab-cli devices`)");
}

rl::UserKernelSource read_kernel_arg(const std::string& path, const std::string& name) {
  try {
    rl::UserKernelSource k = rl::read_user_kernel_file(path, name);  // the contract checked
    rl::register_user_kernel(k);  // cannot be refused once read: the same checks
    return k;
  } catch (const rl::Error& e) {
    throw UsageError(std::string("--kernel ") + e.what());
  }
}

}  // namespace rlcli
