// A spec expanded into the points a run measures (expand()) and counted without building them
// (count_points()), on the spec's axes (spec.cpp); apart from the checks (spec_validate.cpp),
// which call count_points() to refuse a spec too large to run.
#include "engine/experiment/spec.h"
#include "engine/user/user_kernel.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "experiment/spec_axes.h"

namespace rl {

namespace {

using spec_detail::all_resolved;
using spec_detail::blocks_for;
using spec_detail::saturating_add;
using spec_detail::saturating_mul;
using spec_detail::too_many_points;
using spec_detail::unrolls_for;
using spec_detail::workspaces_for;

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

namespace spec_detail {

std::string too_many_points(std::uint64_t n, std::uint64_t max) {
  return "points: the spec expands to " +
         (n == UINT64_MAX ? std::string("more than 2^64") : std::to_string(n)) +
         " points; at most " + std::to_string(max) +
         " (max_points in a spec file, --max-points on the command line)";
}

}  // namespace spec_detail

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
            for (int u : unrolls_for(*ref, s, cols, b)) {
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
