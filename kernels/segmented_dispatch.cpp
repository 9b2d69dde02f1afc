// plan_segmented / launch_segmented: what every rows and columns launch must satisfy, then the
// family's own planner or launcher (segmented_shape.h). The checks come before any device call,
// so a bad shape is refused the same way with or without a GPU.
#include <cstdint>

#include "kernels/accepts.h"
#include "segmented_shape.h"

namespace rl::kernels::segmented {
namespace {

bool is_row_kernel(KernelId k) {
  return k == KernelId::RowPerThread || k == KernelId::RowPerWarp || k == KernelId::RowPerBlock ||
         k == KernelId::RowSplit;
}

// A matrix of at least one row and one column whose elements are exactly n.
bool shape_is_whole(const LaunchArgs& a) {
  if (a.rows == 0 || a.cols == 0) return false;
  if (a.rows > SIZE_MAX / a.cols) return false;
  return a.rows * a.cols == a.n;
}

}  // namespace

cudaError_t plan_segmented(const LaunchArgs& a, LaunchPlan* plan) {
  if (plan == nullptr || !is_segmented_kernel(a.kernel) || !shape_is_whole(a))
    return cudaErrorInvalidValue;
  if (!accepts_launch(a.kernel, a.block_size, a.unroll, a.type, a.workspace))
    return cudaErrorInvalidValue;
  if (is_row_kernel(a.kernel)) return plan_rows(a, plan);
  if (reduces_columns(a.kernel)) return plan_columns(a, plan);
  if (a.kernel == KernelId::CubSegmentedRows) return plan_cub_rows(a, plan);
  return cudaErrorInvalidValue;
}

cudaError_t launch_segmented(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_segmented_kernel(a.kernel) || !shape_is_whole(a)) return cudaErrorInvalidValue;
  if (a.input == nullptr || a.partials == nullptr) return cudaErrorInvalidValue;
  if (p.scratch_bytes > 0 && a.scratch == nullptr) return cudaErrorInvalidValue;
  // The plan must be this shape's: one sum per row (column), as many as partials holds.
  if (p.partial_count != (reduces_columns(a.kernel) ? a.cols : a.rows))
    return cudaErrorInvalidValue;
  if (is_row_kernel(a.kernel)) return launch_rows(a, p);
  if (reduces_columns(a.kernel)) return launch_columns(a, p);
  if (a.kernel == KernelId::CubSegmentedRows) return launch_cub_rows(a, p);
  return cudaErrorInvalidValue;
}

}  // namespace rl::kernels::segmented
