// Wrong on purpose (tests): the last block of a grid of two or more writes 0, so every N
// past one tile is wrong, and the first block whose partial differs is the last.
extern "C" __global__ void lastBlockDropped(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * RL_BLOCK + tid;
  ws[tid] = i < n ? RL_P(in[i]) : RL_P(0);
  __syncthreads();
  for (unsigned stride = RL_BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partials[blockIdx.x] = (blockIdx.x > 0 && blockIdx.x == gridDim.x - 1) ? RL_P(0) : ws[0];
}
