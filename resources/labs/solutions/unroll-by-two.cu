// A solution to the lab sheet unroll-by-two.json, measured at --unroll 2 (the engine plans one
// block per RL_UNROLL tiles): each thread first adds its element of each of the block's tiles,
// then the block reduces one tile as reduceInterleaved does.
extern "C" __global__ void myUnroll2(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long base = (unsigned long long)blockIdx.x * RL_BLOCK * RL_UNROLL + tid;
  RL_P sum = 0;
#pragma unroll
  for (int k = 0; k < RL_UNROLL; ++k)
    if (base + (unsigned long long)k * RL_BLOCK < n) sum += RL_P(in[base + k * RL_BLOCK]);
  ws[tid] = sum;
  __syncthreads();
  for (unsigned stride = RL_BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
