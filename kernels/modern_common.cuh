// Device helpers shared by the kernels past the classic ladder (modern_*.cu): the warp-level tree
// with __shfl_down_sync, the block-level sum built from it, and the 16-byte vector types.
//
// The order of additions here is part of the contract with the host model
// (engine/block_model_modern.cpp): change one, change the other, or the float tests fail.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/launch.h"

namespace rl::kernels::modern {

inline constexpr unsigned kFullMask = 0xffffffffu;
inline constexpr int kWarp = 32;

// Warp tree: offsets 16, 8, 4, 2, 1; lane i adds lane i + offset. Lane 0 ends with the sum of
// the 32 lanes, in the same pairs as the classic ladder's last warp (ws[tid] += ws[tid + offset]),
// but through registers: no shared memory, no volatile, no __syncwarp() needed.
template <typename V>
__device__ __forceinline__ V warp_sum_shfl(V v) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// Block sum from warp sums: every warp reduces its 32 values with shuffles, lane 0 of each warp
// writes its sum to shared memory, then the first warp reduces those (padded with zeros to 32
// lanes) the same way. The result is valid in thread 0 only. blockDim.x must be a multiple of
// 32; nwarps = blockDim.x / 32. Two barrier-free warp phases and one __syncthreads(), against
// log2(blockDim.x) barriers for the classic ladder's shared-memory tree.
//
// Safe to call twice in a row in one kernel as long as a __syncthreads() separates the calls
// (the first call's readers of warp_sums are warp 0 only, before that barrier).
template <typename V>
__device__ __forceinline__ V block_sum_shfl(V v, unsigned nwarps) {
  __shared__ V warp_sums[kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  const unsigned warp = threadIdx.x / kWarp;
  v = warp_sum_shfl(v);
  if (nwarps == 1) return v;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum_shfl(lane < nwarps ? warp_sums[lane] : V(0));
  return v;
}

// 16-byte vector of four elements: one LDG.128 per thread, 512 contiguous bytes per warp.
template <typename T>
struct Vec4;
template <>
struct Vec4<int32_t> {
  using type = int4;
};
template <>
struct Vec4<float> {
  using type = float4;
};

// Sum of a vector's four lanes as a pairwise tree ((x + y) + (z + w)).
template <typename V>
__device__ __forceinline__ auto lanes_sum(const V& v) -> decltype(v.x + v.y) {
  return (v.x + v.y) + (v.z + v.w);
}

}  // namespace rl::kernels::modern
