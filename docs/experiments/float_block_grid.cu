// Experiment behind issue 17 (not part of the build): where float32's epoch pass loses its time
// against int32's where one wave holds the grid (2^16..2^22), and four ways to shorten it.
// Sections 5.6-5.9 of docs/benchmarks.md left float32 0.03-0.22 us behind int32 there; its
// warp sum finds the warp's largest exponent (REDUX.MAX) before the lanes can be put on a
// fixed-point grid and added (REDUX.SUM), and a block adds its warps' window entries after its
// barrier (REDUX.OR of their windows beside two REDUX.SUM).
// Candidates (per-warp slots up to 512 warps in all of them, as the product):
//   int            the product's int32 epoch pass (kernels/modern_epoch.cu)
//   fx             the product's float32 (at a577b3b; called fx_old in runs 4 and 5)
//   ablations, each the int32 kernel with one piece of float32's:
//   fx_as_int      float32 data and float thread sums, each thread's sum converted to a 64-bit
//                  integer and the rest int32's (exact for the integer-valued inputs only)
//   int_wide       int32 with float32's scratch footprint (six lines prefetched, 33 words zeroed)
//   int_w16        int32 adding into word 16, where float32's sums of these inputs land
//   candidates for the product, each deterministic (the rounding depends only on the data):
//   fx_grid        a grid per block from a sample: every thread loads the block's first 16 bytes
//                  first; each lane a 43-bit integer on 2^(e - 150 - kSlack) (e: the sample's
//                  largest biased exponent), two independent REDUX as int32; a block adds its
//                  warps' sums with two more after its barrier; a lane too large for the grid adds
//                  its own exact window entry (run 1: kSlack 4, entries split at 40 bits; runs 2+:
//                  kSlack 0, split at 48)
//   fx_grid_const  fx_grid without the sample: the grid 2^-16 (right for these inputs only)
//   fx_f2i         the product's warp sum in fewer instructions (REDUX.MAX of the magnitudes, one
//                  multiply by a power of two, F2I; called fx in runs 4 and 5)
//   fx_first       the grid from the warp's largest first-loaded value, REDUX.MAX while the rest
//                  load; each lane's sum a 64-bit integer (multiply, F2I), two independent REDUX
// Modes: `check` (every candidate against a double sum and the same bits over 30 runs; int32
// exactly; VALUES=wide for exponents spread over 40 binades), `profile FILE` (3 launches per
// shape, size and candidate, and the read floor's shapes), `ab FILE` (int, fx_as_int, fx, fx_f2i,
// fx_first at four fixed shapes, 15 rounds with the candidates interleaved; run 5 had fx_grid_const
// and the product under the names of its time), each for
//   ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/single_pass_shapes.py (profile) or ab_table.py (ab) FILE ncu.csv. Runs,
// files and what each showed: docs/data/h200-float-block-grid-2026-12-03/README.md. The harness
// is float_tree_slots.cu's.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_block_grid.cu kernels/epoch_total.cpp -o fbg
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "modern_epoch.cuh"
#include "modern_finish.cuh"
#include "modern_tiles.cuh"

using namespace rl::kernels;
using namespace rl::kernels::modern;

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kInt = 0, kFx = 1, kFxGrid = 2, kFxAsInt = 3, kIntWide = 4, kIntW16 = 5,
              kFxGridConst = 6, kFxF2i = 7, kFxFirst = 8, kFxVote = 9, kFxFirstVote = 10,
              kCands = 11;
const char* const kNames[] = {"int",      "fx",      "fx_grid",       "fx_as_int",
                              "int_wide", "int_w16", "fx_grid_const", "fx_f2i",
                              "fx_first", "fx_vote", "fx_first_vote"};

// Candidates whose total is an int32-style word (fx_as_int reads float32 data; int_w16 adds
// into word 16, where float32's sums of these inputs land, instead of word 0).
__host__ __device__ constexpr bool is_int(int f) {
  return f == kInt || f == kFxAsInt || f == kIntWide || f == kIntW16;
}
__host__ __device__ constexpr bool reads_float(int f) {
  return f == kFx || f == kFxGrid || f == kFxAsInt || f == kFxGridConst || f == kFxF2i ||
         f == kFxFirst || f == kFxVote || f == kFxFirstVote;
}

constexpr int kSlack = 0;     // the grid lies 24 + kSlack bits below the sample's largest bit
constexpr int kUpShift = 19;  // a lane fits while its value is below 2^(24 + kUpShift) grid steps
constexpr int kEntrySplit = 48;  // a slot's entry: the low 48 bits in its window, the rest 6 up
constexpr int kTopGrid = 8 * (kEpochWindows - 1 - kEntrySplit / 8) - 149 + 7;  // high part <= 31

__device__ __forceinline__ unsigned biased_exponent(float f) {
  return (__float_as_uint(f) >> 23) & 0xffu;
}

// The block's sample: its first four elements, one 16-byte load of the same address in every
// thread, issued before the tile's loads so that it arrives with them.
template <int B, int U>
__device__ __forceinline__ float4 block_sample(const float* __restrict__ x, std::size_t n) {
  const std::size_t nv = n / 4;
  if (nv > 0)
    return __ldg(reinterpret_cast<const float4*>(x) + min(std::size_t(blockIdx.x) * B * U, nv - 1));
  return make_float4(__ldg(x), 0.f, 0.f, 0.f);
}
// The block's grid exponent from its sample. `after` (the thread's tile sum) only orders the
// work: without it the compiler computes the exponents before the tile's loads are issued, and
// the loads wait for the sample.
__device__ __forceinline__ int sample_grid(float4 s, float after) {
  asm volatile("" : "+f"(s.x), "+f"(s.y), "+f"(s.z), "+f"(s.w) : "f"(after));
  const unsigned e = max(max(biased_exponent(s.x), biased_exponent(s.y)),
                         max(biased_exponent(s.z), biased_exponent(s.w)));
  return min(max(int(e) - 150 - kSlack, -149), kTopGrid);
}

struct GridLane {
  int lo, hi;     // the lane's value on the grid: hi * 2^24 + lo, |lo| < 2^24, |hi| < 2^19
  unsigned code;  // NaN / inf kind (k*Code)
  bool misfit;    // finite, too large for the grid: adds its own window entry
};
__device__ __forceinline__ GridLane on_grid(float v, int grid) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const bool special = e == 0xffu, negative = bits >> 31;
  const unsigned m = (e ? 0x800000u : 0u) | mant;
  const int sh = int(e ? e : 1u) - 150 - grid;  // v = m * 2^sh grid steps
  const unsigned up = min(unsigned(max(sh, 0)), 24u), down = min(unsigned(max(-sh - 1, 0)), 31u);
  unsigned lo = sh >= 0 ? (m << up) & 0xffffffu : ((m >> down) + 1u) >> 1;  // nearest, ties away
  unsigned hi = sh >= 0 ? m >> (24u - up) : 0u;
  const bool misfit = !special && sh > kUpShift;
  if (special || misfit) lo = hi = 0;
  const unsigned code = special ? (mant ? kNanCode : (negative ? kNegInfCode : kPosInfCode)) : 0u;
  return {negative ? -int(lo) : int(lo), negative ? -int(hi) : int(hi), code, misfit};
}

// Two independent REDUX: the sum of the lanes' hi * 2^24 + lo (|sum| < 2^48).
__device__ __forceinline__ long long warp_sum_split(int lo, int hi) {
  return static_cast<long long>(__reduce_add_sync(kFullMask, lo)) +
         (static_cast<long long>(__reduce_add_sync(kFullMask, hi)) << 24);
}
// The same for a signed 64-bit value below 2^48 (warp 0's sum of its block's warp sums).
__device__ __forceinline__ long long warp_sum_wide(long long v) {
  return warp_sum_split(int(v & 0xffffff), int(v >> 24));
}

// A lane's own exact window entry (a misfit).
__device__ __forceinline__ void add_lane_entry(float v, char* scratch, unsigned epoch) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu;
  const int m = static_cast<int>((e ? 0x800000u : 0u) | (bits & 0x7fffffu));
  int word = 0;
  const long long entry =
      fixed_window_entry({bits >> 31 ? -m : m, int(e ? e : 1u) - 150, 0u}, &word);
  atomicAdd(epoch_total(scratch, epoch) + word, static_cast<unsigned long long>(entry));
}

// The slot's sum on the grid as its window entry, the high part kEntrySplit / 8 windows up when
// it is wider than kEntrySplit bits; then the product's hand-on (whole warp, lane 0 the leader with
// `began`).
__device__ __forceinline__ void grid_hand_on(long long sum, int grid, unsigned long long special,
                                             char* scratch, unsigned long long began,
                                             unsigned slots) {
  const int q = grid + 149;
  const long long entry = sum << (q & 7);  // |sum| < 2^53: below 2^60
  const long long low = entry & ((1ll << kEntrySplit) - 1), high = entry >> kEntrySplit;
  if (high != 0 && threadIdx.x % kWarp == 0)
    atomicAdd(epoch_total(scratch, unsigned(began >> 32)) + (q >> 3) + kEntrySplit / 8,
              static_cast<unsigned long long>(high));
  epoch_hand_on(q >> 3, low, special, scratch, began, slots, kEpochTotalWords);
}

// fx_grid: the product's epoch pass with the block's grid. kConst: no sample, the grid 2^-16
// (the sample's grid for most blocks of these inputs; an ablation: right for them only).
template <int B, int U, bool kConst>
__global__ void __launch_bounds__(B)
    exp_grid(const float* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  constexpr int kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  epoch_prefetch(scratch, true);
  unsigned long long began = 0;
  if (per_warp ? lane == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  const float4 sample = kConst ? make_float4(128.f, 0.f, 0.f, 0.f) : block_sample<B, U>(x, n);
  const float v = tile_thread_sum<float, B, U>(x, n);
  const int grid = sample_grid(sample, v);
  const GridLane g = on_grid(v, grid);
  const long long sum = warp_sum_split(g.lo, g.hi);
  const unsigned specials = __any_sync(kFullMask, g.code != 0)
                                ? static_cast<unsigned>(warp_add_i32(static_cast<int>(g.code)))
                                : 0u;
  if (per_warp) {
    grid_hand_on(sum, grid, special_word_entry(specials), scratch, began, warp_slots);
    if (__any_sync(kFullMask, g.misfit)) {
      const unsigned epoch = static_cast<unsigned>(__shfl_sync(kFullMask, began, 0) >> 32);
      if (g.misfit) add_lane_entry(v, scratch, epoch);
    }
    return;
  }
  __shared__ long long warp_sums[kWarp];
  __shared__ unsigned warp_specials[kWarp];
  __shared__ unsigned block_epoch;
  if (lane == 0) {
    warp_sums[warp] = sum;
    warp_specials[warp] = specials;
  }
  const bool misfits = __syncthreads_or(g.misfit);
  if (warp == 0) {
    const long long w = lane < unsigned(kWarps) ? warp_sums[lane] : 0;
    const unsigned ws = lane < unsigned(kWarps) ? warp_specials[lane] : 0u;
    const unsigned long long special =
        __any_sync(kFullMask, ws != 0) ? special_word_entry(warp_or_u32(ws)) : 0ull;
    grid_hand_on(warp_sum_wide(w), grid, special, scratch, began, gridDim.x);
  }
  if (!misfits) return;
  if (threadIdx.x == 0) block_epoch = static_cast<unsigned>(began >> 32);
  __syncthreads();
  if (g.misfit) add_lane_entry(v, scratch, block_epoch);
}

// Ablations of the int32 kernel: F = kFxAsInt reads the float32 data, adds each thread's floats
// as floats, then converts the thread's sum to an integer (exact for the integer-valued inputs
// only) and goes on as int32; F = kIntWide is int32 with float32's scratch footprint (the
// prefetch of six lines, the last slot zeroing 33 words).
template <int B, int U, int F>
__global__ void __launch_bounds__(B)
    exp_ablate(const void* __restrict__ xp, std::size_t n, char* __restrict__ scratch) {
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, F != kFxAsInt);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  long long sum;
  if constexpr (F == kFxAsInt)
    sum = static_cast<long long>(tile_thread_sum<float, B, U>(static_cast<const float*>(xp), n));
  else
    sum = tile_thread_sum<int32_t, B, U>(static_cast<const int32_t*>(xp), n);
  if (!per_warp) {
    sum = block_total(sum, kWarps);
    if (threadIdx.x >= kWarp) return;
  }
  const long long add = per_warp ? warp_total(sum) : sum;
  epoch_hand_on(F == kIntW16 ? 16 : 0, add, 0, scratch, began, per_warp ? warp_slots : gridDim.x,
                F == kFxAsInt ? 1u : unsigned(kEpochTotalWords));
}

// fx_f2i (runs 4 and 5, where it was called fx; fx_old there is the product): the warp sum with
// fewer instructions. REDUX.MAX of the lanes' magnitudes gives the largest exponent and says
// whether a NaN or an infinity is there; each lane goes onto the grid as one multiply by a power
// of two and one conversion (F2I, ties to even); NaN/inf and tiny warps apart.
// The warp's NaN and infinities counted by kind (warp-collective; a warp that holds one).
__device__ __forceinline__ unsigned warp_special_counts_f2i(unsigned bits) {
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const unsigned code =
      e != 0xffu ? 0u : (mant ? kNanCode : (bits >> 31 ? kNegInfCode : kPosInfCode));
  return static_cast<unsigned>(warp_add_i32(static_cast<int>(code)));
}

// The lanes' values on the grid 2^(top - 150 - kGuard), nearest (ties to even): v times a power
// of two is exact wherever it can round to a nonzero integer (only products below 2^-126 are
// rounded, and they round to 0 either way). `lift`: 2^64 for tops below 25, where the power is
// no float.
__device__ __forceinline__ int on_warp_grid_f2i(float v, unsigned top, bool lift) {
  const float lifted = lift ? v * 0x1p64f : v;
  const float scale = __uint_as_float((127u + 150u + kGuard - top - (lift ? 64u : 0u)) << 23);
  return __float2int_rn(lifted * scale);  // |result| < 2^26: 32 of them add below 2^31
}

// A warp that holds a NaN or an infinity (top 255: its kinds counted, the grid from its finite
// lanes), or only values below 2^-101 (top < 25). Rare, and apart so that the common path
// stays short.
__device__ __noinline__ FixedSum warp_sum_fixed_rare_f2i(float v, unsigned top) {
  unsigned specials = 0;
  if (top == 0xffu) {
    specials = warp_special_counts_f2i(__float_as_uint(v));
    const unsigned magnitude = __float_as_uint(v) & 0x7fffffffu;
    const bool special = magnitude >= 0x7f800000u;
    if (special) v = 0.0f;
    top = warp_max_u32(special ? 0u : magnitude) >> 23;
  }
  top = max(top, 3u);  // sums of subnormals on 2^-149 exactly (no grid below window 0's)
  const int a = on_warp_grid_f2i(v, top, top < 25u);
  return {warp_add_i32(a), static_cast<int>(top) - 150 - kGuard, specials};
}

// Every lane gets the sum (warp-collective).
__device__ __forceinline__ FixedSum warp_sum_fixed_f2i(float v) {
  // The largest biased exponent of the warp: 0 for zeros and subnormals, 255 where a NaN or an
  // infinity is.
  const unsigned top = warp_max_u32(__float_as_uint(v) & 0x7fffffffu) >> 23;
  if (top - 25u > 254u - 25u) return warp_sum_fixed_rare_f2i(v, top);
  return {warp_add_i32(on_warp_grid_f2i(v, top, false)), static_cast<int>(top) - 150 - kGuard, 0u};
}

// A block slot's hand-on from its warps' window entries (the product's block_window_hand_on,
// kernels/modern_epoch.cuh, with the warp's entry computed by the caller). Entries below 2^43:
// the low 24 bits of 32 of them add below 2^29, the high 19 (signed) below 2^24.
// kVote (fx_vote, fx_first_vote): warp 0 asks with one vote whether every warp's entry is in
// its own window and no warp holds a NaN or an infinity, instead of a REDUX.OR of the windows
// beside a vote on the specials; only where not does it take the general path.
template <int kWarps, bool kVote = false>
__device__ __forceinline__ void block_entries_hand_on(long long entry, int word, unsigned special,
                                                      char* scratch, unsigned long long began,
                                                      unsigned slots) {
  __shared__ WarpEntry entries[kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  if (lane == 0) entries[threadIdx.x / kWarp] = {entry, unsigned(word), special};
  __syncthreads();
  if (threadIdx.x >= kWarp) return;
  const WarpEntry w = lane < unsigned(kWarps) ? entries[lane] : WarpEntry{0, 0, 0};
  if constexpr (kVote) {
    if (__all_sync(kFullMask, (w.word == unsigned(word) || w.entry == 0) && w.special == 0)) {
      const long long sum =
          static_cast<long long>(warp_add_i32(static_cast<int>(w.entry & 0xffffff))) +
          (static_cast<long long>(warp_add_i32(static_cast<int>(w.entry >> 24))) << 24);
      epoch_hand_on(word, sum, 0, scratch, began, slots, kEpochTotalWords);
      return;
    }
  }
  const unsigned windows = warp_or_u32(w.entry != 0 ? 1u << w.word : 0u);
  const long long sum =
      static_cast<long long>(warp_add_i32(static_cast<int>(w.entry & 0xffffff))) +
      (static_cast<long long>(warp_add_i32(static_cast<int>(w.entry >> 24))) << 24);
  const unsigned long long sp =
      __any_sync(kFullMask, w.special != 0) ? special_word_entry(warp_or_u32(w.special)) : 0ull;
  if (__popc(windows) <= 1) {
    epoch_hand_on(windows ? __ffs(windows) - 1 : 0, sum, sp, scratch, began, slots,
                  kEpochTotalWords);
    return;
  }
  const unsigned epoch = static_cast<unsigned>(__shfl_sync(kFullMask, began, 0) >> 32);
  if (w.entry != 0)
    atomicAdd(epoch_total(scratch, epoch) + w.word, static_cast<unsigned long long>(w.entry));
  epoch_hand_on(0, 0, sp, scratch, began, slots, kEpochTotalWords);
}

// fx_first (run 6): the grid known before the thread's sum is. The warp's largest exponent among
// the first vector each lane loads (REDUX.MAX as soon as that vector is in, while the rest load
// and add) sets a grid on a window's edge 0..7 bits below that value's last bit; each lane's sum
// goes onto it as a multiply by a power of two and one conversion to a 64-bit integer (F2I,
// ties to even), below 2^38 (2^7..2^14 times the first vector's largest), and the warp adds the
// 24-bit halves with two independent REDUX: after the thread's sum, int32's path and one
// multiply. The entry is the sum itself, in window (grid + 149) / 8. A warp with a lane that
// does not fit (too large, NaN, inf) or whose first values are tiny (below 2^-95) takes the
// product's warp sum instead. Deterministic: the grid and the rounding depend only on the data.
template <int B, int U>
__device__ __forceinline__ float tile_sum_first(const float* __restrict__ x, std::size_t n,
                                                unsigned* first_top) {
  const float4* __restrict__ xv = reinterpret_cast<const float4*>(x);
  constexpr std::size_t kTile = std::size_t(B) * U;
  const std::size_t nv = n / 4, full_tiles = nv / kTile;
  auto mag = [](float f) { return __float_as_uint(f) & 0x7fffffffu; };
  auto top4 = [&](float4 v) { return max(max(mag(v.x), mag(v.y)), max(mag(v.z), mag(v.w))); };
  float acc = 0.0f;
  std::size_t t = blockIdx.x;
  if (t < full_tiles) {  // the first tile, apart: its first vector gives the grid (uniform branch)
    const float4* p = xv + t * kTile + threadIdx.x;
    float4 v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = __ldg(p + k * B);
    *first_top = warp_max_u32(top4(v[0])) >> 23;
    float s = lanes_sum(v[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes_sum(v[k]);
    acc = s;
    for (t += gridDim.x; t < full_tiles; t += gridDim.x) {
      const float4* q = xv + t * kTile + threadIdx.x;
#pragma unroll
      for (int k = 0; k < U; ++k) v[k] = __ldg(q + k * B);
      float s2 = lanes_sum(v[0]);
#pragma unroll
      for (int k = 1; k < U; ++k) s2 += lanes_sum(v[k]);
      acc += s2;
    }
  } else {
    *first_top = 0;  // no full tile: the product's warp sum (small N's last blocks)
  }
  if (t == full_tiles) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const std::size_t i = full_tiles * kTile + threadIdx.x + std::size_t(k) * B;
      if (i < nv) acc += lanes_sum(__ldg(xv + i));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) acc += x[nv * 4 + threadIdx.x];
  return acc;
}

// The warp's sum as a window entry (warp-collective): the fast path above, else the product's.
__device__ __forceinline__ long long warp_entry_first(float v, unsigned first_top, int* word,
                                                      unsigned* special) {
  if (first_top - 32u <= 254u - 32u) {
    // grid 2^g, g + 149 = 8 * floor((first_top - 1) / 8): g <= first_top - 150 (the first
    // values' last bit), on a window's edge
    const int q = int((first_top - 1u) & ~7u);
    const float scale = __uint_as_float(unsigned(127 + 149 - q) << 23);  // 2^-g
    const long long a = __float2ll_rn(v * scale);
    const bool fits = (__float_as_uint(v) & 0x7fffffffu) < 0x7f800000u &&
                      static_cast<unsigned long long>(a + (1ll << 37)) < (1ull << 38);
    const long long sum =
        static_cast<long long>(__reduce_add_sync(kFullMask, int(a & 0xffffff))) +
        (static_cast<long long>(__reduce_add_sync(kFullMask, int(a >> 24))) << 24);
    if (__all_sync(kFullMask, fits)) {
      *word = q >> 3;
      *special = 0;
      return sum;
    }
  }
  const FixedSum f = warp_sum_fixed(v);
  *special = f.special;
  return fixed_window_entry(f, word);
}

template <int B, int U, bool kVote>
__global__ void __launch_bounds__(B)
    exp_first(const float* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  constexpr int kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, true);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  unsigned first_top = 0;
  const float v = tile_sum_first<B, U>(x, n, &first_top);
  int word = 0;
  unsigned special = 0;
  const long long entry = warp_entry_first(v, first_top, &word, &special);
  if (!per_warp) {
    block_entries_hand_on<kWarps, kVote>(entry, word, special, scratch, began, gridDim.x);
    return;
  }
  epoch_hand_on(word, entry, special_word_entry(special), scratch, began, warp_slots,
                kEpochTotalWords);
}

// The product's kernel (kernels/modern_epoch.cu at the commit of this file), int32 or float32;
// kF2i: float32 with fx_f2i's warp sum.
template <typename T, int B, int U, bool kF2i = false, bool kVote = false>
__global__ void __launch_bounds__(B)
    exp_epoch(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, !kInt32);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  A sum = tile_thread_sum<T, B, U>(x, n);
  int word = 0;
  long long add = 0;
  unsigned long long special = 0;
  if constexpr (kInt32) {
    if (!per_warp) {
      sum = block_total(sum, kWarps);
      if (threadIdx.x >= kWarp) return;
    }
    add = per_warp ? warp_total(sum) : sum;
  } else {
    if (!per_warp) {
      if constexpr (kF2i || kVote) {
        const FixedSum f = kF2i ? warp_sum_fixed_f2i(sum) : warp_sum_fixed(sum);
        const long long e = fixed_window_entry(f, &word);
        block_entries_hand_on<kWarps, kVote>(e, word, f.special, scratch, began, gridDim.x);
      } else {
        block_window_hand_on<kWarps>(sum, scratch, began, gridDim.x);
      }
      return;
    }
    const FixedSum f = kF2i ? warp_sum_fixed_f2i(sum) : warp_sum_fixed(sum);
    special = special_word_entry(f.special);
    add = fixed_window_entry(f, &word);
  }
  epoch_hand_on(word, add, special, scratch, began, per_warp ? warp_slots : gridDim.x,
                kInt32 ? 1u : unsigned(kEpochTotalWords));
}

template <int U>
__global__ void exp_floor(const int4* __restrict__ in, size_t vectors, int* sink, unsigned never) {
  unsigned acc = 0;
  const size_t tile = size_t(blockDim.x) * U, full = vectors / tile;
  size_t t = blockIdx.x;
  for (; t < full; t += gridDim.x) {
    const int4* p = in + t * tile + threadIdx.x;
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = __ldg(p + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < U; ++u) acc += unsigned(v[u].x) + v[u].y + v[u].z + v[u].w;
  }
  if (t == full)
    for (size_t i = full * tile + threadIdx.x; i < vectors; i += blockDim.x) {
      const int4 v = __ldg(in + i);
      acc += unsigned(v.x) + v.y + v.z + v.w;
    }
  if (acc == never) *sink = int(acc);
}

// As the app's inputs: integers in [0, 255]; float32 also with a spread of exponents (VALUES=wide)
// to exercise the rounding and the lanes too large for their block's grid.
__global__ void init_data(int* xi, float* xf, size_t n, bool wide) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    xi[i] = int(z & 255);
    xf[i] =
        wide ? ldexpf(float(z & 0xffffff) - 8388608.0f, int((z >> 24) % 40) - 20) : float(z & 255);
  }
}

// The int32-style total of a launch (word 16 for int_w16; kernels/epoch_total.cpp's reading).
long long int_total(const unsigned char* copy, int f) {
  if (f != kIntW16) return epoch_total_int32(copy);
  unsigned long long word = 0;
  std::memcpy(&word, copy + kEpochWordOffset, 8);
  long long w = 0;
  std::memcpy(
      &w, copy + kEpochTotals + kEpochTotalStride * ((unsigned(word >> 32) - 1u) & 1u) + 8 * 16, 8);
  return w;
}

struct Cand {
  int f, B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_epoch<int32_t, B, U>});
  g_cands.push_back({kFx, B, U, (const void*)exp_epoch<float, B, U>});
  g_cands.push_back({kFxF2i, B, U, (const void*)exp_epoch<float, B, U, true>});
  g_cands.push_back({kFxFirst, B, U, (const void*)exp_first<B, U, false>});
  g_cands.push_back({kFxVote, B, U, (const void*)exp_epoch<float, B, U, false, true>});
  g_cands.push_back({kFxFirstVote, B, U, (const void*)exp_first<B, U, true>});
  g_cands.push_back({kFxGrid, B, U, (const void*)exp_grid<B, U, false>});
  g_cands.push_back({kFxGridConst, B, U, (const void*)exp_grid<B, U, true>});
  g_cands.push_back({kIntW16, B, U, (const void*)exp_ablate<B, U, kIntW16>});
  g_cands.push_back({kFxAsInt, B, U, (const void*)exp_ablate<B, U, kFxAsInt>});
  g_cands.push_back({kIntWide, B, U, (const void*)exp_ablate<B, U, kIntWide>});
}
template <int B>
void add_block() {
  add_shape<B, 1>();
  add_shape<B, 2>();
  add_shape<B, 4>();
  add_shape<B, 8>();
}

unsigned grid_of(const Cand& c, size_t n) {
  const size_t nv = n / 4, tile = size_t(c.B) * c.U;
  const size_t tiles = std::max<size_t>((nv + tile - 1) / tile, 1);
  return unsigned(std::min<size_t>(tiles, kMaxSlots));
}

void launch(const Cand& c, const void* x, size_t n, void* scratch, cudaStream_t st) {
  void* args[] = {(void*)&x, (void*)&n, (void*)&scratch};
  CK(cudaLaunchKernel(c.fn, dim3(grid_of(c, n)), dim3(c.B), args, 0, st));
}
int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  add_block<128>();
  add_block<256>();
  add_block<512>();
  add_block<1024>();
  const size_t maxn = size_t(1) << 24;
  int *xi, *sink;
  float* xf;
  char* scratch;
  CK(cudaMalloc(&xi, maxn * 4));
  CK(cudaMalloc(&xf, maxn * 4));
  CK(cudaMalloc(&scratch, kEpochScratchBytes * kCands));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(scratch, 0, kEpochScratchBytes * kCands));
  const bool wide = std::getenv("VALUES") && std::string(std::getenv("VALUES")) == "wide";
  init_data<<<2048, 256>>>(xi, xf, maxn, wide);
  CK(cudaDeviceSynchronize());
  std::vector<float> hf(maxn);
  CK(cudaMemcpy(hf.data(), xf, maxn * 4, cudaMemcpyDeviceToHost));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  // each candidate its own scratch: their accumulators differ in width
  auto scratch_of = [&](const Cand& c) { return scratch + kEpochScratchBytes * c.f; };
  std::vector<size_t> sizes;
  for (int k = 16; k <= 24; ++k) sizes.push_back(size_t(1) << k);
  if (mode == "check") {
    int bad = 0, runs = 0;
    std::vector<size_t> all = sizes;
    for (size_t odd : {size_t(1), size_t(1000), size_t(65537), (size_t(1) << 20) + 13})
      all.push_back(odd);
    for (size_t n : all) {
      double want = 0, mag = 0;
      for (size_t i = 0; i < n; ++i) want += hf[i], mag += std::fabs(hf[i]);
      for (const Cand& c : g_cands) {
        unsigned first = 0;
        for (int r = 0; r < 30; ++r) {
          launch(c, reads_float(c.f) ? (const void*)xf : (const void*)xi, n, scratch_of(c), st);
          unsigned char copy[kEpochScratchBytes];
          CK(cudaMemcpyAsync(copy, scratch_of(c), kEpochScratchBytes, cudaMemcpyDeviceToHost, st));
          CK(cudaStreamSynchronize(st));
          ++runs;
          if (is_int(c.f)) {
            long long want_i = 0;
            for (size_t i = 0; i < n; ++i) want_i += int(hf[i]);
            if (!wide && int_total(copy, c.f) != want_i) {
              ++bad;
              std::printf("BAD %s B=%d U=%d n=%zu\n", kNames[c.f], c.B, c.U, n);
              break;
            }
            continue;
          }
          const float got = epoch_total_float32(copy);
          unsigned bits;
          std::memcpy(&bits, &got, 4);
          if (r == 0) first = bits;
          if (bits != first || std::fabs(got - want) > 1e-6 * mag + 1e-30) {
            ++bad;
            std::printf("BAD %s B=%d U=%d n=%zu got %.9g want %.9g\n", kNames[c.f], c.B, c.U, n,
                        got, want);
            break;
          }
        }
      }
    }
    std::printf("check (%s values): %d runs, %d wrong or nondeterministic\n",
                wide ? "wide" : "integer", runs, bad);
    return bad != 0;
  }
  if (mode == "ab") {  // A/B at fixed shapes: 15 rounds, the candidates interleaved in each
    FILE* log = std::fopen(argc > 2 ? argv[2] : "launches.csv", "w");
    std::fprintf(log, "idx,cand,B,U,C,type,n,grid\n");
    const int ab[] = {kInt, kFxAsInt, kFx, kFxFirst, kFxVote, kFxFirstVote};
    int idx = 0;
    for (size_t n : {size_t(1) << 16, size_t(1) << 18, size_t(1) << 20, size_t(1) << 22})
      for (int r = 0; r < 15; ++r)
        for (const Cand& c : g_cands) {
          const bool shape = (c.B == 256 && c.U == 2) || (c.B == 512 && c.U == 2) ||
                             (c.B == 1024 && c.U == 4) || (c.B == 256 && c.U == 4);
          if (!shape || std::find(std::begin(ab), std::end(ab), c.f) == std::end(ab)) continue;
          launch(c, reads_float(c.f) ? (const void*)xf : (const void*)xi, n, scratch_of(c), st);
          std::fprintf(log, "%d,%s,%d,%d,1,%d,%zu,%u\n", idx++, kNames[c.f], c.B, c.U,
                       reads_float(c.f) ? 1 : 0, n, grid_of(c, n));
        }
    CK(cudaStreamSynchronize(st));
    std::fclose(log);
    std::printf("ab: %d launches\n", idx);
    return 0;
  }
  FILE* log = std::fopen(argc > 2 ? argv[2] : "launches.csv", "w");
  std::fprintf(log, "idx,cand,B,U,C,type,n,grid\n");
  int idx = 0;
  const int reps = 3;
  const int floor_shapes[][2] = {{128, 1}, {256, 1}, {256, 4}, {512, 4}, {1024, 2}};
  for (size_t n : sizes) {
    for (const auto& s : floor_shapes) {
      const size_t vectors = n / 4, per = size_t(s[0]) * s[1];
      size_t g = std::min<size_t>((vectors + per - 1) / per, 16384);
      for (int r = 0; r < reps; ++r) {
        if (s[1] == 1)
          exp_floor<1><<<g, s[0], 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
        else if (s[1] == 2)
          exp_floor<2><<<g, s[0], 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
        else
          exp_floor<4><<<g, s[0], 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
        CK(cudaGetLastError());
        std::fprintf(log, "%d,floor,%d,%d,1,-1,%zu,%zu\n", idx++, s[0], s[1], n, g);
      }
    }
    for (const Cand& c : g_cands)
      for (int r = 0; r < reps; ++r) {
        launch(c, reads_float(c.f) ? (const void*)xf : (const void*)xi, n, scratch_of(c), st);
        std::fprintf(log, "%d,%s,%d,%d,1,%d,%zu,%u\n", idx++, kNames[c.f], c.B, c.U,
                     reads_float(c.f) ? 1 : 0, n, grid_of(c, n));
      }
    CK(cudaStreamSynchronize(st));
    std::fflush(log);
  }
  std::fclose(log);
  std::printf("profile: %d launches\n", idx);
  return 0;
}
