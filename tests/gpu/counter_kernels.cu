// SASS of these kernels, read with cuobjdump -sass (sm_90, nvcc 13.0): counters_uniform's only
// branches are the loop guard and back-edge; counters_parity's loop holds `@!P0 BRA` (lane
// parity: divergent), BSSY/BSYNC around the 32 FFMAs of the odd lanes, and the back-edge
// `@!P1 BRA` (uniform), so half of its executed branches are uniform.
#include "counter_kernels.h"

namespace rl::testing {

namespace {

__global__ void counters_uniform(float* out, int iters) {
  float x = float(threadIdx.x);
#pragma unroll 1
  for (int k = 0; k < iters; ++k) x = x * 1.0001f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void counters_parity(float* out, int iters) {
  float x = float(threadIdx.x);
  const bool odd = threadIdx.x & 1;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
    if (odd) {  // long enough that ptxas branches instead of predicating
#pragma unroll
      for (int j = 0; j < 32; ++j) x = x * 1.0001f + 0.5f;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void counters_barrier(float* out, int iters) {
  __shared__ float s[1024];
  float x = float(threadIdx.x);
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
    if (threadIdx.x < 32) {  // one warp works while the others wait at the barrier
#pragma unroll 1
      for (int j = 0; j < 64; ++j) x = x * 1.0001f + 0.5f;
    }
    s[threadIdx.x] = x;
    __syncthreads();
    x += s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

}  // namespace

cudaError_t launch_uniform_kernel(float* out, int blocks, int threads, int iters, cudaStream_t s) {
  counters_uniform<<<blocks, threads, 0, s>>>(out, iters);
  return cudaGetLastError();
}

cudaError_t launch_parity_kernel(float* out, int blocks, int threads, int iters, cudaStream_t s) {
  counters_parity<<<blocks, threads, 0, s>>>(out, iters);
  return cudaGetLastError();
}

cudaError_t launch_barrier_kernel(float* out, int blocks, int threads, int iters, cudaStream_t s) {
  counters_barrier<<<blocks, threads, 0, s>>>(out, iters);
  return cudaGetLastError();
}

}  // namespace rl::testing
