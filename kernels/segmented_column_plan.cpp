// columns_shape and plan_columns: the host side of segmented_columns.cu's launches.
#include "segmented_column_plan.h"

#include <cstdlib>

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
  // Trial: a wider tile (RL_TRIAL_TILE_WIDTH units), the slabs recomputed as column_slab_shape.
  if (const char* e = std::getenv("RL_TRIAL_TILE_WIDTH")) {
    const std::size_t units = s.view.cols / s.slabs.lanes, block = a.block_size;
    std::size_t w = std::strtoul(e, nullptr, 10);
    if (w > pow2_ceil(units)) w = pow2_ceil(units);
    if (w > block) w = block;
    if (w > s.slabs.tile.width) {
      ColumnSlabShape& t = s.slabs;
      t.tile.width = static_cast<unsigned>(w);
      t.tile.column_blocks = ceil_div(units, w);
      const std::size_t down = block / w;
      const std::size_t target_threads =
          kColumnTargetLoads / static_cast<std::size_t>(a.unroll) * (t.lanes == 4 ? 1 : 2);
      const std::size_t wanted = ceil_div(target_threads / block, t.tile.column_blocks);
      const std::size_t least =
          kMinSlabRows > down * kMinRowsPerThread ? kMinSlabRows : down * kMinRowsPerThread;
      const std::size_t most = s.view.rows / least < 1 ? 1 : s.view.rows / least;
      const std::size_t slabs = wanted < most ? wanted : most;
      t.slab_rows = ceil_div(s.view.rows, slabs);
      t.slabs = ceil_div(s.view.rows, t.slab_rows);
    }
  }
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
