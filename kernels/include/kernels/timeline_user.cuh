// Warp timeline marks in a user's kernel, compiled by NVRTC in timeline mode (docs/user-kernels.md,
// "Timelines"). The engine pre-includes it and renames the user's __global__ function into a
// device function that rl_timeline_entry (appended after the user's source) calls between the
// warp's start and end marks, so a kernel without marks still gets each warp's start and end.
// __syncthreads() is stamped where the user calls it; rl_phase("name") marks a phase. A warp's
// state lives in shared memory here (the user's code holds no RlTimelineWarp), sized by RL_BLOCK.
#pragma once

#include "timeline_marks.cuh"

#define RL_TL_USER_WARPS ((RL_BLOCK + 31) / 32)

__device__ RlTimelineSink rl_timeline_sink;  // set by the engine before the launch
__shared__ unsigned rl_tl_stage_mem[RL_TL_USER_WARPS * RL_TL_STAGE_WORDS];
__shared__ unsigned rl_tl_count_mem[RL_TL_USER_WARPS];
__shared__ unsigned rl_tl_barrier_mem[RL_TL_USER_WARPS];
__shared__ unsigned long long rl_tl_start_mem[2 * RL_TL_USER_WARPS];

__device__ __forceinline__ RlTimelineWarp rl_tl_user_warp() {
  const unsigned warp = threadIdx.x / 32u;
  RlTimelineWarp w;
  w.stage = rl_tl_stage_mem + warp * RL_TL_STAGE_WORDS;
  w.count = rl_tl_count_mem[warp];
  w.start_clock = rl_tl_start_mem[2 * warp];
  w.start_ns = rl_tl_start_mem[2 * warp + 1];
  return w;
}

// A mark from the lowest active lane, wherever the warp is (the user's code may diverge).
__device__ __forceinline__ void rl_tl_user_mark(unsigned code) {
  const unsigned active = __activemask();
  if ((threadIdx.x & 31u) != static_cast<unsigned>(__ffs(active) - 1)) return;
  RlTimelineWarp w = rl_tl_user_warp();
  rl_tl_stamp(w, code);
  rl_tl_count_mem[threadIdx.x / 32u] = w.count;
}

__device__ __forceinline__ void rl_tl_user_phase(unsigned hash) {
  rl_tl_user_mark(RL_TL_CODE(RL_TL_PHASE, RL_TL_PHASE_USER, hash));
}

__device__ __forceinline__ void rl_tl_user_syncthreads() {
  const unsigned warp = threadIdx.x / 32u;
  const unsigned ordinal = rl_tl_barrier_mem[warp];
  rl_tl_user_mark(RL_TL_CODE(RL_TL_ARRIVE, 0u, ordinal));
  __syncthreads();
  // As rl_tl_barrier: the release stamp waits for a shared load the barrier gates.
  const unsigned active = __activemask();
  if ((threadIdx.x & 31u) == static_cast<unsigned>(__ffs(active) - 1)) {
    const unsigned gate =
        *static_cast<volatile unsigned*>(rl_tl_stage_mem + warp * RL_TL_STAGE_WORDS);
    if (gate != 0xffffffffu) {
      RlTimelineWarp w = rl_tl_user_warp();
      rl_tl_stamp(w, RL_TL_CODE(RL_TL_RELEASE, 0u, ordinal));
      rl_tl_count_mem[warp] = w.count;
      rl_tl_barrier_mem[warp] = ordinal + 1;
    }
  }
}

__device__ __forceinline__ void rl_tl_user_begin() {
  const unsigned warp = threadIdx.x / 32u;
  RlTimelineWarp w = rl_tl_begin(rl_tl_stage_mem);
  if ((threadIdx.x & 31u) == 0) {
    rl_tl_count_mem[warp] = w.count;
    rl_tl_barrier_mem[warp] = 0;
    rl_tl_start_mem[2 * warp] = w.start_clock;
    rl_tl_start_mem[2 * warp + 1] = w.start_ns;
  }
  __syncwarp();
}

__device__ __forceinline__ void rl_tl_user_end() {
  __syncwarp();
  RlTimelineWarp w = rl_tl_user_warp();
  rl_tl_end(w, rl_timeline_sink);
}

#define rl_phase(name)                                      \
  do {                                                      \
    constexpr unsigned rl_tl_hash_ = rl_tl_name_hash(name); \
    rl_tl_user_phase(rl_tl_hash_);                          \
  } while (0)
#define __syncthreads() rl_tl_user_syncthreads()
