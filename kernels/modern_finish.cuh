// The finish of the one-launch kernels (modern_single_pass.cu, modern_cluster.cu; segmented_*.cu:
// one per split row, one per column of int32 slabs). Every contributor of a sum (a "slot": a warp,
// a block, a cluster, a slab, one kind for the whole grid) hands its sum on with integer atomics,
// and the slot that counts last writes the total. Integer additions are exact, so the total has the
// same bits whatever order the slots arrive in: float32 as well as int32 is deterministic, with no
// partials array, no fence and no second pass over partials.
//
//  int32, the counted word: the slot adds (1 << 48) + its sum to one 64-bit word; the high 16 bits
//    count the slots, the low 48 bits add their sums (inputs are in [0, 255], so any total of up
//    to 2^40 elements fits). The slot whose atomicAdd returns the count slots - 1 holds the total
//    in the returned word plus its own; it writes it and puts the word back to 0.
//  float32, the counted exponent windows: a slot's float sum s = +-m * 2^E (m < 2^24) is the
//    integer m << (q % 8), q = E + 149, placed in window q / 8 (32 windows cover every finite
//    float; a 33rd word counts NaN, +inf and -inf). A window word is count (bits 48..63) + the
//    sum of its entries, each biased by 2^31 so it is never negative (bits 0..47: 16384 entries
//    below 2^32 fit). The slot adds its entry to its window and takes a ticket from a counter,
//    both atomics returning, both in flight at once (one round trip, as int32's word). The slot
//    with the last ticket whose window already counted every other slot holds the whole total in
//    that one word (the usual case: every slot's sum within one window): it converts it and
//    writes it. Otherwise its warp reads the 33 words until their counts add up to every slot
//    (an add may still be on its way), adds the windows as doubles in a fixed order and rounds
//    once to float. Both ways give the same bits (a lone window is the same double either way),
//    and the result is the slot sums' exact total, rounded: never worse than adding in order.
//    Measured on the H200: every slot's warp reading the windows instead makes those reads queue
//    behind every slot's atomics, 1.2-1.4x the read floor at 2^16..2^20 against 1.15-1.25x this
//    way.
//
// Every slot and the windows it may read sit in a few scratch lines: block 0 asks L2 for them
// at the start (prefetch_finish_lines), so that when the caches were flushed (cold-L2 timing,
// ncu) the finish's first atomics do not wait on DRAM.
//
// Scratch (zeroed once when it is allocated; the last slot zeroes it again): the counted word
// or the ticket counter at offset 0, the windows at kWindowsOffset.
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include "modern_common.cuh"

namespace rl::kernels::modern {

inline constexpr int kCountShift = 48;
inline constexpr unsigned long long kSumMask = (1ull << kCountShift) - 1;
// The int32 sum field holds any total of the input contract (values in [0, 255]) up to 2^40
// elements (255 * 2^40 < 2^48).
inline constexpr std::size_t kMaxInt32Elements = std::size_t(1) << 40;
// At most this many slots (the count fields are 16 bits; the window sums take 16384 entries).
inline constexpr unsigned kMaxSlots = 16384;
inline constexpr std::size_t kWindowsOffset = 256;
inline constexpr int kWindowWords = 33;  // 32 windows + NaN/inf
inline constexpr std::size_t kFinishScratchBytes = kWindowsOffset + kWindowWords * 8;

// int32: what a slot adds to the counted word: one count and its sum.
__device__ __forceinline__ unsigned long long counted_entry(long long slot_sum) {
  return (1ull << kCountShift) + static_cast<unsigned long long>(slot_sum);
}

// int32: after the slot's atomicAdd of `mine` returned `before`, the slot that counted last
// writes the total.
__device__ __forceinline__ void finish_counted(unsigned long long before, unsigned long long mine,
                                               long long* result, unsigned long long* word,
                                               unsigned slots) {
  if ((before >> kCountShift) == slots - 1) {
    *result = static_cast<long long>((before + mine) & kSumMask);
    *word = 0;  // every slot has counted; the next launch on the stream sees 0
  }
}

// int32: called by the slot's one thread.
__device__ __forceinline__ void hand_on_counted(long long slot_sum, long long* result,
                                                unsigned long long* word, unsigned slots) {
  const unsigned long long mine = counted_entry(slot_sum);
  finish_counted(atomicAdd(word, mine), mine, result, word, slots);
}

// The window word and entry of a float (see the top of the file).
__device__ __forceinline__ unsigned long long window_entry(float s, int* word) {
  const unsigned bits = __float_as_uint(s);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  if (e == 0xffu) {  // NaN: field 0, +inf: field 1, -inf: field 2 of the last word
    *word = kWindowWords - 1;
    const int field = mant ? 0 : ((bits >> 31) ? 2 : 1);
    return (1ull << kCountShift) + (1ull << (16 * field));
  }
  const unsigned q = (e ? e : 1u) - 1u;  // subnormals share the lowest exponent
  const long long m = static_cast<long long>((e ? 0x800000u : 0u) | mant) << (q & 7u);
  *word = static_cast<int>(q >> 3);
  return (1ull << kCountShift) +
         static_cast<unsigned long long>((bits >> 31 ? -m : m) + (1ll << 31));
}

__device__ __forceinline__ unsigned long long load_word(unsigned long long* w) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*w).load(
      cuda::memory_order_relaxed);
}

// 2^k for k in [-149, 99], exactly, without a library call.
__device__ __forceinline__ double pow2(int k) {
  return __longlong_as_double(static_cast<long long>(1023 + k) << 52);
}

// The sum of a per-lane count over the warp: REDUX on sm_80+, shuffles before.
__device__ __forceinline__ unsigned warp_count(unsigned c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kFullMask, c);
#else
#pragma unroll
  for (int o = kWarp / 2; o > 0; o >>= 1) c += __shfl_xor_sync(kFullMask, c, o);
  return c;
#endif
}

// A window word's exact total as a double: its biased entries' sum less the biases, times the
// window's scale. Exact for one window (48 bits < 53).
__device__ __forceinline__ double window_value(unsigned long long word, int window) {
  const long long count = static_cast<long long>(word >> kCountShift);
  const long long sum = static_cast<long long>(word & kSumMask) - (count << 31);
  return static_cast<double>(sum) * pow2(8 * window - 149);
}

// The last slot's slow way (its slot sums span several windows, or an add was still on its way):
// the whole warp reads the windows until every slot has counted, adds them in a fixed tree and
// writes the total, NaN or infinity.
__device__ __forceinline__ void finish_from_windows(float* result, unsigned long long* words,
                                                    unsigned* counter, unsigned slots) {
  const unsigned lane = threadIdx.x % kWarp;
  unsigned long long mine = load_word(words + lane), special = load_word(words + kWindowWords - 1);
  for (unsigned tries = 0;; ++tries) {
    const unsigned counted = warp_count(static_cast<unsigned>(mine >> kCountShift)) +
                             static_cast<unsigned>(special >> kCountShift);
    if (counted == slots) break;
    // More entries than slots: the scratch held another launch's entries. Say so with a NaN
    // (and clean up) rather than a wrong number; a count that never arrives is a fault.
    if (counted > slots) {
      special = 1;
      break;
    }
    if (tries > (1u << 24)) __trap();
    mine = load_word(words + lane);
    special = load_word(words + kWindowWords - 1);
  }
  const double v = warp_sum_shfl(window_value(mine, static_cast<int>(lane)));  // a fixed tree
  words[lane] = 0;
  if (lane == 0) {
    const unsigned nan = special & 0xffffu, pinf = (special >> 16) & 0xffffu,
                   ninf = (special >> 32) & 0xffffu;
    float total = static_cast<float>(v);
    if (nan || (pinf && ninf))
      total = __int_as_float(0x7fc00000);
    else if (pinf)
      total = __int_as_float(0x7f800000);
    else if (ninf)
      total = __int_as_float(0xff800000);
    *result = total;
    words[kWindowWords - 1] = 0;
    *counter = 0;
  }
}

// float32: called by a whole warp; `slot_sum` is read from lane 0.
__device__ __forceinline__ void hand_on_windows(float slot_sum, float* result,
                                                unsigned long long* words, unsigned* counter,
                                                unsigned slots) {
  unsigned ticket = 0;
  bool written = false;
  if (threadIdx.x % kWarp == 0) {
    int w = 0;
    const unsigned long long entry = window_entry(slot_sum, &w);
    const unsigned long long before = atomicAdd(words + w, entry);
    ticket = atomicAdd(counter, 1u);
    if (ticket == slots - 1 && w != kWindowWords - 1 && (before >> kCountShift) == slots - 1) {
      *result = static_cast<float>(window_value(before + entry, w));
      words[w] = 0;  // every slot has counted in this window: the others are all 0
      *counter = 0;
      written = true;
    }
  }
  if (__shfl_sync(kFullMask, ticket, 0) != slots - 1 || __shfl_sync(kFullMask, written, 0)) return;
  finish_from_windows(result, words, counter, slots);
}

// Block 0 asks L2 for the finish's scratch lines (the counted word or ticket at offset 0; for
// float32 the windows after kWindowsOffset too) while the tiles load; a hint, no ordering.
__device__ __forceinline__ void prefetch_finish_lines(const char* scratch, bool windows) {
  constexpr unsigned kWindowLines = (kFinishScratchBytes - kWindowsOffset + 127) / 128;
  if (blockIdx.x != 0 || threadIdx.x > (windows ? kWindowLines : 0u)) return;
  const char* line =
      threadIdx.x == 0 ? scratch : scratch + kWindowsOffset + 128 * (threadIdx.x - 1);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
}

}  // namespace rl::kernels::modern
