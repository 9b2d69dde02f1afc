// Kernels whose counters are known by construction (counter_kernels.cu says why each value is
// what it is), for the counter tests. One block of 32 x warps threads per SM-sized grid; every
// launch writes one float per thread to out and waits for nothing.
#pragma once

#include <cuda_runtime_api.h>

namespace rl::testing {

// No __syncthreads() and only uniform branches (the loop's back-edge): 100% branch uniformity,
// 32 threads per instruction, 0 barrier stall.
cudaError_t launch_uniform_kernel(float* out, int blocks, int threads, int iters, cudaStream_t s);
// Each iteration: a branch on lane parity (odd lanes do 32 FMAs, even lanes skip them) and the
// uniform back-edge: about 50% uniformity, under 24 threads per instruction, 0 barrier stall.
cudaError_t launch_parity_kernel(float* out, int blocks, int threads, int iters, cudaStream_t s);
// A __syncthreads() per iteration with one warp doing extra work before it: barrier stall well
// above 0, iters barriers per warp.
cudaError_t launch_barrier_kernel(float* out, int blocks, int threads, int iters, cudaStream_t s);

}  // namespace rl::testing
