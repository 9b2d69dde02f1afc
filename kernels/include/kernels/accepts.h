// What each kernel is built for, in one table: block sizes, unroll factors, the width of its
// loads, element types and workspaces. The kernels' dispatch turns these ranges into template
// arguments (plan_launch refuses anything outside them) and the engine's catalog reads its
// variants' accepted values from here, so the two never restate them. CUDA-free and C++17 (the
// device code includes it).
#pragma once

#include "kernels/ids.h"

namespace rl::kernels {

// The powers of two in [min, max]; {0, 0}: none, the kernel picks its own (launched with 0).
struct Pow2Range {
  int min = 0;
  int max = 0;

  constexpr bool empty() const { return min == 0; }
  constexpr bool contains(int v) const {
    return empty() ? v == 0 : v >= min && v <= max && (v & (v - 1)) == 0;
  }
  constexpr bool covers(Pow2Range r) const { return r.empty() || (min <= r.min && r.max <= max); }
};

constexpr unsigned bit(DType t) {
  return 1u << static_cast<unsigned>(t);
}
constexpr unsigned bit(Workspace w) {
  return 1u << static_cast<unsigned>(w);
}

struct KernelAccepts {
  KernelId kernel;
  Pow2Range block_sizes;
  Pow2Range unroll_factors;  // elements (tiles) or 16-byte vectors per thread, see vector_width
  int vector_width;          // elements per load: 1 scalar, 4 for int4/float4; 0: the library's
  unsigned types;            // bit(DType) for each element type
  unsigned workspaces;       // bit(Workspace) for each workspace

  constexpr bool takes_type(DType t) const { return (types & bit(t)) != 0; }
  constexpr bool takes_workspace(Workspace w) const { return (workspaces & bit(w)) != 0; }
};

namespace accepts_detail {
inline constexpr unsigned kBothTypes = bit(DType::Int32) | bit(DType::Float32);
inline constexpr unsigned kInMemory = bit(Workspace::Global) | bit(Workspace::Shared);
inline constexpr unsigned kRegisters = bit(Workspace::Registers);
inline constexpr Pow2Range kAllBlocks{32, 1024};
inline constexpr Pow2Range kWarpBlocks{64, 1024};  // the last warp reads ws[tid + 32]
inline constexpr Pow2Range kStreamBlocks{128, 1024};
inline constexpr Pow2Range kUnrolls{1, 16};
inline constexpr Pow2Range kNoUnroll{1, 1};
inline constexpr Pow2Range kVectorUnrolls{1, 8};
// The labs (lab_*.cu): int32 only (exact totals against the host model).
inline constexpr unsigned kInt = bit(DType::Int32);
inline constexpr Pow2Range kRareValues{1, 128};  // the data branch's k: values of 256 on path B
inline constexpr Pow2Range kLoopUnrolls{1, 32};  // #pragma unroll U of a 32-trip loop
constexpr KernelAccepts lab_row(KernelId k, Pow2Range unrolls = kNoUnroll,
                                unsigned workspaces = kRegisters) {
  return {k, kAllBlocks, unrolls, 1, kInt, workspaces};
}
}  // namespace accepts_detail

inline constexpr KernelAccepts kKernelAccepts[] = {
    // The classic ladder (seed_ladder.cu, seed_warp.cu): scalar loads, global or shared workspace.
    {KernelId::Neighbored, accepts_detail::kAllBlocks, accepts_detail::kNoUnroll, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::NeighboredLess, accepts_detail::kAllBlocks, accepts_detail::kNoUnroll, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::Interleaved, accepts_detail::kAllBlocks, accepts_detail::kNoUnroll, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::Unroll, accepts_detail::kAllBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::UnrollWarpVolatile, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::UnrollWarpSync, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::CompleteUnrollWarpVolatile, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::CompleteUnrollWarpSync, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::CompleteUnrollVolatile, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    {KernelId::CompleteUnrollSync, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kInMemory},
    // Past the classic ladder (modern_warp.cu): tiles of B x U elements, registers only; REDUX is
    // int-only.
    {KernelId::WarpShuffle, accepts_detail::kAllBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::ReduceAddSync, accepts_detail::kAllBlocks, accepts_detail::kUnrolls, 1,
     bit(DType::Int32), accepts_detail::kRegisters},
    {KernelId::CgReduce, accepts_detail::kAllBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    // Grid-stride (modern_stream.cuh): U 16-byte vectors in flight per thread.
    {KernelId::VectorizedGridStride, accepts_detail::kStreamBlocks, accepts_detail::kVectorUnrolls,
     4, accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::SinglePass, accepts_detail::kStreamBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    // The single pass with clusters of 8 blocks (modern_cluster.cu): the same tiles and loads.
    {KernelId::ClusterSinglePass, accepts_detail::kStreamBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    // The epoch pass (modern_epoch.cu): the same tiles and loads.
    {KernelId::EpochPass, accepts_detail::kStreamBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    // CUB (cub_reference.cu): DeviceReduce picks its own shape; BlockReduce takes B >= 64.
    {KernelId::CubDeviceReduce, Pow2Range{}, accepts_detail::kNoUnroll, 0,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::CubBlockReduceRaking, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::CubBlockReduceWarpReductions, accepts_detail::kWarpBlocks, accepts_detail::kUnrolls,
     1, accepts_detail::kBothTypes, accepts_detail::kRegisters},
    // Divergence lab (lab_divergence.cu): one element per thread; "unroll" of the data branch
    // is its k (how many of the 256 values take path B).
    accepts_detail::lab_row(KernelId::BranchDivergent),
    accepts_detail::lab_row(KernelId::BranchUniform),
    accepts_detail::lab_row(KernelId::BranchData, accepts_detail::kRareValues),
    accepts_detail::lab_row(KernelId::BranchPartitioned, accepts_detail::kRareValues),
    accepts_detail::lab_row(KernelId::IfElseCheap),
    accepts_detail::lab_row(KernelId::SelectCheap),
    accepts_detail::lab_row(KernelId::IfElseCostly),
    accepts_detail::lab_row(KernelId::SelectCostly),
    accepts_detail::lab_row(KernelId::LoopInvariantInside),
    accepts_detail::lab_row(KernelId::LoopInvariantHoisted),
    accepts_detail::lab_row(KernelId::AbsBranch),
    accepts_detail::lab_row(KernelId::AbsBitTrick),
    // Block-wide predicates (lab_predicates.cu): U tiles of blockDim.x elements per block.
    accepts_detail::lab_row(KernelId::CountSyncthreadsCount, accepts_detail::kUnrolls),
    accepts_detail::lab_row(KernelId::CountSharedTree, accepts_detail::kUnrolls),
    accepts_detail::lab_row(KernelId::CountBallot, accepts_detail::kUnrolls),
    accepts_detail::lab_row(KernelId::AnyEarlyExit, accepts_detail::kUnrolls),
    accepts_detail::lab_row(KernelId::AnyFullScan, accepts_detail::kUnrolls),
    // #pragma unroll lab (lab_unroll.cu): U is the pragma's factor (32: the whole loop); the
    // tree loops copy the block's elements to shared memory.
    accepts_detail::lab_row(KernelId::UnrollPragma, accepts_detail::kLoopUnrolls),
    accepts_detail::lab_row(KernelId::TreeLoopRolled, accepts_detail::kNoUnroll,
                            bit(Workspace::Shared)),
    accepts_detail::lab_row(KernelId::TreeLoopUnrolled, accepts_detail::kNoUnroll,
                            bit(Workspace::Shared)),
    // Rows and columns of a matrix (segmented_*.cu): U loads in flight per thread; CUB's
    // segmented reduce picks its own shape. The row kernels read 16-byte vectors (the up to 3
    // elements before a row's first 16-byte boundary and after its last one singly); a column's
    // elements are not contiguous, so the column kernels read scalars.
    {KernelId::RowPerThread, accepts_detail::kAllBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::RowPerWarp, accepts_detail::kAllBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::RowPerBlock, accepts_detail::kAllBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::RowSplit, accepts_detail::kStreamBlocks, accepts_detail::kVectorUnrolls, 4,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::ColumnStrided, accepts_detail::kAllBlocks, accepts_detail::kVectorUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::ColumnTiled, accepts_detail::kAllBlocks, accepts_detail::kVectorUnrolls, 1,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    {KernelId::CubSegmentedRows, Pow2Range{}, accepts_detail::kNoUnroll, 0,
     accepts_detail::kBothTypes, accepts_detail::kRegisters},
    // A user kernel (user_launch.cpp): any block size, the unroll factor it is compiled with,
    // its input restored before every sample (it may reduce in place).
    {KernelId::User, accepts_detail::kAllBlocks, accepts_detail::kUnrolls, 1,
     accepts_detail::kBothTypes, bit(Workspace::Global)},
};

// The row of kernel k; a kernel without a row accepts nothing.
constexpr KernelAccepts accepts(KernelId k) {
  for (const KernelAccepts& a : kKernelAccepts)
    if (a.kernel == k) return a;
  return KernelAccepts{k, Pow2Range{}, Pow2Range{}, 0, 0u, 0u};
}

// Whether a launch of kernel k with this shape is one the kernels are built for.
constexpr bool accepts_launch(KernelId k, int block_size, int unroll, DType t, Workspace w) {
  const KernelAccepts a = accepts(k);
  return a.types != 0 && a.block_sizes.contains(block_size) && a.unroll_factors.contains(unroll) &&
         a.takes_type(t) && a.takes_workspace(w);
}

}  // namespace rl::kernels
