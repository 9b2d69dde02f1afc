// The hand-on of the epoch pass (modern_epoch.cu): no slot waits for anything at its end. Every
// contributor of a sum (a "slot": a warp on small grids, else a block) adds its sum into an
// accumulator with a fire-and-forget atomic (RED) and exits; the accumulator is the total once
// the kernel has ended. Integer additions are exact, so the total has the same bits whatever
// order the slots arrive in: float32 as well as int32 is deterministic.
//
// Why: a slot that must know whether it is the last one (single_pass, modern_finish.cuh) waits
// for its atomic to come back, and the last slot's atomic queues behind every other slot's: a
// round trip on the critical path, 0.2-0.4 us on the H200 where reading 2^16..2^21 elements
// takes 2.4-4.5 us. With RED nothing comes back.
//
// What makes that possible is an accumulator that is zero when the launch starts, without a
// memset before it: two accumulators, used in turn. The host passes each launch its number e on
// that scratch (LaunchArgs::epoch: the launcher passes it and adds 1, kernels/launch.h); the
// launch adds into accumulator e % 2, and block 0's first warp, as it starts, zeroes the other
// one for the next launch (the previous launch's total: the host reads a total before it
// launches again on the same scratch, and nothing in this launch adds there) and writes e + 1 to
// the epoch word, which tells the host where the latest total is. Nothing waits for anything.
// No slot takes a ticket from the epoch word (a returning atomic whose answer would say the
// epoch, the last ticket readying the next launch): its round trip and the tickets' queue on
// that one word cost 0.1-0.25 us at 2^16..2^18 on the H200, where the loads do not hide them
// (docs/decisions.md). The host reads the
// total of the latest launch through epoch_total_int32 / epoch_total_float32
// (kernels/epoch_total.h): accumulator (epoch word - 1) % 2.
//
//  int32: the accumulator is one 64-bit word, kEpochInt32Word (inputs are in [0, 255]: any
//    total of up to 2^40 elements fits).
//  float32: the exponent windows of modern_finish.cuh without bias or count: a warp's sum, the
//    fixed-point s * 2^e (|s| < 2^31, below), is the signed integer s << (q % 8), q = e + 149,
//    in window q / 8 (32 windows of 64 bits: 2^19 warp sums below 2^38 fit). A warp slot adds
//    its entry; a block slot adds the sum of its warps' entries when they share a window
//    (block_window_hand_on), else each warp's. Word 32 counts NaN, +inf and -inf (16 bits each).
//    The reader carries the windows into base-256 digits and adds them as doubles, rounding once
//    to float: deterministic, from the warp sums' exact total.
//
// Scratch (zeroed once when it is allocated): the epoch word at 0, the two accumulators at
// kEpochTotals and kEpochTotals + kEpochTotalStride (each in lines of its own).
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include "kernels/epoch_total.h"
#include "modern_common.cuh"

namespace rl::kernels::modern {

__device__ __forceinline__ unsigned long long* epoch_word(char* scratch) {
  return reinterpret_cast<unsigned long long*>(scratch + kEpochWordOffset);
}
__device__ __forceinline__ unsigned long long* epoch_total(char* scratch, unsigned e) {
  return reinterpret_cast<unsigned long long*>(scratch + kEpochTotals +
                                               kEpochTotalStride * (e & 1u));
}

// Block 0's first warp, as it starts: zeroes the words the type uses of the accumulator the
// next launch adds into (one store per lane, fire and forget) and writes e + 1 to the epoch word.
// `first`, `words`: the accumulator's words the type uses (int32: kEpochInt32Word and 1;
// float32: 0 and kEpochTotalWords).
__device__ __forceinline__ void epoch_ready_next(char* scratch, unsigned epoch, unsigned first,
                                                 unsigned words) {
  const unsigned lane = threadIdx.x % kWarp;
  unsigned long long* next = epoch_total(scratch, epoch + 1) + first;
  if (lane < words) next[lane] = 0;
  if (lane == 0) {
    if (words > unsigned(kWarp)) next[kWarp] = 0;
    *epoch_word(scratch) = static_cast<unsigned long long>(epoch + 1) << 32;
  }
}

// Block 0 asks L2 for this launch's accumulator lines while the tiles load (a hint, no
// ordering), so that after a cache flush (cold-L2 timing, ncu) the adds at the end do not wait
// on DRAM: float32 all of its lines, int32 the one that holds its word.
__device__ __forceinline__ void epoch_prefetch(const char* scratch, unsigned epoch, bool windows) {
  constexpr unsigned kLinesEach = (kEpochTotalWords * 8 + 127) / 128;
  const unsigned lines = windows ? kLinesEach : 1u;
  const unsigned first = windows ? 0u : kEpochInt32Word * 8 / 128;
  if (blockIdx.x != 0 || threadIdx.x >= lines) return;
  const char* line =
      scratch + kEpochTotals + kEpochTotalStride * (epoch & 1u) + 128 * (first + threadIdx.x);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
}

// float32 sums without a shuffle tree. The warp's values on one fixed-point grid: each lane's
// float rounded to kGuard bits below the warp's largest exponent (REDUX.MAX), the 32 integers
// added with one REDUX.SUM (|sum| < 2^31). The sum is sum * 2^exp exactly; the rounding of each
// lane depends only on the warp's values, never on an order, so the result has the same bits
// on every run. Two dependent REDUX against the tree's five dependent shuffle + add steps (the
// float single pass lost 0.1-0.2 us to them against int32's REDUX, ncu on the H200).
// Everything that does not need the warp's maximum is done before it arrives, so only an add,
// two shifts and the second REDUX follow it. NaN and infinities are not added: each lane's
// kind is counted (a vote, then a REDUX only in a warp that holds one) and the counts go to the
// special word.
// REDUX on sm_80+; before, the same integer max and sums with a butterfly of shuffles (integer
// adds: the same result in any order).
__device__ __forceinline__ unsigned warp_max_u32(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(kFullMask, v);
#else
#pragma unroll
  for (int o = kWarp / 2; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(kFullMask, v, o));
  return v;
#endif
}
__device__ __forceinline__ unsigned warp_or_u32(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_or_sync(kFullMask, v);
#else
#pragma unroll
  for (int o = kWarp / 2; o > 0; o >>= 1) v |= __shfl_xor_sync(kFullMask, v, o);
  return v;
#endif
}
__device__ __forceinline__ int warp_add_i32(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kFullMask, v);
#else
#pragma unroll
  for (int o = kWarp / 2; o > 0; o >>= 1) v += __shfl_xor_sync(kFullMask, v, o);
  return v;
#endif
}

// v >> d, arithmetic, with shifts of 32 and more giving 0 or -1 (PTX clamps the amount).
__device__ __forceinline__ int shift_right_clamped(int v, unsigned d) {
  int r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(d));
  return r;
}

inline constexpr int kGuard = 2;
// A lane's special value as counts in 10-bit fields (32 lanes fit): NaN, +inf, -inf.
inline constexpr unsigned kNanCode = 1u, kPosInfCode = 1u << 10, kNegInfCode = 1u << 20;
struct FixedSum {
  int sum;           // the finite lanes' value is sum * 2^exp
  int exp;           // >= -152 + 3: every grid is at least as fine as window 0's 2^-149
  unsigned special;  // the warp's counts of NaN, +inf and -inf (k*Code fields)
};

// Every lane gets the sum (warp-collective).
__device__ __forceinline__ FixedSum warp_sum_fixed(float v) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const bool special = e == 0xffu, negative = bits >> 31;
  const unsigned eff = special || e == 0 ? 1u : e;  // subnormals: exponent 1
  // Twice the lane's signed mantissa with its guard bits: rounding to nearest after the shift.
  const int m = static_cast<int>(((e ? 0x800000u : 0u) | mant) << (kGuard + 1));
  const int twice = special ? 0 : (negative ? -m : m);
  const unsigned code = special ? (mant ? kNanCode : (negative ? kNegInfCode : kPosInfCode)) : 0u;
  // top >= 3 puts sums of subnormals on 2^-149 exactly (no grid below window 0's).
  const unsigned top = max(warp_max_u32(eff), 3u);
  // Counted only where the warp holds one (a vote, not a third REDUX in every warp: each REDUX
  // a warp issues costs int32 0.1 us at 2^17..2^20 on the H200).
  const unsigned specials = __any_sync(kFullMask, code != 0)
                                ? static_cast<unsigned>(warp_add_i32(static_cast<int>(code)))
                                : 0u;
  const int a = (shift_right_clamped(twice, top - eff) + 1) >> 1;  // nearest, ties up
  return {warp_add_i32(a), static_cast<int>(top) - 150 - kGuard, specials};
}

// The special word's fields (16 bits each: NaN, +inf, -inf) from a warp's counts: one per kind
// the warp holds, so that 16384 slots fit (the reader asks only whether a field is nonzero).
__device__ __forceinline__ unsigned long long special_word_entry(unsigned special) {
  return static_cast<unsigned long long>((special & 0x3ffu) != 0) |
         static_cast<unsigned long long>((special & (0x3ffu << 10)) != 0) << 16 |
         static_cast<unsigned long long>((special >> 20) != 0) << 32;
}

// A fixed-point sum as its window and signed entry (the windows of the top of the file):
// sum * 2^exp with q = exp + 149 >= 0 is sum << (q % 8) in window q / 8.
__device__ __forceinline__ long long fixed_window_entry(FixedSum f, int* word) {
  const int q = f.exp + 149;
  *word = q >> 3;
  return static_cast<long long>(f.sum) << (q & 7);  // |sum| < 2^31: below 2^38
}

// The warp's float sum as a window entry and special-word entry (warp-collective; every lane
// gets them).
__device__ __forceinline__ long long warp_window_entry(float v, int* word,
                                                       unsigned long long* special) {
  const FixedSum f = warp_sum_fixed(v);
  *special = special_word_entry(f.special);
  return fixed_window_entry(f, word);
}

// Called by lane 0 of the slot's leading warp with the accumulator word to add to and what to
// add (int32: word kEpochInt32Word and the slot's sum; float32: the window and entry, and the
// special word's entry): RED into accumulator epoch % 2, no value comes back.
__device__ __forceinline__ void epoch_hand_on(int word, long long add, unsigned long long special,
                                              char* scratch, unsigned epoch) {
  unsigned long long* total = epoch_total(scratch, epoch);
  if (add != 0) atomicAdd(total + word, static_cast<unsigned long long>(add));
  if (special != 0) atomicAdd(total + kEpochWindows, special);
}

// A block slot's float32 hand-on (the whole block, converged; warp 0 goes on for the block).
// Each warp's fixed-point sum is already an exact entry of the accumulator's window of its grid,
// so after the barrier warp 0 adds its warps' entries as integers, without a maximum to find or
// a second rounding: two REDUX on the 24-bit halves, with a REDUX.OR of one bit per window
// beside them to learn whether the block's entries share one window (they do unless the block
// holds values whose grids lie 8 binades apart, or straddle a window's edge). The same one
// dependent step after the barrier as int32's block sum; the old path rounded each warp sum to
// a float and put the block's floats on a grid again (two more dependent REDUX, 0.1 us on the
// H200 per wave of blocks). The block's sum is exact: the sum of its warps' fixed-point sums,
// whatever order anything arrives in. Blocks whose entries span windows add one entry per warp.
struct WarpEntry {
  long long entry;  // the warp's fixed-point sum as an entry of window `word`
  unsigned word, special;
};
template <int kWarps>
__device__ __forceinline__ void block_window_hand_on(float v, char* scratch, unsigned epoch) {
  __shared__ WarpEntry warp_sums[kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  const FixedSum f = warp_sum_fixed(v);
  int word = 0;
  const long long entry = fixed_window_entry(f, &word);
  if (lane == 0) warp_sums[threadIdx.x / kWarp] = {entry, unsigned(word), f.special};
  __syncthreads();
  if (threadIdx.x >= kWarp) return;
  const WarpEntry w = lane < unsigned(kWarps) ? warp_sums[lane] : WarpEntry{0, 0, 0};
  const unsigned windows = warp_or_u32(w.entry != 0 ? 1u << w.word : 0u);
  // |entry| < 2^38: the low 24 bits of 32 entries add below 2^29, the high 14 (signed) too.
  const long long sum =
      static_cast<long long>(warp_add_i32(static_cast<int>(w.entry & 0xffffff))) +
      (static_cast<long long>(warp_add_i32(static_cast<int>(w.entry >> 24))) << 24);
  const unsigned long long special =
      __any_sync(kFullMask, w.special != 0) ? special_word_entry(warp_or_u32(w.special)) : 0ull;
  if (__popc(windows) <= 1) {
    if (lane == 0) epoch_hand_on(windows ? __ffs(windows) - 1 : 0, sum, special, scratch, epoch);
    return;
  }
  if (w.entry != 0)
    atomicAdd(epoch_total(scratch, epoch) + w.word, static_cast<unsigned long long>(w.entry));
  if (lane == 0) epoch_hand_on(0, 0, special, scratch, epoch);
}

}  // namespace rl::kernels::modern
