// The spec's rules for matrices: which variants `all` means with shapes, and what is wrong with
// a spec's shapes (spec_shapes.h).
#include "experiment/spec_shapes.h"

#include <set>

#include "engine/core/echo.h"

namespace rl::spec_detail {

namespace {

constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 40;  // as parse_shape

bool filter_takes(ReduceFilter f, Reduces r) {
  return f == ReduceFilter::Both || (f == ReduceFilter::Rows && r == Reduces::Rows) ||
         (f == ReduceFilter::Columns && r == Reduces::Columns);
}

std::string matrix_variant_ids() {
  std::string s;
  for (const VariantInfo& v : catalog())
    if (v.is_segmented()) s += (s.empty() ? "" : ", ") + v.id;
  return s;
}

// A shape's own problems; true when it is usable (then its memory is checked).
bool check_shape_values(const MatrixShape& m, std::vector<std::string>& errors) {
  const std::string what = "shape " + format_shape(m);
  if (m.rows == 0) errors.push_back(what + ": rows must be at least 1");
  if (m.cols == 0) errors.push_back(what + ": cols must be at least 1");
  if (m.rows == 0 || m.cols == 0) return false;
  if (m.rows > kMaxElements / m.cols) {
    errors.push_back(what + ": rows x cols too large (at most 2^40 elements)");
    return false;
  }
  return true;
}

}  // namespace

bool all_considers(const VariantInfo& v, const ExperimentSpec& s) {
  if (is_lab(v.family)) return false;  // "all" is every reduction; the labs are named or preset
  if (s.shapes.empty()) return !v.is_segmented();
  return v.is_segmented() && filter_takes(s.reduce, v.reduces);
}

void check_shapes(const ExperimentSpec& s, const std::vector<VariantRef>& refs,
                  const DeviceInfo* device, std::vector<std::string>& errors) {
  bool matrix_named = false;
  for (const VariantRef& r : refs) {
    if (!r.variant->is_segmented()) continue;
    matrix_named = true;
    if (s.shapes.empty())
      errors.push_back("variant " + r.variant->id + ": sums each " +
                       (r.variant->reduces == Reduces::Rows ? "row" : "column") +
                       " of a matrix and needs shapes (e.g. 4096x4096), not sizes");
  }
  if (!s.shapes.empty() && !matrix_named && !refs.empty())
    errors.push_back("shapes: no selected variant sums rows or columns (they are " +
                     matrix_variant_ids() + ")");
  std::set<MatrixShape> seen;
  const std::uint64_t host_have = installed_host_memory();
  for (const MatrixShape& m : s.shapes) {
    if (!seen.insert(m).second || !check_shape_values(m, errors)) continue;
    PointSpec p;
    p.workspace = Workspace::Registers;
    p.size = m.rows * m.cols;
    p.rows = m.rows;
    p.cols = m.cols;
    check_memory("shape " + format_shape(m), p, s, device, host_have, errors);
  }
}

}  // namespace rl::spec_detail
