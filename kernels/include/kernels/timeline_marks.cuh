// Warp timeline marks, device side: shared by the instrumented twins of the built-in kernels
// (kernels/timeline_ladder.cu) and by a user's kernel compiled by NVRTC in timeline mode
// (rl_timeline.h wraps these), so it includes nothing and uses only CUDA built-ins.
//
// Lane 0 of a warp stamps clock64 and %globaltimer at each mark into its slice of shared
// memory (three 32-bit words a mark: code, clock's low word, %globaltimer's low word; the full
// 64-bit values at the warp's start stay in registers), so nothing leaves the SM while the
// block runs. At the warp's end, if its block is recorded, the warp copies its slice to global
// memory in one burst. engine/session/timeline.h says what the marks mean.
#pragma once

#define RL_TL_MAX_MARKS 64u
#define RL_TL_WORDS_PER_MARK 3u
#define RL_TL_STAGE_WORDS (RL_TL_MAX_MARKS * RL_TL_WORDS_PER_MARK)
// A warp's record in global memory: header words, then its stage as stamped.
#define RL_TL_HEADER_WORDS 8u
#define RL_TL_RECORD_WORDS (RL_TL_HEADER_WORDS + RL_TL_STAGE_WORDS)
#define RL_TL_MAX_WARPS 32u
#define RL_TL_NO_SM 0xffffffffu
#define RL_TL_FREE_SLOT 0xffffffffu

// A mark's code: kind (8 bits), phase (8 bits), argument (16 bits).
#define RL_TL_START 1u
#define RL_TL_PHASE 2u
#define RL_TL_ARRIVE 3u
#define RL_TL_RELEASE 4u
#define RL_TL_END 5u
#define RL_TL_PHASE_LOAD 0u
#define RL_TL_PHASE_TREE 1u
#define RL_TL_PHASE_LAST_WARP 2u
#define RL_TL_PHASE_WRITE 3u
#define RL_TL_PHASE_WARP 4u     // a warp's sum in registers (shuffles or REDUX); arg: its level
#define RL_TL_PHASE_HAND_ON 5u  // a one-launch kernel's atomics that hand a sum on to the total
#define RL_TL_PHASE_CLUSTER \
  6u  // a cluster's barriers and its sums through distributed shared memory
#define RL_TL_PHASE_USER 255u  // argument: rl_tl_name_hash() of the user's name
#define RL_TL_CODE(kind, phase, arg) \
  (((kind) << 24) | (((phase)&0xffu) << 16) | ((unsigned)(arg)&0xffffu))

#if defined(__CUDACC__)
#define RL_TL_HOST_DEVICE __host__ __device__
#else
#define RL_TL_HOST_DEVICE
#endif

// FNV-1a of a phase name, folded to 16 bits: the argument of a user's rl_phase() mark. The host
// hashes the names it finds in the source the same way.
RL_TL_HOST_DEVICE constexpr unsigned rl_tl_name_hash(const char* s) {
  unsigned h = 2166136261u;
  for (; *s != 0; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 16777619u;
  return (h ^ (h >> 16)) & 0xffffu;
}

// Below: device code (nvcc and NVRTC); the host compiler reads only the layout above.
#if defined(__CUDACC__)

// Where recorded warps go. blocks/block_count: record these block ids (slot = position in the
// list); otherwise target_sm: record the first block_count blocks that end a warp on that SM,
// each taking the first free entry of slot_table (block_count entries, RL_TL_FREE_SLOT at
// first). records: [slot][warp][RL_TL_RECORD_WORDS].
struct RlTimelineSink {
  unsigned* records;
  const unsigned* blocks;  // nullptr in SM mode
  unsigned* slot_table;    // SM mode
  unsigned block_count;
  unsigned target_sm;
};

// One warp's marks while its block runs (meaningful in lane 0).
struct RlTimelineWarp {
  unsigned* stage;  // this warp's RL_TL_STAGE_WORDS words of shared memory
  unsigned count;
  unsigned long long start_clock, start_ns;
};

__device__ __forceinline__ unsigned long long rl_tl_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned long long rl_tl_clock() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned rl_tl_smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Called by lane 0 only.
__device__ __forceinline__ void rl_tl_stamp(RlTimelineWarp& w, unsigned code) {
  const unsigned long long c = rl_tl_clock();
  const unsigned long long t = rl_tl_globaltimer();
  if (w.count < RL_TL_MAX_MARKS) {
    unsigned* m = w.stage + w.count * RL_TL_WORDS_PER_MARK;
    m[0] = code;
    m[1] = static_cast<unsigned>(c);
    m[2] = static_cast<unsigned>(t);
  }
  ++w.count;
}

// Every thread calls it first; lane 0 stamps the warp's start.
__device__ __forceinline__ RlTimelineWarp rl_tl_begin(unsigned* stage_base) {
  RlTimelineWarp w;
  w.stage = stage_base + (threadIdx.x / 32u) * RL_TL_STAGE_WORDS;
  w.count = 0;
  w.start_clock = 0;
  w.start_ns = 0;
  if ((threadIdx.x & 31u) == 0) {
    w.start_clock = rl_tl_clock();
    w.start_ns = rl_tl_globaltimer();
    unsigned* m = w.stage;
    m[0] = RL_TL_CODE(RL_TL_START, 0u, 0u);
    m[1] = static_cast<unsigned>(w.start_clock);
    m[2] = static_cast<unsigned>(w.start_ns);
    w.count = 1;
  }
  return w;
}

// Marks for code that every lane of the warp reaches together.
__device__ __forceinline__ void rl_tl_mark(RlTimelineWarp& w, unsigned code) {
  if ((threadIdx.x & 31u) == 0) rl_tl_stamp(w, code);
}

// __syncthreads() with its arrival and release stamped; `ordinal` counts the warp's barriers.
// A warp may issue past bar.sync before the barrier resolves (it blocks at its next memory
// access; a clock read right after the barrier was seen on an H200 a few thousand cycles before
// the block's last warp arrived). So the release stamp waits for a shared-memory load, which
// cannot complete before the barrier does, and branches on its value: the Start code stamped at
// the warp's start, never all ones.
__device__ __forceinline__ void rl_tl_barrier(RlTimelineWarp& w, unsigned& ordinal) {
  rl_tl_mark(w, RL_TL_CODE(RL_TL_ARRIVE, 0u, ordinal));
  __syncthreads();
  if ((threadIdx.x & 31u) == 0) {
    const unsigned gate = *static_cast<volatile unsigned*>(w.stage);
    if (gate != 0xffffffffu) rl_tl_stamp(w, RL_TL_CODE(RL_TL_RELEASE, 0u, ordinal));
  }
  ++ordinal;
}

// The warp's slot, or -1 when its block is not recorded. Every lane calls it: lane i reads entry
// i of the list or table at once, so a warp of the target SM costs one round of loads once the
// table is full (an atomic only while it has a free entry).
__device__ __forceinline__ int rl_tl_slot(const RlTimelineSink& s, unsigned sm) {
  const unsigned lane = threadIdx.x & 31u;
  const bool listed = s.blocks != nullptr;
  if (!listed && sm != s.target_sm) return -1;
  unsigned entry = RL_TL_NO_SM;
  if (lane < s.block_count)
    entry = listed ? s.blocks[lane] : *static_cast<volatile unsigned*>(s.slot_table + lane);
  const unsigned mine = __ballot_sync(0xffffffffu, lane < s.block_count && entry == blockIdx.x);
  if (mine != 0) return __ffs(mine) - 1;
  const unsigned free =
      __ballot_sync(0xffffffffu, lane < s.block_count && entry == RL_TL_FREE_SLOT);
  if (listed || free == 0) return -1;
  int slot = -1;
  if (lane == 0) {
    for (unsigned i = __ffs(free) - 1; i < s.block_count; ++i) {
      const unsigned seen = atomicCAS(s.slot_table + i, RL_TL_FREE_SLOT, blockIdx.x);
      if (seen == RL_TL_FREE_SLOT || seen == blockIdx.x) {
        slot = static_cast<int>(i);
        break;
      }
    }
  }
  return __shfl_sync(0xffffffffu, slot, 0);
}

// Every lane of the warp calls it last: lane 0 stamps the end; a recorded warp copies its marks
// out (all 32 lanes copying, one burst).
__device__ __forceinline__ void rl_tl_end(RlTimelineWarp& w, const RlTimelineSink& s) {
  if ((threadIdx.x & 31u) == 0) rl_tl_stamp(w, RL_TL_CODE(RL_TL_END, 0u, 0u));
  const unsigned sm = rl_tl_smid();
  const int slot = rl_tl_slot(s, sm);
  if (slot < 0) return;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  const unsigned count = __shfl_sync(0xffffffffu, w.count, 0);
  unsigned* rec = s.records + (static_cast<unsigned long long>(slot) * RL_TL_MAX_WARPS + warp) *
                                  RL_TL_RECORD_WORDS;
  if (lane == 0) {
    rec[0] = blockIdx.x;
    rec[1] = sm;
    rec[2] = count;  // may exceed RL_TL_MAX_MARKS: the rest were dropped
    rec[3] = warp;
    rec[4] = static_cast<unsigned>(w.start_clock);
    rec[5] = static_cast<unsigned>(w.start_clock >> 32);
    rec[6] = static_cast<unsigned>(w.start_ns);
    rec[7] = static_cast<unsigned>(w.start_ns >> 32);
  }
  __syncwarp();
  const unsigned words = (count < RL_TL_MAX_MARKS ? count : RL_TL_MAX_MARKS) * RL_TL_WORDS_PER_MARK;
  for (unsigned i = lane; i < words; i += 32u) rec[RL_TL_HEADER_WORDS + i] = w.stage[i];
}

#endif  // __CUDACC__
