#include "engine/experiment/spec.h"
#include "engine/user/user_kernel.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_set>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "experiment/spec_shapes.h"

namespace rl {

namespace {

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string_view name_of(Workspace w) {
  return to_string(w);
}
std::string_view name_of(DType t) {
  return to_string(t);
}
std::string_view name_of(const std::string& s) {
  return s;
}

template <class T>
std::string join_names(const std::vector<T>& v, const char* sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::string(name_of(v[i]));
  return s;
}

std::string gigabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / 1e9);
  return buf;
}

constexpr std::uint64_t kMaxSize = std::uint64_t(1) << 40;  // as parse_size

// Byte counts that cannot wrap: a result past 2^64 stays at the maximum, which no memory holds.
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// The unroll factors a variant runs at, given the request, ascending: a variant's lowest
// factor is its own speed-up baseline (results.h), so it runs first and every row has one.
std::vector<int> unrolls_for(const VariantRef& ref, const ExperimentSpec& s) {
  if (ref.unroll) return {*ref.unroll};
  // A variant with one factor has no unroll axis (CUB DeviceReduce): it ignores the request.
  if (s.unroll_factors.empty() || ref.variant->unroll_factors.size() == 1)
    return {ref.variant->default_unroll};
  std::set<int> out;
  for (int u : s.unroll_factors)
    if (ref.variant->takes_unroll(u)) out.insert(u);
  return {out.begin(), out.end()};
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

// Each axis on which the variant takes none of the requested values: "takes X, not Y".
std::vector<std::string> axis_reasons(const VariantRef& r, const ExperimentSpec& s) {
  const VariantInfo& v = *r.variant;
  std::vector<std::string> out;
  if (unrolls_for(r, s).empty())
    out.push_back("takes unroll factors " + join_ints(v.unroll_factors) + ", not " +
                  join_ints(s.unroll_factors));
  if (blocks_for(v, s).empty())
    out.push_back("takes block sizes " + join_ints(v.block_sizes) + ", not " +
                  join_ints(s.block_sizes));
  if (workspaces_for(v, s).empty())
    out.push_back("takes workspaces " + join_names(v.workspaces) + ", not " +
                  join_names(s.workspaces));
  if (types_for(v, s).empty())
    out.push_back("takes " + join_names(v.types) + (v.types.size() == 1 ? " only" : "") + ", not " +
                  join_names(s.types));
  return out;
}

bool names_all(const ExperimentSpec& s) {
  return std::find(s.variants.begin(), s.variants.end(), kAllVariants) != s.variants.end();
}

// The ids `all` stands for, in catalog order; the rest go to *excluded with their reasons.
// Without check_device only the spec's axes decide (expand() has no device).
std::vector<std::string> ids_for_all(const ExperimentSpec& s, const DeviceInfo* device,
                                     bool check_device, std::vector<Exclusion>* excluded) {
  std::vector<std::string> ids;
  for (const VariantInfo& v : catalog()) {
    if (!spec_detail::all_considers(v, s)) continue;
    std::vector<std::string> why = axis_reasons(VariantRef{&v, std::nullopt}, s);
    if (const std::string d = check_device ? device_excludes(v, device) : ""; !d.empty())
      why.push_back(d);
    if (why.empty())
      ids.push_back(v.id);
    else if (excluded)
      excluded->push_back(Exclusion{v.id, join_names(why, "; ")});
  }
  return ids;
}

// spec.variants with the first "all" replaced by ids (less those also named on their own, at
// their default factors) and any further "all" dropped.
ExperimentSpec with_all_replaced(const ExperimentSpec& spec, const std::vector<std::string>& ids) {
  std::set<std::string> named;
  for (const auto& name : spec.variants)
    if (auto ref = resolve_variant(name); ref && !ref->unroll) named.insert(ref->variant->id);
  ExperimentSpec s = spec;
  s.variants.clear();
  bool replaced = false;
  for (const auto& name : spec.variants) {
    if (name != kAllVariants) {
      s.variants.push_back(name);
    } else if (!replaced) {
      replaced = true;
      for (const auto& id : ids)
        if (!named.count(id)) s.variants.push_back(id);
    }
  }
  return s;
}

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

std::string PointSpec::label() const {
  const VariantInfo* v = find_variant_by_id(variant);
  std::ostringstream os;
  os << (v ? v->seed_label(unroll) : variant) << '/' << to_string(workspace);
  if (block_size) os << " B=" << block_size;
  os << " U=" << unroll << (is_matrix() ? " " : " N=") << size_text() << ' ' << to_string(type);
  return os.str();
}

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

std::string_view to_string(ReduceFilter f) {
  switch (f) {
    case ReduceFilter::Both:
      return "both";
    case ReduceFilter::Rows:
      return "rows";
    case ReduceFilter::Columns:
      return "columns";
  }
  return "?";
}

bool parse_reduce_filter(std::string_view text, ReduceFilter* out) {
  for (ReduceFilter f : {ReduceFilter::Both, ReduceFilter::Rows, ReduceFilter::Columns})
    if (text == to_string(f)) return *out = f, true;
  return false;
}

std::string PointSpec::size_text() const {
  return is_matrix() ? format_shape(rows, cols) : format_size(size);
}

bool same_data(const PointSpec& a, const PointSpec& b) {
  return a.size == b.size && a.rows == b.rows && a.cols == b.cols && a.type == b.type;
}

std::string default_baseline(const ExperimentSpec& spec) {
  bool whole = false;
  for (const std::string& name : spec.variants) {
    const auto ref = resolve_variant(name);
    whole = whole ||
            (ref ? !ref->variant->is_segmented() : name == kAllVariants && spec.shapes.empty());
  }
  if (whole || spec.shapes.empty()) return "neighbored";
  return spec.reduce == ReduceFilter::Columns ? "column_tiled" : "cub_segmented_rows";
}

std::string device_excludes(const VariantInfo& v, const DeviceInfo* device) {
  if (!device || device->backend != "cuda")
    return v.has_block_model ? "" : "no host model, GPU only";
  if (device->compute_capability() >= v.min_compute_capability) return "";
  return "needs sm_" + std::to_string(v.min_compute_capability) + "; this GPU is sm_" +
         std::to_string(device->compute_capability());
}

ExperimentSpec resolve_all(const ExperimentSpec& spec, const DeviceInfo* device,
                           std::vector<Exclusion>* excluded) {
  if (excluded) excluded->clear();
  if (!names_all(spec)) return spec;
  return with_all_replaced(spec, ids_for_all(spec, device, true, excluded));
}

std::vector<std::string> describe_exclusions(const std::vector<Exclusion>& excluded) {
  std::vector<std::string> reasons, ids;  // ids[i]: the variants left out for reasons[i]
  for (const Exclusion& e : excluded) {
    const auto at = std::find(reasons.begin(), reasons.end(), e.reason);
    if (at == reasons.end()) {
      reasons.push_back(e.reason);
      ids.push_back(e.variant);
    } else {
      ids[std::size_t(at - reasons.begin())] += ", " + e.variant;
    }
  }
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < reasons.size(); ++i) lines.push_back(ids[i] + ": " + reasons[i]);
  return lines;
}

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

namespace {

ExperimentSpec all_resolved(const ExperimentSpec& spec) {
  return names_all(spec) ? with_all_replaced(spec, ids_for_all(spec, nullptr, false, nullptr))
                         : spec;
}

std::string too_many_points(std::uint64_t n, std::uint64_t max) {
  return "points: the spec expands to " +
         (n == UINT64_MAX ? std::string("more than 2^64") : std::to_string(n)) +
         " points; at most " + std::to_string(max) +
         " (max_points in a spec file, --max-points on the command line)";
}

// expand()'s loops, counted: every distinct size and type, times each variant's distinct
// (workspace, block, unroll) triples; a variant named twice (its id and a seed name) adds the
// unroll factors of both names, as expand() does.
std::uint64_t count_resolved(const ExperimentSpec& s) {
  std::vector<std::uint64_t> sizes = s.sizes;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::set<DType> types(s.types.begin(), s.types.end());
  struct Axes {
    const VariantInfo* v = nullptr;
    std::set<int> unrolls;
  };
  std::map<std::string, Axes> variants;
  for (const auto& name : s.variants) {
    auto ref = resolve_variant(name);
    if (!ref) continue;
    Axes& axes = variants[ref->variant->id];
    axes.v = ref->variant;
    for (int u : unrolls_for(*ref, s))
      if (ref->variant->takes_unroll(u)) axes.unrolls.insert(u);
  }
  std::uint64_t per_size = 0, per_shape = 0;
  for (const auto& [id, axes] : variants) {
    const std::vector<Workspace> ws = workspaces_for(*axes.v, s);
    const std::vector<int> bs = blocks_for(*axes.v, s);
    const std::set<Workspace> w(ws.begin(), ws.end());
    const std::set<int> b(bs.begin(), bs.end());
    std::uint64_t n = 0;
    for (DType t : types)
      if (std::find(axes.v->types.begin(), axes.v->types.end(), t) != axes.v->types.end()) ++n;
    n = saturating_mul(saturating_mul(saturating_mul(n, w.size()), b.size()), axes.unrolls.size());
    std::uint64_t& per = axes.v->is_segmented() ? per_shape : per_size;
    per = saturating_add(per, n);
  }
  const std::set<MatrixShape> shapes(s.shapes.begin(), s.shapes.end());
  return saturating_add(saturating_mul(per_size, sizes.size()),
                        saturating_mul(per_shape, shapes.size()));
}

// Registers every user kernel of a spec; the first refusal is thrown as rl::Error.
void register_user_kernels(const ExperimentSpec& spec) {
  for (const UserKernelSource& k : spec.user_kernels)
    if (const std::string why = register_user_kernel(k); !why.empty())
      throw Error("user kernel " + k.name + ": " + why);
}

}  // namespace

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

std::uint64_t count_points(const ExperimentSpec& spec) {
  return count_resolved(all_resolved(spec));
}

std::vector<PointSpec> expand(const ExperimentSpec& spec) {
  register_user_kernels(spec);
  const ExperimentSpec s = all_resolved(spec);
  if (const std::uint64_t n = count_resolved(s); n > s.max_points)
    throw Error(too_many_points(n, s.max_points));
  std::vector<PointSpec> points;
  std::set<std::tuple<std::uint64_t, std::uint64_t, int, std::string, int, int, int>> seen;
  // One size (rows 0: a whole array) or one shape: every type, variant and axis value.
  auto add_at = [&](std::uint64_t n, std::uint64_t rows, std::uint64_t cols) {
    for (DType t : s.types) {
      for (const auto& name : s.variants) {
        auto ref = resolve_variant(name);
        if (!ref || ref->variant->is_segmented() != (rows != 0)) continue;
        const VariantInfo& v = *ref->variant;
        if (std::find(v.types.begin(), v.types.end(), t) == v.types.end()) continue;
        for (Workspace w : workspaces_for(v, s))
          for (int b : blocks_for(v, s))
            for (int u : unrolls_for(*ref, s)) {
              if (!v.takes_unroll(u)) continue;
              auto key = std::make_tuple(n, rows, int(t), v.id, int(w), b, u);
              if (!seen.insert(key).second) continue;
              points.push_back(PointSpec{v.id, w, b, u, n, t, rows, cols});
            }
      }
    }
  };
  for (std::uint64_t n : s.sizes) add_at(n, 0, 0);
  for (const MatrixShape& m : s.shapes)
    if (m.rows && m.cols) add_at(m.rows * m.cols, m.rows, m.cols);  // validate() says why not
  return points;
}

}  // namespace rl
