// What the kernels library offers, named without CUDA: element types, workspaces and stable
// kernel ids. Every layer may include this; the launch interface (kernels/launch.h) is the
// engine's alone.
#pragma once

namespace rl::kernels {

enum class DType { Int32, Float32 };

// Where the block reduces: in place in global memory (the classic ladder's way: the input is
// overwritten, so the runner restores it before every sample) or in a shared-memory copy (input
// untouched). Kernels that keep their work in registers ignore it and take Workspace::Registers
// only.
enum class Workspace { Global, Shared, Registers };

// Stable kernel ids. Never renumber: saved sessions name variants by string id (engine/catalog),
// but the instrumented builds and tests index by this enum.
enum class KernelId : int {
  // The classic ladder (kernels/seed_ladder.cu, kernels/seed_warp.cu)
  Neighbored = 0,                  // reduceNeighbored
  NeighboredLess = 1,              // reduceNeighboredLess
  Interleaved = 2,                 // reduceInterleaved
  Unroll = 3,                      // reduceUnroll{U}
  UnrollWarpVolatile = 4,          // reduceUnrollWarp{U}, volatile last warp
  UnrollWarpSync = 5,              // same, last warp with __syncwarp()
  CompleteUnrollWarpVolatile = 6,  // reduceCompleteUnrollWarp{U}, blockDim.x if-chain
  CompleteUnrollWarpSync = 7,
  CompleteUnrollVolatile = 8,  // reduceCompleteUnroll<iBlockSize>, template block size
  CompleteUnrollSync = 9,
  // Past the classic ladder (kernels/modern_*.cu, kernels/cub_reference.cu)
  WarpShuffle = 20,
  ReduceAddSync = 21,
  CgReduce = 22,
  VectorizedGridStride = 23,
  SinglePass = 24,
  ClusterSinglePass = 25,  // sm_90+: thread-block clusters
  EpochPass = 26,          // one launch, fire-and-forget atomics into an accumulator
  CubDeviceReduce = 30,
  CubBlockReduceRaking = 31,
  CubBlockReduceWarpReductions = 32,
  // The labs (kernels/lab_*.cu): each sums a function of its elements (kernels/lab.h), so
  // their totals are checked against the host model, not against the input's sum.
  // Divergence lab (lab_divergence.cu): two costly paths, or two cheap bodies, chosen in
  // different ways; each thread maps one element.
  BranchDivergent = 40,       // path by threadIdx.x % 2: both paths in every warp
  BranchUniform = 41,         // path by (threadIdx.x / 32) % 2: one path per warp
  BranchData = 42,            // path by the value: k of the 256 values take path B
  BranchPartitioned = 43,     // the same after CUB DevicePartition groups the values
  IfElseCheap = 44,           // if/else on the lowest bit, one-instruction bodies
  SelectCheap = 45,           // the same as a ternary select
  IfElseCostly = 46,          // if/else on the lowest bit, the costly paths
  SelectCostly = 47,          // both costly paths computed, then a select
  LoopInvariantInside = 48,   // a loop-invariant branch tested in every iteration
  LoopInvariantHoisted = 49,  // the same branch hoisted out of the loop by hand
  AbsBranch = 50,             // |x - 128| with a branch
  AbsBitTrick = 51,           // |x - 128| with the sign-mask trick
  // Block-wide predicates (lab_predicates.cu): count x >= 200, find x == 255.
  CountSyncthreadsCount = 55,  // __syncthreads_count per tile
  CountSharedTree = 56,        // per-thread counts summed by a shared-memory tree
  CountBallot = 57,            // __ballot_sync + __popc per warp
  AnyEarlyExit = 58,           // __syncthreads_or ends the block's scan at the first hit
  AnyFullScan = 59,            // the same answer, every tile read
  // #pragma unroll lab (lab_unroll.cu)
  UnrollPragma = 60,      // a 32-trip strided load loop with #pragma unroll U
  TreeLoopRolled = 61,    // the shared-memory tree loop with #pragma unroll 1
  TreeLoopUnrolled = 62,  // the same loop, block size known, #pragma unroll
  // Many sums at once (kernels/segmented_rows.cu, kernels/segmented_columns.cu): one sum per
  // row, or per column, of a row-major LaunchArgs::rows x LaunchArgs::cols matrix, written to
  // LaunchArgs::partials (one Accum entry per row or column, in order).
  RowPerThread = 70,      // thread r sums row r: for many short rows
  RowPerWarp = 71,        // a warp per row, lanes along the row, shuffles combine
  RowPerBlock = 72,       // a block per row, warp sums through shared memory
  RowSplit = 73,          // several blocks per long row; a second pass adds their sums in order
  ColumnStrided = 75,     // a warp per column, lanes down the column: strided, the lesson
  ColumnTiled = 76,       // threads along the row, partial sums down slabs of rows, then added
  CubSegmentedRows = 78,  // cub::DeviceSegmentedReduce::Sum, a segment per row (the reference)
  // A kernel the user wrote, compiled at run time (engine/user/user_kernel.h): launched through
  // the handle in LaunchArgs::user_kernel, one partial per block, the finishing pass after it.
  User = 90,
};

// Whether kernel k is one of the labs: its total is a function of the input, not its sum.
constexpr bool is_lab_kernel(KernelId k) {
  return static_cast<int>(k) >= 40 && static_cast<int>(k) < 70;
}

// Whether kernel k sums the rows or the columns of a matrix (one output per row or column).
constexpr bool is_segmented_kernel(KernelId k) {
  return static_cast<int>(k) >= 70 && static_cast<int>(k) < 80;
}
constexpr bool reduces_columns(KernelId k) {
  return k == KernelId::ColumnStrided || k == KernelId::ColumnTiled;
}

}  // namespace rl::kernels
