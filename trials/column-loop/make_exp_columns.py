#!/usr/bin/env python3
"""Writes exp_columns.cu: kernels/segmented_columns.cu with three switches for the trial
(harness.cu): EXP_SKIP_FOLD compiles the fold's epilogue out (wrong sums, timing only),
EXP_TRACE records each block's start, end (%globaltimer) and SM, EXP_RED adds an int32
matrix's slab sums into the column sums with 64-bit atomics instead of tickets (the sums must
be zeroed first: harness mode 2). Build, from this folder, for each variant:
  nvcc -I../../kernels/include-engine -I../../kernels -I../../kernels/include -I. -O3 -DNDEBUG
       -arch=sm_90 --expt-relaxed-constexpr -std=c++17 -DEXP_... harness.cu -o fold_NAME
"""
src = open('../../kernels/segmented_columns.cu').read()
src = src.replace('if constexpr (Fold)', 'if constexpr (Fold && !kExpSkipFold)')
marker = '  using A = typename Accum<T>::type;\n  extern __shared__'
src = src.replace(marker, '  ExpTrace exp_trace;\n' + marker, 1)
old = '    if (ty == 0 && unit < units) store_cells(out + unit * L, acc);\n'
src = src.replace(old, '''    if constexpr (kExpRed && !Fold && sizeof(A) == 8) {
      if (slabs > 1) {
        if (ty == 0 && unit < units) {
#pragma unroll
          for (int j = 0; j < L; ++j)
            atomicAdd(reinterpret_cast<unsigned long long*>(sums + unit * L + j),
                      static_cast<unsigned long long>(acc.v[j]));
        }
        continue;
      }
    }
''' + old, 1)
pre = '''#include <cstdint>
#ifndef EXP_TRACE
#define EXP_TRACE 0
#endif
#ifndef EXP_SKIP_FOLD
#define EXP_SKIP_FOLD 0
#endif
#ifndef EXP_RED
#define EXP_RED 0
#endif
inline constexpr bool kExpRed = EXP_RED;
inline constexpr bool kExpSkipFold = EXP_SKIP_FOLD;
__device__ unsigned long long* g_exp_trace = nullptr;  // per block: start, end, smid
#if EXP_TRACE
struct ExpTrace {
  __device__ __forceinline__ static unsigned long long now() {
    unsigned long long t; asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); return t; }
  __device__ ExpTrace() {
    if (g_exp_trace && threadIdx.x == 0) {
      const unsigned b = blockIdx.x + blockIdx.y * gridDim.x; unsigned sm;
      asm volatile("mov.u32 %0, %smid;" : "=r"(sm));
      g_exp_trace[3 * b] = now(); g_exp_trace[3 * b + 2] = sm; } }
  __device__ ~ExpTrace() {
    if (g_exp_trace && threadIdx.x == 0) {
      const unsigned b = blockIdx.x + blockIdx.y * gridDim.x; g_exp_trace[3 * b + 1] = now(); } }
};
#else
struct ExpTrace {};
#endif
'''
open('exp_columns.cu', 'w').write(pre + src)
