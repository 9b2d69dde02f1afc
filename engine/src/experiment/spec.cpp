// The spec's axes: what each variant takes from a request, what `all` stands for, and the small
// facts about points and filters that spec.h declares. Checking a spec (spec_validate.cpp) and
// expanding it into points (spec_expand.cpp) are apart, both built on these (spec_axes.h).
#include "engine/experiment/spec.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "engine/catalog/catalog.h"
#include "engine/device/device.h"
#include "experiment/spec_axes.h"
#include "experiment/spec_shapes.h"

namespace rl {

namespace {

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

std::vector<DType> types_for(const VariantInfo& v, const ExperimentSpec& s) {
  std::vector<DType> out;
  for (DType t : s.types)
    if (std::find(v.types.begin(), v.types.end(), t) != v.types.end()) out.push_back(t);
  return out;
}

}  // namespace

namespace spec_detail {

std::string join_ints(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::vector<int> unrolls_for(const VariantRef& ref, const ExperimentSpec& s, std::uint64_t cols,
                             int block) {
  if (ref.unroll) return {*ref.unroll};
  // A variant with one factor has no unroll axis (CUB DeviceReduce): it ignores the request.
  if (s.unroll_factors.empty() || ref.variant->unroll_factors.size() == 1)
    return {ref.variant->default_unroll_at(cols, block)};
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

}  // namespace spec_detail

namespace {

// The ids `all` stands for, in catalog order; the rest go to *excluded with their reasons.
// Without check_device only the spec's axes decide (expand() has no device).
std::vector<std::string> ids_for_all(const ExperimentSpec& s, const DeviceInfo* device,
                                     bool check_device, std::vector<Exclusion>* excluded) {
  std::vector<std::string> ids;
  for (const VariantInfo& v : catalog()) {
    if (!spec_detail::all_considers(v, s)) continue;
    std::vector<std::string> why = spec_detail::axis_reasons(VariantRef{&v, std::nullopt}, s);
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

}  // namespace

ExperimentSpec spec_detail::all_resolved(const ExperimentSpec& spec) {
  return names_all(spec) ? with_all_replaced(spec, ids_for_all(spec, nullptr, false, nullptr))
                         : spec;
}

std::string PointSpec::label() const {
  const VariantInfo* v = find_variant_by_id(variant);
  std::ostringstream os;
  os << (v ? v->seed_label(unroll) : variant) << '/' << to_string(workspace);
  if (block_size) os << " B=" << block_size;
  os << " U=" << unroll << (is_matrix() ? " " : " N=") << size_text() << ' ' << to_string(type);
  return os.str();
}

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
  if (!spec_detail::names_all(spec)) return spec;
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

}  // namespace rl
