// Plans of the rows and columns kernels that need no GPU: the shape checks come before any
// device call, and the hand-written kernels' grids are a function of the shape alone (so these
// run everywhere; only CUB's plan asks the device, for its temp storage).
#include <gtest/gtest.h>

#include <cstdint>

#include "kernels/launch.h"

namespace rl {
namespace {

using kernels::DType;
using kernels::KernelId;
using kernels::LaunchArgs;
using kernels::LaunchPlan;
using kernels::Workspace;

LaunchArgs matrix_args(KernelId k, std::size_t rows, std::size_t cols, int block = 256,
                       int unroll = 4, DType t = DType::Int32) {
  LaunchArgs a;
  a.kernel = k;
  a.type = t;
  a.workspace = Workspace::Registers;
  a.block_size = block;
  a.unroll = unroll;
  a.rows = rows;
  a.cols = cols;
  a.n = rows * cols;
  return a;
}

constexpr KernelId kHandWritten[] = {KernelId::RowPerThread,  KernelId::RowPerWarp,
                                     KernelId::RowPerBlock,   KernelId::RowSplit,
                                     KernelId::ColumnStrided, KernelId::ColumnTiled};
constexpr KernelId kAll[] = {
    KernelId::RowPerThread,  KernelId::RowPerWarp,  KernelId::RowPerBlock,     KernelId::RowSplit,
    KernelId::ColumnStrided, KernelId::ColumnTiled, KernelId::CubSegmentedRows};

int block_for(KernelId k) {
  return k == KernelId::CubSegmentedRows ? 0 : 256;
}
int unroll_for(KernelId k) {
  return k == KernelId::CubSegmentedRows ? 1 : 4;
}

TEST(SegmentedPlan, RefusesAShapeThatIsNotTheWholeInput) {
  for (KernelId k : kAll) {
    SCOPED_TRACE(static_cast<int>(k));
    LaunchPlan plan;
    const int b = block_for(k), u = unroll_for(k);
    LaunchArgs a = matrix_args(k, 10, 20, b, u);
    a.n = 201;  // n != rows * cols
    EXPECT_EQ(kernels::plan_launch(a, &plan), cudaErrorInvalidValue);
    a = matrix_args(k, 0, 20, b, u);
    a.n = 20;  // no rows
    EXPECT_EQ(kernels::plan_launch(a, &plan), cudaErrorInvalidValue);
    a = matrix_args(k, 20, 0, b, u);
    a.n = 20;  // no columns
    EXPECT_EQ(kernels::plan_launch(a, &plan), cudaErrorInvalidValue);
    a = matrix_args(k, std::size_t(1) << 40, std::size_t(1) << 40, b, u);
    a.n = 1;  // rows * cols overflows
    EXPECT_EQ(kernels::plan_launch(a, &plan), cudaErrorInvalidValue);
    a = matrix_args(k, 0, 0, b, u);  // n == 0 too
    EXPECT_EQ(kernels::plan_launch(a, &plan), cudaErrorInvalidValue);
    EXPECT_EQ(kernels::plan_launch(matrix_args(k, 4, 4, b, u), nullptr), cudaErrorInvalidValue);
  }
}

TEST(SegmentedPlan, RefusesShapesOutsideTheAcceptsTable) {
  LaunchPlan plan;
  LaunchArgs a = matrix_args(KernelId::RowPerWarp, 8, 8);
  a.workspace = Workspace::Shared;
  EXPECT_EQ(kernels::plan_launch(a, &plan), cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(matrix_args(KernelId::RowPerWarp, 8, 8, 48), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(matrix_args(KernelId::RowPerWarp, 8, 8, 2048), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(matrix_args(KernelId::RowPerBlock, 8, 8, 256, 16), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(matrix_args(KernelId::RowSplit, 8, 8, 64), &plan),
            cudaErrorInvalidValue);
  // CUB picks its own block size: a launch names 0.
  EXPECT_EQ(kernels::plan_launch(matrix_args(KernelId::CubSegmentedRows, 8, 8, 256, 1), &plan),
            cudaErrorInvalidValue);
}

TEST(SegmentedPlan, OneSumPerRowOrColumnNoFinishingPass) {
  for (KernelId k : kHandWritten)
    for (DType t : {DType::Int32, DType::Float32}) {
      SCOPED_TRACE(static_cast<int>(k));
      LaunchPlan plan;
      ASSERT_EQ(kernels::plan_launch(matrix_args(k, 33, 1025, 256, 4, t), &plan), cudaSuccess);
      EXPECT_EQ(plan.partial_count, kernels::reduces_columns(k) ? 1025u : 33u);
      EXPECT_FALSE(plan.needs_finish);
      EXPECT_FALSE(plan.has_first_kernel);
      EXPECT_FALSE(plan.total_in_scratch);
      EXPECT_EQ(plan.input_capacity, 33u * 1025u);
      EXPECT_GE(plan.grid, 1u);
      EXPECT_LE(plan.grid, 1u << 28);
    }
}

TEST(SegmentedPlan, OnlyASplitRowOrSlabbedColumnNeedsScratch) {
  LaunchPlan plan;
  for (KernelId k : {KernelId::RowPerThread, KernelId::RowPerWarp, KernelId::RowPerBlock,
                     KernelId::ColumnStrided}) {
    ASSERT_EQ(kernels::plan_launch(matrix_args(k, 3, (1 << 20) + 7), &plan), cudaSuccess);
    EXPECT_EQ(plan.scratch_bytes, 0u);
  }
  // Three long rows: split into pieces that hand their sums on to a finish per row, int32 one
  // counted word, float32 a ticket and 33 exponent windows; nothing per piece.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::RowSplit, 3, (1 << 20) + 7), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 3u * 8u);
  EXPECT_GT(plan.grid, 3u);
  ASSERT_EQ(kernels::plan_launch(
                matrix_args(KernelId::RowSplit, 3, (1 << 20) + 7, 256, 4, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 3u * 34u * 8u);
  // Thousands of short rows: one piece per row, written straight to the partials.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::RowSplit, 70001, 1), &plan), cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 0u);
  // Three columns of 4097 rows: slabs of rows, one float per slab and column, and the tickets
  // that find the last block of each group of slabs.
  ASSERT_EQ(kernels::plan_launch(
                matrix_args(KernelId::ColumnTiled, 4097, 3, 256, 4, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_GT(plan.scratch_bytes, 2u * 3u * 4u);
  EXPECT_EQ(plan.scratch_bytes % 4, 0u);
  // A wide matrix has column blocks enough: one slab.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 3, (1 << 20) + 7), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 0u);
}

TEST(SegmentedPlan, ShortRowsShareAWarp) {
  LaunchPlan plan;
  // Rows of 32 elements, U = 4: 8 vectors a row, 2 lanes each (a group of 4 loads), so a warp
  // of 256-thread blocks takes 16 rows and a block 128.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::RowPerThread, 524288, 32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 524288u / 128u);
  // One element a row: a lane per row, 256 rows a block.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::RowPerThread, 70001, 1), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, (70001u + 255u) / 256u);
  // Rows of 128U elements or more: all 32 lanes on one row, a row per warp, as RowPerWarp.
  for (KernelId k : {KernelId::RowPerThread, KernelId::RowPerWarp}) {
    ASSERT_EQ(kernels::plan_launch(matrix_args(k, 4096, 1000), &plan), cudaSuccess);
    EXPECT_EQ(plan.grid, 4096u / 8u);
    EXPECT_EQ(plan.scratch_bytes, 0u);
  }
  // RowPerWarp keeps a warp per row, however short.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::RowPerWarp, 524288, 32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 524288u / 8u);
}

TEST(SegmentedPlan, NarrowColumnsTileTheBlockDownTheRows) {
  LaunchPlan plan;
  // 32 columns in 256-thread blocks: 8 vectors of four columns a row, 32 rows per step, one
  // column block, the rows in slabs of enough blocks to fill the GPU. int32's scratch: a
  // counted word per column, one 128-byte line each (512 slabs add into it).
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 524288, 32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 512u);
  EXPECT_EQ(plan.scratch_bytes, 32u * 128u);
  // float32's: one float per slab and column, one per group of slabs (the square root of the
  // slabs) and column, and a ticket per group and one for the groups.
  ASSERT_EQ(kernels::plan_launch(
                matrix_args(KernelId::ColumnTiled, 524288, 32, 256, 4, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 512u);
  EXPECT_EQ(plan.scratch_bytes, (512u + 23u) * 32u * 4u + 24u * 4u);  // 23 groups of 23 slabs
  // Few rows, many columns: one slab, the sums straight to the partials; a width that is a
  // multiple of 4 is read in 16-byte vectors, four columns a thread, the whole block along the
  // row.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 4, 1u << 22), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 0u);
  EXPECT_EQ(plan.grid, (1u << 22) / 4u / 256u);
  // One column more: scalars, a column a thread.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 4, (1u << 22) + 1), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, (1u << 22) / 256u + 1u);
}

TEST(SegmentedPlan, EightLoadsInFlightHalveTheSlabbedThreads) {
  LaunchPlan plan;
  // The same bytes in flight as four loads on 2^17 threads: 2^16 threads, 256 slabs of 2048
  // rows for 32 columns; int32's counted words a line each, float32's slab sums in 16 groups
  // of 16.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 524288, 32, 256, 8), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 256u);
  EXPECT_EQ(plan.scratch_bytes, 32u * 128u);
  ASSERT_EQ(kernels::plan_launch(
                matrix_args(KernelId::ColumnTiled, 524288, 32, 256, 8, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, (256u + 16u) * 32u * 4u + 17u * 4u);
  // 512 columns: 4 column blocks by 64 slabs, so int32's words four a line (256 atomics a line).
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 32768, 512, 256, 8), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 4u * 64u);
  EXPECT_EQ(plan.scratch_bytes, 512u * 4u * 8u);
  // 16 rows: a thread adds a column group down all 16, the whole block along the row, no slabs.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 16, 1u << 20, 256, 8), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, (1u << 20) / 4u / 256u);
  EXPECT_EQ(plan.scratch_bytes, 0u);
}

TEST(SegmentedPlan, LargeOddWidthsAreReadFourRowsAsOne) {
  LaunchPlan plan;
  // 16384 x 4097 (2^26 elements and more): a view of 4096 rows of 16388, 4097 vectors a row in
  // 129 column blocks of 32, two slabs of 2048 view rows in one group. The scratch: the view's
  // sums at the front, then the slab sums, a ticket per column block and group and one for the
  // groups, and the fold's tickets, one per chunk of 128 columns.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 16384, 4097, 256, 8), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 129u * 2u);
  EXPECT_EQ(plan.scratch_bytes, 3u * 16388u * 8u + 129u * 2u * 4u + 33u * 4u);
  EXPECT_EQ(plan.partial_count, 4097u);
  // A width of 2 mod 4: two rows as one, 16385 view rows of 4100.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 32771, 2050, 256, 8), &plan),
            cudaSuccess);
  EXPECT_GE(plan.scratch_bytes, 4100u * 8u);
  // 4095 x 4097 (2^24): the fold's tail would cost more than the scalars lose. One column a
  // thread, 129 column blocks of 32 by 4 slabs (twice the threads of 16-byte loads), in the
  // scratch only int32's counted words, 16 a line (4 slabs add into each); float32's slab sums
  // and their tickets.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 4095, 4097, 256, 8), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 129u * 4u);
  EXPECT_EQ(plan.scratch_bytes, 4097u * 8u);
  ASSERT_EQ(kernels::plan_launch(
                matrix_args(KernelId::ColumnTiled, 4095, 4097, 256, 8, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 4u * 4097u * 4u + 129u * 2u * 4u);
  // 1020 rows of 65537 make 255 view rows: the view sums would weigh too much. 60 rows: no view.
  for (std::size_t rows : {1020u, 60u}) {
    ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, rows, 65537, 256, 8), &plan),
              cudaSuccess);
    EXPECT_EQ(plan.scratch_bytes, 0u) << rows;
  }
}

TEST(SegmentedPlan, AFewHundredRowsTileNarrowAndDeep) {
  LaunchPlan plan;
  // 256 x 65536: 16384 vectors a row, tiles 32 vectors wide by 8 rows deep (each thread 32 rows),
  // 512 column blocks and no slabs: blocks enough without slabs of a few rows, whose int64 sums
  // would be written and read again.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 256, 65536), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 512u);
  EXPECT_EQ(plan.scratch_bytes, 0u);
  // 4096 x 4096: 32 column blocks, so 16 slabs of 256 rows. int32: a counted word per column,
  // 16 a line. float32, one group: the last block adds the 16 x 128 slab sums of its columns, 8
  // a thread, and no second level.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 4096, 4096), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 32u * 16u);
  EXPECT_EQ(plan.scratch_bytes, 4096u * 8u);
  ASSERT_EQ(kernels::plan_launch(
                matrix_args(KernelId::ColumnTiled, 4096, 4096, 256, 4, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.scratch_bytes, 16u * 4096u * 4u + 32u * 2u * 4u);
  // 128 rows: one slab of 1024 column blocks, the sums straight to the partials.
  ASSERT_EQ(kernels::plan_launch(matrix_args(KernelId::ColumnTiled, 128, 131072), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 1024u);
  EXPECT_EQ(plan.scratch_bytes, 0u);
}

TEST(SegmentedPlan, HugeShapesKeepTheGridWithinCudaLimits) {
  const std::size_t rows = std::size_t(1) << 33;
  for (KernelId k : kHandWritten) {
    SCOPED_TRACE(static_cast<int>(k));
    LaunchPlan plan;
    const bool columns = kernels::reduces_columns(k);
    // Only the plan: 2^33 rows (columns) of 2 elements, block size 32 where the kernel takes it.
    const int block = k == KernelId::RowSplit ? 128 : 32;
    ASSERT_EQ(kernels::plan_launch(matrix_args(k, columns ? 2 : rows, columns ? rows : 2, block, 1),
                                   &plan),
              cudaSuccess);
    EXPECT_GE(plan.grid, 1u);
    EXPECT_LE(plan.grid, 0x7fffffffu);
  }
}

}  // namespace
}  // namespace rl
