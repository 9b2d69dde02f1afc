// Device helpers shared by the classic ladder kernels: the load / pre-reduction phase and the
// two workspaces. Every ladder kernel is "phase 1: load (and pre-reduce U tiles) into the
// workspace; phase 2: reduce the workspace in a block-wide tree; phase 3: thread 0 writes the
// block's partial". Only phase 2 differs between the classic ladder's kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/launch.h"

namespace rl::kernels::detail {

// Phase 1. A block owns the tile [base, base + U * B) with base = blockIdx.x * U * B; thread
// tid sums x[base + tid + k * B] for k = 0..U-1, left to right (the classic ladder's unroll order),
// with elements at or past n read as 0. The classic ladder skips the whole pre-reduction when the
// last element is past n, which drops the tail; we keep the fast unguarded path for full tiles
// only.
template <int U, typename T>
__device__ __forceinline__ T load_pre_reduced(const T* __restrict__ x, std::size_t n) {
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * U * blockDim.x;
  const std::size_t idx = base + threadIdx.x;
  if (idx + static_cast<std::size_t>(U - 1) * blockDim.x < n) {
    T sum = x[idx];
#pragma unroll
    for (int k = 1; k < U; ++k) sum += x[idx + static_cast<std::size_t>(k) * blockDim.x];
    return sum;
  }
  T sum = idx < n ? x[idx] : T(0);
#pragma unroll
  for (int k = 1; k < U; ++k) {
    const std::size_t i = idx + static_cast<std::size_t>(k) * blockDim.x;
    sum += i < n ? x[i] : T(0);
  }
  return sum;
}

// Sets up the workspace of this block and returns a pointer to its first element.
//  Global: the block's tile of the input itself (in place, as the classic ladder). The buffer is
// zero
//          padded to grid * U * B elements, so the tree never reads past it. With U == 1 the
//          tile is used as loaded (the classic ladder's neighbored/interleaved kernels have no
// phase 1).
//  Shared: a blockDim.x-element dynamic shared array; the input is only read.
template <int U, Workspace W, typename T>
__device__ __forceinline__ T* prepare_workspace(T* __restrict__ input, std::size_t n,
                                                T* __restrict__ smem) {
  T* tile = input + static_cast<std::size_t>(blockIdx.x) * U * blockDim.x;
  if constexpr (W == Workspace::Global) {
    // With U == 1 nothing was written yet, so no barrier: the classic ladder's reduceNeighbored /
    // Less / Interleaved start straight with the tree (10 barriers per 1024-thread block).
    if constexpr (U > 1) {
      const T sum = load_pre_reduced<U>(input, n);
      tile[threadIdx.x] = sum;
      __syncthreads();
    }
    return tile;
  } else {
    smem[threadIdx.x] = load_pre_reduced<U>(input, n);
    __syncthreads();
    return smem;
  }
}

template <typename T>
__device__ __forceinline__ void write_partial(const T* ws, typename Accum<T>::type* partials) {
  if (threadIdx.x == 0) partials[blockIdx.x] = static_cast<typename Accum<T>::type>(ws[0]);
}

// Dynamic shared memory declared once per type (a templated extern array must not be redeclared
// with different types in one translation unit).
template <typename T>
__device__ __forceinline__ T* dynamic_smem() {
  extern __shared__ __align__(16) unsigned char rl_dynamic_smem[];
  return reinterpret_cast<T*>(rl_dynamic_smem);
}

}  // namespace rl::kernels::detail
