// reduceNeighbored, the first rung of the classic ladder, in the user-kernel contract
// (docs/user-kernels.md): the engine compiles it with RL_BLOCK (threads per block), RL_UNROLL,
// RL_T (int or float) and RL_P (long long or float) defined, launches one block per tile of
// RL_BLOCK x RL_UNROLL elements (zero padded to whole tiles), and adds the partials.
extern "C" __global__ void myNeighbored(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * RL_BLOCK + tid;
  ws[tid] = i < n ? RL_P(in[i]) : RL_P(0);
  __syncthreads();
  // Neighbours: at each stride only threads with tid % (2 * stride) == 0 add, so every warp
  // keeps a few active lanes (warp divergence).
  for (unsigned stride = 1; stride < RL_BLOCK; stride *= 2) {
    if (tid % (2 * stride) == 0) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
