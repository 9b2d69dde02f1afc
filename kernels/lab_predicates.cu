// Block-wide predicates (the classic post on __syncthreads and #pragma unroll): __syncthreads_count
// / _or against the ways they replace. A block owns U tiles of blockDim.x elements (tail read as
// "no"); thread 0 writes the block's answer as its partial and the common finishing block adds the
// partials.
//  CountSyncthreadsCount: per tile, count = __syncthreads_count(x >= 200): the barrier returns
//                         the block's count to every thread.
//  CountSharedTree:       each thread counts its U elements, then the interleaved shared-memory
//                         tree with a __syncthreads() per level (the classic ladder's reduction).
//  CountBallot:           per tile, each warp's lane 0 adds __popc(__ballot_sync(pred)); the warp
//                         counts go through shared memory (modern_common.cuh's block sum).
//  AnyEarlyExit:          per tile, __syncthreads_or(x == 255): the whole block leaves its scan
//                         at the first tile with a hit (partial 1), else reads all U (partial 0).
//  AnyFullScan:           the same answer with every tile read, one __syncthreads_or at the end.
#include "dispatch.cuh"
#include "kernels/lab.h"
#include "lab_launchers.cuh"
#include "modern_common.cuh"

namespace rl::kernels::labs {
namespace {
using modern::block_sum_shfl;
using modern::kFullMask;
using modern::kWarp;

__device__ __forceinline__ int element(const int32_t* x, std::size_t n, std::size_t i) {
  return i < n ? x[i] : -1;  // -1: neither counted nor searched
}

template <int U>
__global__ void __launch_bounds__(1024)
    count_syncthreads_count(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * U + threadIdx.x;
  int count = 0;
#pragma unroll
  for (int t = 0; t < U; ++t)
    count += __syncthreads_count(lab::counted(element(x, n, base + std::size_t(t) * blockDim.x)));
  if (threadIdx.x == 0) partials[blockIdx.x] = count;
}

template <int U>
__global__ void __launch_bounds__(1024)
    count_shared_tree(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  extern __shared__ int counts[];
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * U + threadIdx.x;
  int count = 0;
#pragma unroll
  for (int t = 0; t < U; ++t)
    count += lab::counted(element(x, n, base + std::size_t(t) * blockDim.x)) ? 1 : 0;
  counts[threadIdx.x] = count;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) counts[threadIdx.x] += counts[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = counts[0];
}

template <int U>
__global__ void __launch_bounds__(1024)
    count_ballot(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * U + threadIdx.x;
  int count = 0;  // lane 0's running count of its warp
#pragma unroll
  for (int t = 0; t < U; ++t) {
    const unsigned hits =
        __ballot_sync(kFullMask, lab::counted(element(x, n, base + std::size_t(t) * blockDim.x)));
    if (threadIdx.x % kWarp == 0) count += __popc(hits);
  }
  count = block_sum_shfl(count, blockDim.x / kWarp);
  if (threadIdx.x == 0) partials[blockIdx.x] = count;
}

template <int U>
__global__ void __launch_bounds__(1024)
    any_early_exit(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * U + threadIdx.x;
  int found = 0;
  for (int t = 0; t < U; ++t) {
    // Every thread gets the same answer, so the whole block leaves together.
    if (__syncthreads_or(lab::searched(element(x, n, base + std::size_t(t) * blockDim.x)))) {
      found = 1;
      break;
    }
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = found;
}

template <int U>
__global__ void __launch_bounds__(1024)
    any_full_scan(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  const std::size_t base = std::size_t(blockIdx.x) * blockDim.x * U + threadIdx.x;
  bool hit = false;
#pragma unroll
  for (int t = 0; t < U; ++t)
    hit |= lab::searched(element(x, n, base + std::size_t(t) * blockDim.x));
  const int found = __syncthreads_or(hit) ? 1 : 0;
  if (threadIdx.x == 0) partials[blockIdx.x] = found;
}

template <int U>
cudaError_t launch_with(const LaunchArgs& a, const LaunchPlan& p) {
  const auto* x = static_cast<const int32_t*>(a.input);
  auto* out = static_cast<long long*>(a.partials);
  switch (a.kernel) {
    case KernelId::CountSyncthreadsCount:
      count_syncthreads_count<U><<<p.grid, a.block_size, 0, a.stream>>>(x, a.n, out);
      break;
    case KernelId::CountSharedTree:
      count_shared_tree<U>
          <<<p.grid, a.block_size, a.block_size * sizeof(int), a.stream>>>(x, a.n, out);
      break;
    case KernelId::CountBallot:
      count_ballot<U><<<p.grid, a.block_size, 0, a.stream>>>(x, a.n, out);
      break;
    case KernelId::AnyEarlyExit:
      any_early_exit<U><<<p.grid, a.block_size, 0, a.stream>>>(x, a.n, out);
      break;
    case KernelId::AnyFullScan:
      any_full_scan<U><<<p.grid, a.block_size, 0, a.stream>>>(x, a.n, out);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace

bool is_predicate_lab(KernelId k) {
  const int v = static_cast<int>(k);
  return v >= static_cast<int>(KernelId::CountSyncthreadsCount) &&
         v <= static_cast<int>(KernelId::AnyFullScan);
}

cudaError_t plan_predicate_lab(const LaunchArgs& a, LaunchPlan* plan) {
  const std::size_t tile = std::size_t(a.block_size) * a.unroll;
  const std::size_t grid = (a.n + tile - 1) / tile;
  if (grid > 0x7fffffffu) return cudaErrorInvalidValue;
  *plan = LaunchPlan{};
  plan->grid = static_cast<unsigned>(grid);
  plan->partial_count = grid;
  plan->input_capacity = a.n;
  return cudaSuccess;
}

cudaError_t launch_predicate_lab(const LaunchArgs& a, const LaunchPlan& p) {
  static_assert(detail::dispatch_covers(KernelId::CountSyncthreadsCount) &&
                detail::dispatch_covers(KernelId::AnyEarlyExit));
  return detail::with_unroll(a.unroll, [&](auto u) { return launch_with<u.value>(a, p); });
}

}  // namespace rl::kernels::labs
