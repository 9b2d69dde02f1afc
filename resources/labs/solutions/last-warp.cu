// A solution to the lab sheet last-warp.json, measured at --unroll 8: reduceUnroll8 whose
// last 32 partial sums are added by one warp without __syncthreads(). The classic ladder does
// it with a volatile pointer and relies on the warp's lanes running in lock-step, which Volta
// and later GPUs do not promise; __syncwarp() between the steps makes it race-free.
// Needs RL_BLOCK of at least 64.
extern "C" __global__ void myUnrollWarp8(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long base = (unsigned long long)blockIdx.x * RL_BLOCK * RL_UNROLL + tid;
  RL_P sum = 0;
#pragma unroll
  for (int k = 0; k < RL_UNROLL; ++k) {
    const unsigned long long i = base + (unsigned long long)k * RL_BLOCK;
    if (i < n) sum += RL_P(in[i]);
  }
  ws[tid] = sum;
  __syncthreads();
  for (unsigned stride = RL_BLOCK / 2; stride > 32; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    RL_P v = ws[tid] + ws[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1) {
      __syncwarp();
      ws[tid] = v;
      __syncwarp();
      v += ws[tid + offset];
    }
    if (tid == 0) partials[blockIdx.x] = v;
  }
}
