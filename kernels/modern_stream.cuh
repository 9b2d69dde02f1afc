// The streaming phase shared by the grid-stride kernels (modern_vectorized.cu and
// modern_single_pass.cu): every thread of a grid sized to what the GPU keeps resident reads
// 16-byte vectors, U of them in flight per loop iteration, and keeps a running sum in a register.
// Plus the dispatch from runtime tunables (block size, vectors per iteration) to templates.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "dispatch.cuh"
#include "kernels/accepts.h"
#include "kernels/launch.h"
#include "modern_common.cuh"
#include "modern_launchers.cuh"

namespace rl::kernels::modern {

// Phase 1 of a grid-stride kernel. The input is seen as nv = n / 4 vectors; one grid-wide row
// is S = gridDim.x * B vectors, thread g = blockIdx.x * B + threadIdx.x owns vectors
// g, g + S, g + 2S, ... Each loop iteration issues U independent 16-byte loads
// (g, g + S, ..., g + (U-1)S) before any addition, so U * 16 bytes per thread are in flight:
// that, times the resident threads, is what covers the DRAM latency (Little's law). A row is
// contiguous, so every warp load is 512 contiguous bytes. Threads differ by at most one vector
// at the end, so no block is left with a long tail. The n % 4 scalars past the last whole vector
// are added by the first threads of block 0 (no reliance on zero padding).
//
// Loads use the read-only path (__ldg: ld.global.nc), as CUB does on sm_90.
//
// Accumulation: int32 input is summed in int32 within one iteration (at most 4U values in
// [0, 255]: U = 8 gives <= 8160), then into a 64-bit running sum, so no N that fits on a GPU can
// overflow, whatever the grid. float32 sums each iteration's 4U values in float, then adds that
// to the running float sum.
template <typename T, int B, int U>
__device__ __forceinline__ typename Accum<T>::type stream_thread_sum(const T* __restrict__ x,
                                                                     std::size_t n) {
  using A = typename Accum<T>::type;
  using V = typename Vec4<T>::type;
  const V* __restrict__ xv = reinterpret_cast<const V*>(x);
  const std::size_t nv = n / 4;
  const std::size_t row = static_cast<std::size_t>(gridDim.x) * B;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * B + threadIdx.x;
  A acc = A(0);
  for (; i + (U - 1) * row < nv; i += U * row) {
    V v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = __ldg(xv + i + k * row);
    T s = lanes_sum(v[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes_sum(v[k]);
    acc += s;
  }
  for (; i < nv; i += row) acc += lanes_sum(__ldg(xv + i));
  if (blockIdx.x == 0 && threadIdx.x < (n % 4)) acc += x[nv * 4 + threadIdx.x];
  return acc;
}

// Vectors one block consumes per grid row and iteration, and the blocks an input of n elements
// can keep busy: beyond that, extra blocks would only add partials to the final pass.
inline std::size_t stream_blocks_needed(std::size_t n, int block, int vectors) {
  const std::size_t nv = n / 4;
  const std::size_t per_block = static_cast<std::size_t>(block) * vectors;
  const std::size_t needed = (nv + per_block - 1) / per_block;
  return needed == 0 ? 1 : needed;
}

// Block sizes and vectors per iteration the grid-stride kernels are built for: their rows of
// kernels/accepts.h, which the two kernels share.
inline constexpr KernelAccepts kStreamAccepts = accepts(KernelId::VectorizedGridStride);
static_assert(
    accepts(KernelId::SinglePass).block_sizes.covers(kStreamAccepts.block_sizes) &&
        kStreamAccepts.block_sizes.covers(accepts(KernelId::SinglePass).block_sizes) &&
        accepts(KernelId::SinglePass).unroll_factors.covers(kStreamAccepts.unroll_factors) &&
        kStreamAccepts.unroll_factors.covers(accepts(KernelId::SinglePass).unroll_factors),
    "the grid-stride kernels share one dispatch: their rows must agree");
static_assert(kStreamAccepts.vector_width == 4, "the stream loads int4/float4");

template <typename F>
cudaError_t with_stream_block(int b, F&& f) {
  return detail::with_pow2<kStreamAccepts.block_sizes.min, kStreamAccepts.block_sizes.max>(
      b, std::forward<F>(f));
}

template <typename F>
cudaError_t with_stream_vectors(int u, F&& f) {
  return detail::with_pow2<kStreamAccepts.unroll_factors.min, kStreamAccepts.unroll_factors.max>(
      u, std::forward<F>(f));
}

// cudaMalloc returns 256-byte aligned memory; anything else would fault on a 16-byte load.
inline bool is_vector_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

}  // namespace rl::kernels::modern
