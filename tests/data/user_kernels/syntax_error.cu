// clang-format off
// Does not compile on purpose (tests): line 6 names an undeclared variable, line 7 lacks a ';'.
extern "C" __global__ void syntaxError(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  ws[tid] = undeclared_value;
  __syncthreads()
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
