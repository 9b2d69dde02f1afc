// Internal: the grid shapes of the rows and columns kernels (segmented_*.cu), and their
// launchers. Plain host C++: plan_launch computes a shape here, launch_first computes the same
// shape again from the same LaunchArgs (a pure function of rows, cols, block size and unroll, no
// device query), so a float sum is added in the same order on every launch and every GPU.
#pragma once

#include <cstddef>

#include "kernels/launch.h"

namespace rl::kernels::segmented {

// Past this many blocks the kernels walk their rows (columns, pieces) with grid-stride loops:
// far more than any GPU keeps resident, far below CUDA's grid.x limit of 2^31 - 1.
inline constexpr std::size_t kMaxGrid = 65536;
// Blocks a split row or a slabbed column aims to give the GPU: a few waves of resident blocks
// on the largest GPUs (132 SMs x 16 blocks of 128 threads on an H200), so a few long rows still
// keep every SM streaming.
inline constexpr std::size_t kTargetBlocks = 4096;
// The fewest rows a column slab holds, so each thread's running sum amortises its block.
inline constexpr std::size_t kMinSlabRows = 64;
// Threads per block of the second passes (a split row's and a slabbed column's combine).
inline constexpr int kCombineBlock = 256;

inline std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}
inline unsigned capped_grid(std::size_t blocks) {
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks < kMaxGrid ? blocks : kMaxGrid));
}

// RowSplit: each row in `splits` contiguous pieces of `chunk` elements (a multiple of 4, so
// every piece starts at the same 16-byte phase as its row), the last one shorter. A piece is at
// least one pass of the block (block x unroll vectors), and the pieces of all rows together aim
// at kTargetBlocks.
struct RowSplitShape {
  std::size_t splits = 1;
  std::size_t chunk = 0;
};
inline RowSplitShape row_split_shape(std::size_t rows, std::size_t cols, int block, int unroll) {
  const std::size_t pass = static_cast<std::size_t>(block) * unroll * 4;
  const std::size_t passes = ceil_div(cols, pass);
  const std::size_t wanted = ceil_div(kTargetBlocks, rows);
  const std::size_t splits = wanted < passes ? wanted : passes;
  RowSplitShape s;
  s.chunk = ceil_div(ceil_div(cols, splits < 1 ? 1 : splits), 4) * 4;
  s.splits = ceil_div(cols, s.chunk);
  return s;
}

// ColumnTiled: blocks of `block` consecutive columns by slabs of `slab_rows` rows (the last
// slab shorter); enough slabs that column blocks x slabs aims at kTargetBlocks, each slab at
// least kMinSlabRows rows.
struct ColumnSlabShape {
  std::size_t column_blocks = 1;
  std::size_t slabs = 1;
  std::size_t slab_rows = 0;
};
inline ColumnSlabShape column_slab_shape(std::size_t rows, std::size_t cols, int block) {
  ColumnSlabShape s;
  s.column_blocks = ceil_div(cols, static_cast<std::size_t>(block));
  const std::size_t wanted = ceil_div(kTargetBlocks, s.column_blocks);
  const std::size_t most = rows / kMinSlabRows < 1 ? 1 : rows / kMinSlabRows;
  const std::size_t slabs = wanted < most ? wanted : most;
  s.slab_rows = ceil_div(rows, slabs);
  s.slabs = ceil_div(rows, s.slab_rows);
  return s;
}

// segmented_rows.cu: RowPerThread, RowPerWarp, RowPerBlock, RowSplit.
cudaError_t plan_rows(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_rows(const LaunchArgs& a, const LaunchPlan& p);
// segmented_columns.cu: ColumnStrided, ColumnTiled.
cudaError_t plan_columns(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_columns(const LaunchArgs& a, const LaunchPlan& p);
// cub_segmented.cu: CubSegmentedRows (asks CUB for its temp storage).
cudaError_t plan_cub_rows(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_cub_rows(const LaunchArgs& a, const LaunchPlan& p);

// segmented_dispatch.cpp: the checks every rows and columns launch shares, then the family.
cudaError_t plan_segmented(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_segmented(const LaunchArgs& a, const LaunchPlan& p);

}  // namespace rl::kernels::segmented
