// The #pragma unroll lab (the classic post on __syncthreads and #pragma unroll): what unrolling a
// loop buys and costs.
//  UnrollPragma:     a block owns a tile of kUnrollTrip x blockDim.x elements; each thread adds
//                    its 32 elements (blockDim.x apart) in a loop under #pragma unroll U (U = 32
//                    is the whole loop): U loads in flight per iteration against U registers;
//                    then the warp-shuffle block sum and thread 0's partial.
//  TreeLoopRolled:   one element per thread to shared memory, then the interleaved tree loop
//                    (stride blockDim.x / 2 .. 1) kept a loop with #pragma unroll 1.
//  TreeLoopUnrolled: the same loop with the block size a template parameter and #pragma
//                    unroll: straight-line code, the compare-and-branch per level gone.
#include "dispatch.cuh"
#include "kernels/lab.h"
#include "lab_launchers.cuh"
#include "modern_common.cuh"

namespace rl::kernels::labs {
namespace {
using modern::block_sum_shfl;
using modern::kWarp;
constexpr int kTrip = lab::kUnrollTrip;

template <int U>
__global__ void __launch_bounds__(1024)
    unroll_pragma(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x * kTrip;
  const int32_t* mine = x + first + threadIdx.x;
  int sum = 0;
  if (first + std::size_t(blockDim.x) * kTrip <= n) {  // a whole tile: no bounds checks
#pragma unroll U
    for (int j = 0; j < kTrip; ++j) sum += mine[std::size_t(j) * blockDim.x];
  } else {
#pragma unroll U
    for (int j = 0; j < kTrip; ++j) {
      const std::size_t i = first + threadIdx.x + std::size_t(j) * blockDim.x;
      if (i < n) sum += x[i];
    }
  }
  sum = block_sum_shfl(sum, blockDim.x / kWarp);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(1024)
    tree_loop_rolled(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  extern __shared__ int ws[];
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  ws[threadIdx.x] = i < n ? x[i] : 0;
  __syncthreads();
#pragma unroll 1
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) ws[threadIdx.x] += ws[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = ws[0];
}

template <int B>
__global__ void __launch_bounds__(B)
    tree_loop_unrolled(const int32_t* __restrict__ x, std::size_t n, long long* partials) {
  __shared__ int ws[B];
  const std::size_t i = std::size_t(blockIdx.x) * B + threadIdx.x;
  ws[threadIdx.x] = i < n ? x[i] : 0;
  __syncthreads();
#pragma unroll
  for (unsigned stride = B / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) ws[threadIdx.x] += ws[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = ws[0];
}

}  // namespace

bool is_unroll_lab(KernelId k) {
  const int v = static_cast<int>(k);
  return v >= static_cast<int>(KernelId::UnrollPragma) &&
         v <= static_cast<int>(KernelId::TreeLoopUnrolled);
}

cudaError_t plan_unroll_lab(const LaunchArgs& a, LaunchPlan* plan) {
  const std::size_t tile =
      std::size_t(a.block_size) * (a.kernel == KernelId::UnrollPragma ? kTrip : 1);
  const std::size_t grid = (a.n + tile - 1) / tile;
  if (grid > 0x7fffffffu) return cudaErrorInvalidValue;
  *plan = LaunchPlan{};
  plan->grid = static_cast<unsigned>(grid);
  plan->partial_count = grid;
  plan->input_capacity = a.n;
  return cudaSuccess;
}

cudaError_t launch_unroll_lab(const LaunchArgs& a, const LaunchPlan& p) {
  const auto* x = static_cast<const int32_t*>(a.input);
  auto* out = static_cast<long long*>(a.partials);
  switch (a.kernel) {
    case KernelId::UnrollPragma:
      static_assert(accepts(KernelId::UnrollPragma).unroll_factors.max == kTrip);
      return detail::with_pow2<1, kTrip>(a.unroll, [&](auto u) {
        unroll_pragma<u.value><<<p.grid, a.block_size, 0, a.stream>>>(x, a.n, out);
        return cudaGetLastError();
      });
    case KernelId::TreeLoopRolled:
      tree_loop_rolled<<<p.grid, a.block_size, a.block_size * sizeof(int), a.stream>>>(x, a.n, out);
      return cudaGetLastError();
    case KernelId::TreeLoopUnrolled:
      return detail::with_block_size(a.block_size, [&](auto b) {
        tree_loop_unrolled<b.value><<<p.grid, b.value, 0, a.stream>>>(x, a.n, out);
        return cudaGetLastError();
      });
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace rl::kernels::labs
