// columns_shape and plan_columns: the host side of segmented_columns.cu's launches.
#include "segmented_column_plan.h"

namespace rl::kernels::segmented {

ColumnsShape columns_shape(const LaunchArgs& a) {
  ColumnsShape s;
  if (a.kernel == KernelId::ColumnStrided) {
    s.grid = dim3(capped_grid(
        ceil_div(a.cols, static_cast<std::size_t>(a.block_size) / 32)));  // a warp a column
    return s;
  }
  s.view = column_view(a.rows, a.cols);
  if (s.view.fold > 1) s.view_sums_bytes = s.view.cols * accum_size(a.type);
  s.slabs = column_slab_shape(s.view.rows, s.view.cols, a.block_size, a.unroll);
  // slabs <= 2 x kColumnTargetLoads / 32 = 32768 (U = 1, blocks of 32), inside grid.y's limit
  // of 65535.
  s.grid = dim3(capped_grid(s.slabs.tile.column_blocks), static_cast<unsigned>(s.slabs.slabs));
  if (s.view.fold > 1) {
    s.chunk_shift = fold_chunk_shift(s.slabs);
    s.fold_tickets = ceil_div(a.cols, std::size_t(s.slabs.tile.width) * s.slabs.lanes);
  }
  s.scratch_bytes = s.view_sums_bytes + s.fold_tickets * sizeof(unsigned);
  if (s.slabs.slabs == 1) return s;
  if (a.type == DType::Int32 && s.view.fold == 1) {
    s.word_stride = counted_word_stride(s.slabs.slabs);
    s.scratch_bytes = s.view.cols * s.word_stride * sizeof(unsigned long long);
    return s;
  }
  // One group when the last block adds every slab's sums in two rounds of loads: a second
  // level costs another fence, ticket and round trip after the first.
  const std::size_t sums = s.slabs.slabs * s.slabs.tile.width * s.slabs.lanes;
  if (sums <= kOneLevelSumsPerThread * static_cast<std::size_t>(a.block_size))
    s.slab_group = s.slabs.slabs;
  else
    while (s.slab_group * s.slab_group < s.slabs.slabs) ++s.slab_group;
  s.groups = ceil_div(s.slabs.slabs, s.slab_group);
  const std::size_t rows_of_sums = s.slabs.slabs + (s.groups > 1 ? s.groups : 0);
  s.scratch_bytes += rows_of_sums * s.view.cols * accum_size(a.type) +
                     s.slabs.tile.column_blocks * (s.groups + 1) * sizeof(unsigned);
  return s;
}

cudaError_t plan_columns(const LaunchArgs& a, LaunchPlan* plan) {
  const ColumnsShape s = columns_shape(a);
  *plan = segment_sums_plan(s.grid.x * s.grid.y, a.cols, a.n, s.scratch_bytes);
  return cudaSuccess;
}

}  // namespace rl::kernels::segmented
