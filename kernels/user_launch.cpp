#include "user_launch.h"

#include <algorithm>

namespace rl::kernels {

// One partial per block and the finishing pass after, as the classic ladder: the input is
// padded with zeros to whole tiles of block_size x unroll elements, so a kernel that reads a
// whole tile without a bounds check (as the blog series' kernels do) reads zeros, not past the
// buffer. A grid-stride kernel declares its blocks per SM; its grid is capped at one block per
// tile so a small N never launches idle blocks. A kernel that declares it writes the total adds
// into the result itself: no partials, no finishing pass, and the result zeroed in the timed work
// before each launch (a memset the built-in single-pass kernels avoid with their own scratch).
cudaError_t plan_user(const LaunchArgs& a, LaunchPlan* plan) {
  if (a.user_kernel == nullptr) return cudaErrorInvalidValue;
  const std::size_t tile = static_cast<std::size_t>(a.block_size) * a.unroll;
  const std::size_t tiles = (a.n + tile - 1) / tile;
  std::size_t grid = tiles;
  if (a.user_blocks_per_sm > 0) {
    if (a.sm_count <= 0) return cudaErrorInvalidValue;
    grid = std::min<std::size_t>(tiles, std::size_t(a.sm_count) * a.user_blocks_per_sm);
  }
  if (grid == 0 || grid > 0x7fffffffu) return cudaErrorInvalidValue;
  *plan = LaunchPlan{};
  plan->grid = static_cast<unsigned>(grid);
  plan->partial_count = a.user_writes_total ? 0 : grid;
  plan->needs_finish = !a.user_writes_total;
  plan->input_capacity = tiles * tile;
  return cudaSuccess;
}

cudaError_t launch_user(const LaunchArgs& a, const LaunchPlan& p) {
  // The contract's signature: (const RL_T* in, RL_P* partials, unsigned long long n).
  void* input = a.input;
  void* partials = a.user_writes_total ? a.result : a.partials;
  unsigned long long n = a.n;
  if (a.user_writes_total) {
    if (a.result == nullptr) return cudaErrorInvalidValue;
    const std::size_t total_bytes = a.type == DType::Int32 ? sizeof(long long) : sizeof(float);
    if (const cudaError_t e = cudaMemsetAsync(a.result, 0, total_bytes, a.stream); e != cudaSuccess)
      return e;
  }
  void* params[] = {&input, &partials, &n};
  return cudaLaunchKernel(a.user_kernel, dim3(p.grid), dim3(a.block_size), params, 0, a.stream);
}

}  // namespace rl::kernels
