// What is wrong with a spec, every message naming its field (validate()), and the memory a point
// needs (device_bytes_needed()). Apart from the spec's axes (spec.cpp) because these read the
// device and the host, and from the expansion into points (spec_expand.cpp).
#include "engine/experiment/spec.h"
#include "engine/user/user_kernel.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/device/device.h"
#include "experiment/spec_axes.h"
#include "experiment/spec_shapes.h"

namespace rl {

namespace {

using spec_detail::axis_reasons;
using spec_detail::join_ints;
using spec_detail::names_all;
using spec_detail::saturating_add;
using spec_detail::saturating_mul;
using spec_detail::too_many_points;

std::string gigabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / 1e9);
  return buf;
}

constexpr std::uint64_t kMaxSize = std::uint64_t(1) << 40;  // as parse_size

std::uint64_t host_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : 0;
}

// Names that do not resolve, or carry a factor that is not built; the rest go to *refs.
void check_names(const ExperimentSpec& s, std::vector<VariantRef>* refs,
                 std::vector<std::string>& errors) {
  for (const auto& name : s.variants) {
    auto ref = resolve_variant(name);
    if (!ref) {
      errors.push_back("variant " + echo(name) + ": unknown (see `reductionlab-cli variants`)");
    } else if (ref->unroll && !ref->variant->takes_unroll(*ref->unroll)) {
      errors.push_back("variant " + echo(name) + ": unroll " + std::to_string(*ref->unroll) +
                       " is not built; " + ref->variant->id + " takes " +
                       join_ints(ref->variant->unroll_factors));
    } else {
      refs->push_back(*ref);
    }
  }
}

void check_block_sizes(const ExperimentSpec& s, const DeviceInfo* device,
                       std::vector<std::string>& errors) {
  const int max_block =
      device && device->max_threads_per_block > 0 ? device->max_threads_per_block : kMaxBlockSize;
  for (int b : s.block_sizes) {
    if (!is_block_size(b))
      errors.push_back("block size " + std::to_string(b) + ": " + kBlockSizeRule);
    else if (b > max_block)
      errors.push_back("block size " + std::to_string(b) + ": above this device's limit of " +
                       std::to_string(max_block) + " threads per block");
  }
}

// Every requested factor must matter to some variant, and every named variant must keep at
// least one value on each axis (`all` already left out those that would not).
void check_variants_take(const ExperimentSpec& s, const std::vector<VariantRef>& refs,
                         std::vector<std::string>& errors) {
  for (int u : s.unroll_factors) {
    // The factors apply to variants named without one: a name that carries a factor
    // (reduceUnroll8) fixes it, as `trace` does, so a different factor for that variant alone
    // is a conflict, not a value silently dropped.
    bool taken = false;
    const VariantRef* fixed = nullptr;
    for (const auto& r : refs) {
      if (!r.unroll)
        taken = taken || r.variant->takes_unroll(u);
      else if (*r.unroll == u)
        taken = true;
      else if (r.variant->takes_unroll(u) && !fixed)
        fixed = &r;
    }
    if (!taken && fixed) {
      errors.push_back("unroll " + std::to_string(u) + ": conflicts with variant " +
                       fixed->variant->seed_label(*fixed->unroll) + ", whose name fixes unroll " +
                       std::to_string(*fixed->unroll) + " (name the variant as " +
                       fixed->variant->id + " to run it at the factors given)");
      continue;
    }
    if (!taken && !refs.empty())
      errors.push_back("unroll " + std::to_string(u) + ": no selected variant takes it (" +
                       refs.front().variant->id + " takes " +
                       join_ints(refs.front().variant->unroll_factors) + ")");
  }
  if (!errors.empty()) return;
  for (const auto& r : refs)
    for (const std::string& why : axis_reasons(r, s))
      errors.push_back("variant " + r.variant->id + ": " + why);
}

void check_sizes(const ExperimentSpec& s, const DeviceInfo* device,
                 std::vector<std::string>& errors) {
  // Each distinct size once: a spec of 20,000 ranges repeats its sizes 20,000 times, and one
  // message each is what people read.
  std::unordered_set<std::uint64_t> seen;
  const std::uint64_t host_have = host_memory_bytes();
  for (std::uint64_t n : s.sizes) {
    if (!seen.insert(n).second) continue;
    if (n == 0) {
      errors.push_back("size 0: N must be at least 1");
      continue;
    }
    // As parse_size: a number from a spec file (2^61) must not wrap the arithmetic below.
    if (n > kMaxSize) {
      errors.push_back("size " + format_size(n) + ": too large (at most 2^40)");
      continue;
    }
    spec_detail::check_memory("size " + format_size(n), PointSpec{"", {}, 1024, 16, n}, s, device,
                              host_have, errors);
  }
}

// As typed: "2", "0.5", "1e+07", not std::to_string's "2.000000".
std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

void check_timing(const TimingOptions& t, std::vector<std::string>& errors) {
  if (!(t.noise > 0 && t.noise < 1))
    errors.push_back("noise " + number(t.noise) + ": must be between 0 and 1 (0.01 = 1%)");
  if (!(t.budget_ms > 0 && t.budget_ms <= 600000))
    errors.push_back("budget " + number(t.budget_ms) + " ms: must be above 0 and at most 600000");
  if (t.warmup < 0 || t.warmup > 1000) errors.push_back("warm-up runs: must be 0..1000");
  if (t.min_samples < 1 || t.max_samples < t.min_samples)
    errors.push_back("samples: need 1 <= min samples (" + std::to_string(t.min_samples) +
                     ") <= max samples (" + std::to_string(t.max_samples) + ")");
  else if (t.max_samples > 1000000)
    errors.push_back("max samples " + std::to_string(t.max_samples) + ": at most 1000000");
  if (!(t.user_kernel_limit_s >= 0.5 && t.user_kernel_limit_s <= 3600))
    errors.push_back("time limit " + number(t.user_kernel_limit_s) +
                     " s for a kernel you wrote: seconds from 0.5 to 3600");
}

}  // namespace

namespace spec_detail {

void check_memory(const std::string& what, PointSpec p, const ExperimentSpec& s,
                  const DeviceInfo* device, std::uint64_t host_have,
                  std::vector<std::string>& errors) {
  // The host always holds the input (and, for checking, the block model's copy of it).
  const std::uint64_t host_need = saturating_mul(p.size, 4 * 2);
  if (host_have && host_need > host_have)
    errors.push_back(what + ": needs " + gigabytes(host_need) +
                     " of host memory for the input and its check; " + gigabytes(host_have) +
                     " installed");
  if (device && device->backend == "cuda" && device->total_memory) {
    // A matrix point keeps its sums in registers whatever the spec's workspaces.
    std::uint64_t need = p.is_matrix() ? device_bytes_needed(p, device->l2_bytes) : 0;
    for (Workspace w : p.is_matrix() ? std::vector<Workspace>{} : s.workspaces) {
      p.workspace = w;
      need = std::max(need, device_bytes_needed(p, device->l2_bytes));
    }
    if (need > device->total_memory)
      errors.push_back(what + ": needs " + gigabytes(need) + " of device memory; " +
                       gigabytes(device->total_memory) + " total, " +
                       gigabytes(device->free_memory) + " free");
  }
}

std::uint64_t installed_host_memory() {
  return host_memory_bytes();
}

}  // namespace spec_detail

std::uint64_t device_bytes_needed(const PointSpec& p, std::size_t l2_bytes) {
  // Upper bounds that hold for every variant: the input padded to a whole tile, a pristine copy
  // for in-place runs, one int64 partial per 32 elements, 64 MB for CUB temp storage and
  // counters, and the L2 flush buffer.
  // Saturating: a size no memory holds gives UINT64_MAX, never a small wrapped number.
  const std::uint64_t pad = 1024u * 16u;
  const std::uint64_t input = saturating_mul(saturating_add(p.size, pad), 4);
  const std::uint64_t pristine = p.workspace == Workspace::Global ? input : 0;
  // A matrix point writes a sum per row (column), and a split its pieces' sums as well.
  const std::uint64_t partials = p.is_matrix() ? saturating_mul(std::max(p.rows, p.cols) + 1, 8 * 2)
                                               : saturating_mul(p.size / 32 + 1, 8);
  std::uint64_t total = saturating_add(input, pristine);
  // branch_partitioned maps a partitioned copy of the input.
  if (const VariantInfo* v = find_variant_by_id(p.variant); v && !v->sums_input)
    total = saturating_add(total, input);
  total = saturating_add(total, partials);
  total = saturating_add(total, std::uint64_t(64) << 20);
  return saturating_add(total, saturating_mul(std::uint64_t(l2_bytes), 2));
}

std::vector<std::string> validate(const ExperimentSpec& spec, const DeviceInfo* device) {
  std::vector<std::string> user_errors;
  for (const UserKernelSource& k : spec.user_kernels)
    if (const std::string why = register_user_kernel(k); !why.empty())
      user_errors.push_back("user kernel " + echo(k.name) + ": " + why);
  if (!user_errors.empty()) return user_errors;  // the names below would only repeat them
  std::vector<Exclusion> excluded;
  const ExperimentSpec s = resolve_all(spec, device, &excluded);
  std::vector<std::string> errors;
  std::vector<VariantRef> refs;
  if (spec.variants.empty()) errors.push_back("variants: none selected");
  check_names(s, &refs, errors);
  if (s.workspaces.empty()) errors.push_back("workspaces: none selected");
  if (s.block_sizes.empty()) errors.push_back("block sizes: none selected");
  if (s.sizes.empty() && s.shapes.empty()) errors.push_back("sizes: none selected");
  if (s.types.empty()) errors.push_back("types: none selected");
  check_block_sizes(s, device, errors);
  const auto reductions =
      std::count_if(catalog().begin(), catalog().end(),
                    [&](const VariantInfo& v) { return spec_detail::all_considers(v, spec); });
  if (errors.empty() && names_all(spec) && std::ptrdiff_t(excluded.size()) == reductions) {
    // Said only when nothing else is wrong: a bad axis value leaves out every variant too.
    errors.push_back("variants all: no variant applies to this request on this device");
    for (const std::string& line : describe_exclusions(excluded))
      errors.push_back("variants all: left out " + line);
  }
  if (errors.empty()) check_variants_take(s, refs, errors);
  check_sizes(s, device, errors);
  spec_detail::check_shapes(s, refs, device, errors);
  check_timing(s.timing, errors);
  if (const std::uint64_t n = count_points(s); n > s.max_points)
    errors.push_back(too_many_points(n, s.max_points));
  if (!s.baseline.empty() && !resolve_variant(s.baseline))
    errors.push_back("baseline " + echo(s.baseline) + ": unknown variant");
  return errors;
}

}  // namespace rl
