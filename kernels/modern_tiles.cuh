// The tile phase and the warp and block sums of the one-launch kernels (modern_single_pass.cu,
// modern_cluster.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/launch.h"
#include "modern_common.cuh"

namespace rl::kernels::modern {

// Phase 1. The input is nv = n / 4 vectors in tiles of B * U; block b takes tiles b, b + grid,
// ... (one tile when the grid is the tile count, the default for int32). The one block whose
// walk ends on the partial last tile reads it with guarded loads; the n % 4 scalars past the
// last whole vector go to the first threads of block 0. int32: a tile's 4U values per thread
// are summed in int32 (<= 32 * 255), then into the 64-bit running sum.
//
// Loads: __ldg (ld.global.nc, the read-only path; what CUB uses on sm_90). Measured against
// __ldcs (evict-first) and ld.global.nc.L1::no_allocate with ncu on a clean L2 (H200): within
// 3% of each other at 2^24..2^28, no consistent winner (2^28 B=512 U=4: 230.9, 231.4,
// 231.0 us).
template <typename T, int B, int U>
__device__ __forceinline__ typename Accum<T>::type tile_thread_sum(const T* __restrict__ x,
                                                                   std::size_t n) {
  using A = typename Accum<T>::type;
  using V = typename Vec4<T>::type;
  constexpr std::size_t kTile = std::size_t(B) * U;
  const V* __restrict__ xv = reinterpret_cast<const V*>(x);
  const std::size_t nv = n / 4;
  const std::size_t full_tiles = nv / kTile;
  A acc = A(0);
  std::size_t t = blockIdx.x;
  for (; t < full_tiles; t += gridDim.x) {
    const V* p = xv + t * kTile + threadIdx.x;
    V v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = __ldg(p + k * B);
    T s = lanes_sum(v[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes_sum(v[k]);
    acc += s;
  }
  if (t == full_tiles) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const std::size_t i = full_tiles * kTile + threadIdx.x + std::size_t(k) * B;
      if (i < nv) acc += lanes_sum(__ldg(xv + i));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) acc += x[nv * 4 + threadIdx.x];
  return acc;
}

// The block sum of a thread's running sum. int32 on sm_80+: REDUX (__reduce_add_sync, one
// instruction per warp) on the two 24-bit halves of the 64-bit sum (each warp total stays below
// 2^29); float32 and older GPUs: the shuffle tree of modern_common.cuh.
template <typename A>
__device__ __forceinline__ A warp_total(A v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<A, long long>) {
    const unsigned lo = static_cast<unsigned>(v) & 0xffffffu;
    const unsigned hi = static_cast<unsigned>(static_cast<unsigned long long>(v) >> 24);
    return static_cast<long long>(__reduce_add_sync(kFullMask, lo)) +
           (static_cast<long long>(__reduce_add_sync(kFullMask, hi)) << 24);
  }
#endif
  return warp_sum_shfl(v);
}

template <typename A>
__device__ __forceinline__ A block_total(A v, unsigned nwarps) {
  __shared__ A warp_sums[kWarp];
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  v = warp_total(v);
  if (nwarps == 1) return v;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_total(lane < nwarps ? warp_sums[lane] : A(0));
  return v;
}

}  // namespace rl::kernels::modern
