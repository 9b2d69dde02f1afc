// plan_modern / launch_modern (declared in ladder_launchers.h): route a kernel past the classic
// ladder to its family's launcher (modern_launchers.cuh), and size the grids of the grid-stride
// kernels.

#include "ladder_launchers.h"
#include "modern_launchers.cuh"

namespace rl::kernels {

cudaError_t plan_modern(const LaunchArgs& a, LaunchPlan* plan) {
  if (plan == nullptr || a.n == 0) return cudaErrorInvalidValue;
  if (modern::is_warp_family(a.kernel)) return modern::plan_warp_family(a, plan);
  if (modern::is_cub(a.kernel)) return modern::plan_cub(a, plan);
  switch (a.kernel) {
    case KernelId::VectorizedGridStride:
      return modern::plan_vectorized(a, plan);
    case KernelId::SinglePass:
      return modern::plan_single_pass(a, plan);
    case KernelId::ClusterSinglePass:
      return modern::plan_cluster(a, plan);
    case KernelId::EpochPass:
      return modern::plan_epoch_pass(a, plan);
    default:
      return cudaErrorInvalidValue;
  }
}

cudaError_t launch_modern(const LaunchArgs& a, const LaunchPlan& p) {
  if (a.n == 0 || a.input == nullptr || a.result == nullptr) return cudaErrorInvalidValue;
  if (p.partial_count > 0 && a.partials == nullptr) return cudaErrorInvalidValue;
  if (modern::is_warp_family(a.kernel)) return modern::launch_warp_family(a, p);
  if (modern::is_cub(a.kernel)) return modern::launch_cub(a, p);
  switch (a.kernel) {
    case KernelId::VectorizedGridStride:
      return modern::launch_vectorized(a, p);
    case KernelId::SinglePass:
      return modern::launch_single_pass(a, p);
    case KernelId::ClusterSinglePass:
      return modern::launch_cluster(a, p);
    case KernelId::EpochPass:
      return modern::launch_epoch_pass(a, p);
    default:
      return cudaErrorInvalidValue;
  }
}

namespace modern {

cudaError_t resident_grid(const void* kernel, int block, std::size_t blocks_needed,
                          unsigned* grid) {
  int device = 0, sm_count = 0, per_sm = 0;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0);
  if (err != cudaSuccess) return err;
  if (per_sm < 1 || sm_count < 1) return cudaErrorInvalidConfiguration;
  const std::size_t resident = static_cast<std::size_t>(per_sm) * sm_count;
  const std::size_t g = blocks_needed < resident ? blocks_needed : resident;
  *grid = static_cast<unsigned>(g < 1 ? 1 : g);
  return cudaSuccess;
}

cudaError_t capped_grid(std::size_t blocks_needed, std::size_t max_blocks, unsigned* grid) {
  const std::size_t g = blocks_needed < max_blocks ? blocks_needed : max_blocks;
  *grid = static_cast<unsigned>(g < 1 ? 1 : g);
  return cudaSuccess;
}

}  // namespace modern
}  // namespace rl::kernels
