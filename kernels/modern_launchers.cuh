// Internal: the launchers of the kernels past the classic ladder, one pair per file, called by
// modern_dispatch.cu (plan_modern / launch_modern). Each returns cudaErrorInvalidValue for a
// combination it is not built for (kernels/accepts.h lists what each takes).
#pragma once

#include <cstddef>

#include "kernels/launch.h"

namespace rl::kernels::modern {

// modern_warp.cu: WarpShuffle, ReduceAddSync, CgReduce (one tile of B * U elements per block,
// block sizes 32..1024, unroll 1, 2, 4, 8, 16).
bool is_warp_family(KernelId k);
cudaError_t plan_warp_family(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_warp_family(const LaunchArgs& a, const LaunchPlan& p);

// modern_vectorized.cu: VectorizedGridStride (grid-stride, partials + finishing pass).
cudaError_t plan_vectorized(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_vectorized(const LaunchArgs& a, const LaunchPlan& p);

// modern_single_pass.cu: SinglePass (grid-stride, last block finishes).
cudaError_t plan_single_pass(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_single_pass(const LaunchArgs& a, const LaunchPlan& p);

// modern_cluster.cu: ClusterSinglePass (the single pass with clusters of 8 blocks; sm_90+,
// cudaErrorInvalidDeviceFunction below).
cudaError_t plan_cluster(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_cluster(const LaunchArgs& a, const LaunchPlan& p);

// modern_epoch.cu: EpochPass (one launch, fire-and-forget atomics; the total stays in the
// scratch, plan.total_in_scratch).
cudaError_t plan_epoch_pass(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_epoch_pass(const LaunchArgs& a, const LaunchPlan& p);

// cub_reference.cu: CubDeviceReduce, CubBlockReduceRaking, CubBlockReduceWarpReductions.
bool is_cub(KernelId k);
cudaError_t plan_cub(const LaunchArgs& a, LaunchPlan* plan);
cudaError_t launch_cub(const LaunchArgs& a, const LaunchPlan& p);

// modern_dispatch.cu: the grid of a grid-stride kernel. Resident blocks = blocks per SM x SMs,
// where blocks per SM is what cudaOccupancyMaxActiveBlocksPerMultiprocessor allows for `kernel`
// at `block` threads. The grid is the smaller of that and blocks_needed (>= 1): a small input
// gets only the blocks it can keep busy, so a single-pass tail stays short.
cudaError_t resident_grid(const void* kernel, int block, std::size_t blocks_needed, unsigned* grid);

// modern_dispatch.cu: the grid of a tiled kernel that takes one tile per block (single pass):
// blocks_needed, at most max_blocks (past that the blocks walk several tiles each).
cudaError_t capped_grid(std::size_t blocks_needed, std::size_t max_blocks, unsigned* grid);

}  // namespace rl::kernels::modern
