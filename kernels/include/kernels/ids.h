// What the kernels library offers, named without CUDA: element types, workspaces and stable
// kernel ids. Every layer may include this; the launch interface (kernels/launch.h) is the
// engine's alone.
#pragma once

namespace rl::kernels {

enum class DType { Int32, Float32 };

// Where the block reduces: in place in global memory (the seed's way: the input is overwritten,
// so the runner restores it before every sample) or in a shared-memory copy (input untouched).
// Kernels that keep their work in registers ignore it and take Workspace::Registers only.
enum class Workspace { Global, Shared, Registers };

// Stable kernel ids. Never renumber: saved sessions name variants by string id (engine/catalog),
// but the instrumented builds and tests index by this enum.
enum class KernelId : int {
  // The seed's ladder (kernels/seed_ladder.cu, kernels/seed_warp.cu)
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
  // Past the seed (kernels/modern_*.cu, kernels/cub_reference.cu)
  WarpShuffle = 20,
  ReduceAddSync = 21,
  CgReduce = 22,
  VectorizedGridStride = 23,
  SinglePass = 24,
  ClusterSinglePass = 25,  // sm_90+: thread-block clusters
  CubDeviceReduce = 30,
  CubBlockReduceRaking = 31,
  CubBlockReduceWarpReductions = 32,
};

}  // namespace rl::kernels
