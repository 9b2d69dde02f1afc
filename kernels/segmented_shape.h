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
// Blocks a split row aims to give the GPU: about one wave of resident 256-thread blocks on an
// H100 or H200 (132 SMs x 8), so a few long rows still keep every SM streaming. Not more: every
// piece's block hands its sum on with an atomic whose round trip it waits for while it holds its
// slot. Measured on an H100 (docs/decisions.md): with the former finish (a fence and a ticket,
// the last block adding the pieces) 1024 read a single row 1.5-3 us faster than 4096 at 2^24;
// with the counted finish 2048 read the same as 1024 at 2^24 and 0.3 % faster at 2^28.
inline constexpr std::size_t kTargetBlocks = 1024;
// 16-byte loads a slabbed column keeps in flight across the GPU: its threads are this divided by
// the unroll factor (2^16 threads at the default 8, 2^17 at 4), 8 MiB in flight, which keeps
// HBM busy; no more, because every float32 slab adds a row of sums that the last blocks to
// finish add again after taking tickets (and every int32 slab an atomic a column). Measured on
// an H100 at 2^24 (docs/decisions.md): 2^17 threads read 1-4 us faster than 2^18 at U = 4, and
// 2^16 0.5-2 us faster than 2^17 at U = 8; again once each thread's loads were issued in one
// wave, and once int32's slabs handed their sums on as counted words: half or twice 2^19 no
// faster.
inline constexpr std::size_t kColumnTargetLoads = std::size_t(1) << 19;
// The fewest rows a column slab holds, and the fewest each of its threads adds, so each
// thread's running sum amortises its block: 16 rows are two rounds of eight loads. Measured on
// an H100 at 2^28: 64 and 32 rows read 6 % faster than with 8 (one thread per column down 16
// rows, no tree in shared memory), the same at 2^24.
inline constexpr std::size_t kMinSlabRows = 64;
inline constexpr std::size_t kMinRowsPerThread = 16;
inline std::size_t ceil_div(std::size_t a, std::size_t b) {
  return (a + b - 1) / b;
}
inline unsigned capped_grid(std::size_t blocks) {
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks < kMaxGrid ? blocks : kMaxGrid));
}
inline std::size_t pow2_ceil(std::size_t v) {
  std::size_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// RowPerThread's lanes per row: a power of two from 1 to 32, just enough that each lane has
// about one group of U 16-byte vectors of the row (one lane for rows of up to 4U elements, 32
// for rows of 128U and longer). A warp takes 32 / lanes rows at once, so short rows still give
// every lane U vectors in flight and a warp reads whole consecutive rows.
inline unsigned row_group_lanes(std::size_t cols, int unroll) {
  const std::size_t per_lane = ceil_div(ceil_div(cols, 4), static_cast<std::size_t>(unroll));
  const std::size_t lanes = pow2_ceil(per_lane);
  return static_cast<unsigned>(lanes < 32 ? lanes : 32);
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

// Threads along a row in a column tile whose matrix has rows enough for the rest of the block:
// a warp's load covers 32 neighbouring column units (128 bytes of scalars, 512 of 16-byte
// vectors, whole cache lines either way) and the block goes down the rows. Narrow tiles give a
// matrix of a few hundred rows blocks enough without cutting it into slabs, whose sums cost 8
// bytes per column and slab, written and read again.
inline constexpr std::size_t kColumnTileWidth = 32;

// Columns a ColumnTiled thread adds side by side: four (one 16-byte vector of a row) when every
// row starts on a 16-byte boundary, that is when the width is a multiple of 4 (column_view's
// width, for a matrix read 2 or 4 rows as one); else one.
inline unsigned column_lanes(std::size_t cols) {
  return cols % 4 == 0 ? 4u : 1u;
}

// A 2-D tile of a column kernel's block: `width` threads along a row (consecutive column units
// of column_lanes columns each, a power of two up to the block) by block / width threads down
// the rows. Wide enough to give each thread down a column about kMinRowsPerThread rows of a
// short matrix (the whole block along the row for a matrix of 8 rows or fewer), never narrower
// than kColumnTileWidth unless the matrix is: a block reads whole consecutive rows, one
// contiguous chunk.
struct ColumnTile {
  unsigned width = 1;
  std::size_t column_blocks = 1;
};
inline ColumnTile column_tile(std::size_t units, std::size_t block, std::size_t rows) {
  ColumnTile t;
  const std::size_t down = pow2_ceil(ceil_div(rows, kMinRowsPerThread));
  const std::size_t along = block / down > kColumnTileWidth ? block / down : kColumnTileWidth;
  std::size_t w = pow2_ceil(units);
  if (w > along) w = along;
  if (w > block) w = block;
  t.width = static_cast<unsigned>(w);
  t.column_blocks = ceil_div(units, t.width);
  return t;
}

// ColumnTiled reads a large matrix whose width is not a multiple of 4 through a view whose is:
// `fold` consecutive rows (2 for a width of 2 mod 4, 4 for an odd one) are one row of the view,
// fold times as wide, so every view row starts on a 16-byte boundary and is read in 16-byte
// vectors, not one element at a time. Column q x cols + c of the view is column c of rows q,
// q + fold, ...; the last blocks of the launch add each column's fold view sums and the rows
// past the last whole group of fold (segmented_column_sums.cuh). Measured (docs/decisions.md): at
// 2^28 the view reads odd widths at 1.03x to 1.26x of 65536 x 4096's time, by build and GPU (on
// an H200, as the fold instance's loop interleaves its additions with its loads), where one
// element a thread took 1.06x to 1.18x from one H100 to the next (and 1.46x on an H200); but
// the fold's tickets and loads add about 3.5 us after the last reads, more than the scalars lose
// on a matrix of 2^24, and a matrix of a few hundred rows writes and reads its view sums again
// (16 bytes of int64 a column per 4 rows of an odd width: 1.6 % of the bytes at 1024 rows). So
// the view only from kMinFoldElements elements and kMinFoldRows view rows.
inline constexpr std::size_t kMinFoldElements = std::size_t(1) << 26;
inline constexpr std::size_t kMinFoldRows = 256;
struct ColumnView {
  std::size_t rows = 0;
  std::size_t cols = 0;
  unsigned fold = 1;
};
inline ColumnView column_view(std::size_t rows, std::size_t cols) {
  const unsigned fold = cols % 4 == 0 ? 1u : cols % 2 == 0 ? 2u : 4u;
  if (fold == 1 || rows / fold < kMinFoldRows || rows * cols < kMinFoldElements)
    return {rows, cols, 1};
  return {rows / fold, cols * fold, fold};
}

// ColumnTiled: tiles of column_tile's width by slabs of `slab_rows` rows (the last slab
// shorter); enough slabs that column blocks x slabs x block aims at kColumnTargetLoads / unroll
// threads (twice that for scalar loads), each slab at least kMinSlabRows rows and
// kMinRowsPerThread rows for each of its threads down a column. `lanes` columns per thread
// (column_lanes), so the tile counts cols / lanes units.
struct ColumnSlabShape {
  ColumnTile tile;
  unsigned lanes = 1;
  std::size_t slabs = 1;
  std::size_t slab_rows = 0;
};
inline ColumnSlabShape column_slab_shape(std::size_t rows, std::size_t cols, int block,
                                         int unroll) {
  ColumnSlabShape s;
  s.lanes = column_lanes(cols);
  s.tile = column_tile(cols / s.lanes, static_cast<std::size_t>(block), rows);
  const std::size_t down = static_cast<std::size_t>(block) / s.tile.width;
  // Scalar loads carry a quarter of a vector's bytes: twice the threads (measured at U = 4:
  // 2^18 read 4095 x 4097 2-3 us faster than 2^17 on an H100).
  const std::size_t target_threads =
      kColumnTargetLoads / static_cast<std::size_t>(unroll) * (s.lanes == 4 ? 1 : 2);
  const std::size_t target_blocks = target_threads / static_cast<std::size_t>(block);
  const std::size_t wanted = ceil_div(target_blocks, s.tile.column_blocks);
  const std::size_t least =
      kMinSlabRows > down * kMinRowsPerThread ? kMinSlabRows : down * kMinRowsPerThread;
  const std::size_t most = rows / least < 1 ? 1 : rows / least;
  const std::size_t slabs = wanted < most ? wanted : most;
  s.slab_rows = ceil_div(rows, slabs);
  s.slabs = ceil_div(rows, s.slab_rows);
  return s;
}

// ColumnTiled's int32 slab sums, without a fold, are handed on as counted words (one per column,
// modern_finish.cuh), each slab's block adding into them as it finishes: no slab sums written and
// read again, and no last block that waits for a ticket and adds them. The words are `stride`
// apart (8 bytes each) so that about kCountedAtomicsPerLine slabs' atomics meet in one 128-byte
// line, not more: measured on an H100 at 2^24 (docs/decisions.md), 256 slabs (32 to 128 columns)
// read in 27.3 us at one word a line, 28.4 at four and 30.8 at sixteen; 4 to 16 slabs (4096 to
// 16384 columns) 0.4-0.8 us faster at sixteen words a line than at one, whose lines a flushed
// L2 fetches from DRAM. The count field of a word is 16 bits: column_slab_shape gives at most
// 2 x kColumnTargetLoads / 32 = 32768 slabs.
inline constexpr std::size_t kCountedAtomicsPerLine = 256;
inline std::size_t counted_word_stride(std::size_t slabs) {
  constexpr std::size_t kWordsInALine = 128 / sizeof(unsigned long long);
  std::size_t words_per_line = kWordsInALine;
  while (words_per_line > 1 && words_per_line * slabs > kCountedAtomicsPerLine) words_per_line /= 2;
  return kWordsInALine / words_per_line;
}
static_assert(2 * kColumnTargetLoads / 32 < (std::size_t(1) << 16),
              "a column's slabs fit a counted word's count");

// Slab sums in flight per thread when the last blocks add them (segmented_column_sums.cuh).
inline constexpr int kCombineUnroll = 8;
// Slab sums per thread up to which the last block of a column block adds them all at once.
inline constexpr std::size_t kOneLevelSumsPerThread = 2 * kCombineUnroll;

// A folded view's chunk is the view columns of one column block (tile width x lanes), which its
// fold adds with shifts: the chunk's log2, or -1 where it is not a power of two (a block size
// that is not one), which the launch refuses rather than fold the wrong columns.
inline int fold_chunk_shift(const ColumnSlabShape& s) {
  const std::size_t chunk = std::size_t(s.tile.width) * s.lanes;
  int shift = 0;
  while ((std::size_t(1) << shift) < chunk) ++shift;
  return (std::size_t(1) << shift) == chunk ? shift : -1;
}

// Every rows and columns plan: one launch writes each segment's sum (a row's or a column's) to
// the partials; no first kernel to time on its own, nothing to finish.
inline LaunchPlan segment_sums_plan(unsigned grid, std::size_t segments, std::size_t n,
                                    std::size_t scratch_bytes) {
  return LaunchPlan{.grid = grid,
                    .partial_count = segments,
                    .input_capacity = n,
                    .scratch_bytes = scratch_bytes,
                    .has_first_kernel = false,
                    .needs_finish = false};
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
