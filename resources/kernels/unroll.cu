// reduceUnroll: each block first adds RL_UNROLL tiles of RL_BLOCK elements per thread, then
// reduces one tile as reduceInterleaved does (docs/user-kernels.md). Run it with --unroll 2, 4, 8.
extern "C" __global__ void myUnroll(const RL_T* in, RL_P* partials, unsigned long long n) {
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
  for (unsigned stride = RL_BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
