// A solution to the lab sheet remove-divergence.json: reduceNeighbored's pairs, added by packed
// threads (the classic ladder's reduceNeighboredLess). Thread tid works on the pair at
// 2 * stride * tid, so at each step the working threads are the first ones, in whole warps.
// Each thread first adds its elements of the block's RL_UNROLL tiles, so any --unroll is right.
extern "C" __global__ void myNeighboredLess(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long base = (unsigned long long)blockIdx.x * RL_BLOCK * RL_UNROLL + tid;
  RL_P sum = 0;
  for (int k = 0; k < RL_UNROLL; ++k)
    if (base + (unsigned long long)k * RL_BLOCK < n) sum += RL_P(in[base + k * RL_BLOCK]);
  ws[tid] = sum;
  __syncthreads();
  for (unsigned stride = 1; stride < RL_BLOCK; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < RL_BLOCK) ws[index] += ws[index + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
