// Wrong on purpose (tests): the block adds in the element type, so int32 sums that leave
// int32 (the int32 extremes) wrap around; right on small values.
extern "C" __global__ void intAccumulator(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_T ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * RL_BLOCK + tid;
  ws[tid] = i < n ? in[i] : RL_T(0);
  __syncthreads();
  for (unsigned stride = RL_BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
