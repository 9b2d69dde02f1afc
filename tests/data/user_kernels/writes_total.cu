// A kernel that writes the total itself (docs/user-kernels.md, "The partials"): each block adds
// its sum into partials[0] with rl_add_total, and the engine runs no finishing pass.
#define RL_WRITES_TOTAL

extern "C" __global__ void atomicTotal(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * RL_BLOCK + tid;
  ws[tid] = i < n ? RL_P(in[i]) : RL_P(0);
  __syncthreads();
  for (unsigned stride = RL_BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) rl_add_total(partials, ws[0]);
}
