// Experiment behind issue 17 (not part of the build): which piece of float32's warp sum costs
// the 0.1-0.15 us it stays behind int32 where one wave holds the grid, measured where the
// differences are not lost in the run-to-run spread: under ncu with --cache-control none
// (data and code warm in L2; the same kernel's quartiles within 0.03 us, against 0.05-0.15 us
// with caches flushed, float_code_layout.cu run 1), then the one candidate with caches flushed.
// Candidates (per-warp slots up to 512 warps, block slots above, as the product):
//   int        the product's int32 epoch pass
//   fx         the product's float32 (warp: REDUX.MAX then REDUX.SUM; block: window entries)
//   ablations (each right for the app's integer-valued inputs only):
//   fx_nospec  fx without looking for NaN and infinities (no vote)
//   fx_ctop    fx with a constant grid instead of the warp's largest exponent (no REDUX.MAX)
//   fx_as_int  each thread's float sum converted to an integer (F2I), int32's warp sum (two
//              independent REDUX), the entry in window 18 (grid 2^0)
//   candidates (exact, deterministic for every input):
//   fx_shfl    each lane's float as its own exact window entry (m << (q % 8) in window q / 8, as
//              a lone float in the accumulator); one vote asks whether every nonzero lane shares
//              lane 0's window and none is NaN or infinite, and if so two independent REDUX.SUM
//              add the entries exactly (issued beside the vote); else the product's warp sum
//   fx_match   the same with MATCH.ALL on the lanes' windows instead of a shuffle and a vote
//   fx_lean    the product's bits with two steps fewer: NaN/inf found by the REDUX.MAX itself
//              (a lane's own biased exponent, 255 for them; such warps take a rare path that
//              counts them and takes the maximum again over the finite lanes), no vote
//   fx_lean_vote fx_lean, and a block's warp 0 asks with one vote whether every warp's entry
//              shares warp 0's window with no NaN/inf (then two REDUX.SUM), instead of a REDUX.OR
//              of the windows and a vote on the specials beside them
// Modes: `check`, `ab FILE` (ROUNDS=15) as float_code_layout.cu; for
//   ncu --clock-control none --cache-control none|all --csv --metrics gpu__time_duration.sum
//   -k regex:exp_ and docs/experiments/ab_table.py FILE ncu.csv.
// The inputs, the read floor, the launch list and the modes check, ab and profile are
// epoch_bench.cuh's.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_warp_ablate.cu kernels/epoch_total.cpp -o fwa
#include <cuda_runtime.h>

#include <type_traits>

#include "epoch_bench.cuh"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"
#include "modern_tiles.cuh"

using namespace rl::kernels;
using namespace rl::kernels::modern;
using namespace epoch_bench;

constexpr int kInt = 0, kFx = 1, kFxNoSpec = 2, kFxCtop = 3, kFxAsInt = 4, kFxShfl = 5,
              kFxMatch = 6, kFxLean = 7, kFxLeanVote = 8, kCands = 9;
const char* const kNames[] = {"int",     "fx",       "fx_nospec", "fx_ctop",     "fx_as_int",
                              "fx_shfl", "fx_match", "fx_lean",   "fx_lean_vote"};
__host__ __device__ constexpr bool reads_float(int f) {
  return f != kInt;
}

// The product's warp sum with pieces taken out (kSpec: look for NaN/inf; kTop: the warp's
// largest exponent, else a constant that fits the integer inputs).
template <bool kSpec, bool kTop>
__device__ __forceinline__ FixedSum warp_sum_ablated(float v) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const bool special = e == 0xffu, negative = bits >> 31;
  const unsigned eff = special || e == 0 ? 1u : e;
  const int m = static_cast<int>(((e ? 0x800000u : 0u) | mant) << (kGuard + 1));
  const int twice = special ? 0 : (negative ? -m : m);
  const unsigned code = special ? (mant ? kNanCode : (negative ? kNegInfCode : kPosInfCode)) : 0u;
  const unsigned top = kTop ? max(warp_max_u32(eff), 3u) : 141u;  // 2^14 > any lane here
  unsigned specials = 0;
  if constexpr (kSpec)
    specials = __any_sync(kFullMask, code != 0)
                   ? static_cast<unsigned>(warp_add_i32(static_cast<int>(code)))
                   : 0u;
  const int a = (shift_right_clamped(twice, top - eff) + 1) >> 1;
  return {warp_add_i32(a), static_cast<int>(top) - 150 - kGuard, specials};
}

// fx_shfl / fx_match: each lane's exact window entry; the warp adds them exactly when they share
// one window (else the product's warp sum, rounded to its grid: the choice depends only on the
// data, so the bits are the same on every run).
template <bool kMatch>
__device__ __forceinline__ long long warp_entry_shared_window(float v, int* word,
                                                              unsigned* special) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const unsigned q = (e ? e : 1u) - 1u;                                     // v = m * 2^(q - 149)
  const int m = static_cast<int>((e ? 0x800000u : 0u) | mant) << (q & 7u);  // below 2^31
  const int entry = bits >> 31 ? -m : m;
  const unsigned w = q >> 3;
  const int lo = entry & 0xffffff, hi = entry >> 24;  // 32 lanes: below 2^29 and 2^12
  const int slo = __reduce_add_sync(kFullMask, lo), shi = __reduce_add_sync(kFullMask, hi);
  bool shared;
  if constexpr (kMatch) {
    // NaN/inf and zeros get keys no other lane has (a zero lane then takes the general path)
    int all = 0;
    __match_all_sync(kFullMask, e == 0xffu ? 0x100u + threadIdx.x % kWarp : w, &all);
    shared = all;
  } else {
    const unsigned w0 = __shfl_sync(kFullMask, w, 0);
    shared = __all_sync(kFullMask, e != 0xffu && (w == w0 || (bits << 1) == 0));
  }
  if (shared) {
    *word = static_cast<int>(__shfl_sync(kFullMask, w, 0));
    *special = 0;
    return static_cast<long long>(slo) + (static_cast<long long>(shi) << 24);
  }
  const FixedSum f = warp_sum_fixed(v);
  *special = f.special;
  return fixed_window_entry(f, word);
}

// fx_lean's rare path: a warp that holds a NaN or an infinity (its maximum was 255). The same
// result as the product's warp_sum_fixed: specials counted by kind and left out of the sum, the
// grid from the finite lanes.
__device__ __noinline__ FixedSum warp_sum_fixed_specials(float v) {
  return warp_sum_fixed(v);
}

// fx_lean: the product's warp sum (the same bits) with the NaN/inf vote folded into REDUX.MAX.
__device__ __forceinline__ FixedSum warp_sum_lean(float v) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const bool negative = bits >> 31;
  const unsigned eff = e == 0 ? 1u : e;  // 255 for NaN/inf: the maximum says the warp has one
  const int m = static_cast<int>(((e ? 0x800000u : 0u) | mant) << (kGuard + 1));
  const int twice = negative ? -m : m;
  const unsigned top = max(warp_max_u32(eff), 3u);
  if (top == 0xffu) return warp_sum_fixed_specials(v);
  const int a = (shift_right_clamped(twice, top - eff) + 1) >> 1;  // nearest, ties up
  return {warp_add_i32(a), static_cast<int>(top) - 150 - kGuard, 0u};
}

// The warp's entry, word and special counts for candidate F (warp-collective).
template <int F>
__device__ __forceinline__ long long warp_entry(float v, int* word, unsigned* special) {
  if constexpr (F == kFx || F == kFxNoSpec || F == kFxCtop) {
    const FixedSum f = warp_sum_ablated<F != kFxNoSpec, F != kFxCtop>(v);
    *special = f.special;
    return fixed_window_entry(f, word);
  } else if constexpr (F == kFxLean || F == kFxLeanVote) {
    const FixedSum f = warp_sum_lean(v);
    *special = f.special;
    return fixed_window_entry(f, word);
  } else if constexpr (F == kFxAsInt) {
    const long long s = warp_total(static_cast<long long>(v));  // exact for integer sums
    *special = 0;
    *word = 149 >> 3;
    return s << (149 & 7);
  } else {
    return warp_entry_shared_window<F == kFxMatch>(v, word, special);
  }
}

// The product's block hand-on from its warps' window entries (block_window_hand_on with the
// warp's entry computed by the caller; float_block_grid.cu's block_entries_hand_on).
// kVote (fx_lean_vote): first one vote on "every warp in warp 0's window, no NaN/inf".
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

// The product's epoch pass (kernels/modern_epoch.cu), int32 for F = kInt, else float32 with
// candidate F's warp entry.
template <int F, int B, int U>
__global__ void __launch_bounds__(B)
    exp_epoch(const void* __restrict__ xp, std::size_t n, char* __restrict__ scratch) {
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, F != kInt);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  if constexpr (F == kInt) {
    long long sum = tile_thread_sum<int32_t, B, U>(static_cast<const int32_t*>(xp), n);
    if (!per_warp) {
      sum = block_total(sum, kWarps);
      if (threadIdx.x >= kWarp) return;
    }
    const long long add = per_warp ? warp_total(sum) : sum;
    epoch_hand_on(0, add, 0, scratch, began, per_warp ? warp_slots : gridDim.x, 1u);
  } else {
    const float sum = tile_thread_sum<float, B, U>(static_cast<const float*>(xp), n);
    int word = 0;
    unsigned special = 0;
    const long long entry = warp_entry<F>(sum, &word, &special);
    if (!per_warp) {
      block_entries_hand_on<kWarps, F == kFxLeanVote>(entry, word, special, scratch, began,
                                                      gridDim.x);
      return;
    }
    epoch_hand_on(word, entry, special_word_entry(special), scratch, began, warp_slots,
                  kEpochTotalWords);
  }
}

struct Cand {
  int f, B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_epoch<kInt, B, U>});
  g_cands.push_back({kFx, B, U, (const void*)exp_epoch<kFx, B, U>});
  g_cands.push_back({kFxNoSpec, B, U, (const void*)exp_epoch<kFxNoSpec, B, U>});
  g_cands.push_back({kFxCtop, B, U, (const void*)exp_epoch<kFxCtop, B, U>});
  g_cands.push_back({kFxAsInt, B, U, (const void*)exp_epoch<kFxAsInt, B, U>});
  g_cands.push_back({kFxShfl, B, U, (const void*)exp_epoch<kFxShfl, B, U>});
  g_cands.push_back({kFxMatch, B, U, (const void*)exp_epoch<kFxMatch, B, U>});
  g_cands.push_back({kFxLean, B, U, (const void*)exp_epoch<kFxLean, B, U>});
  g_cands.push_back({kFxLeanVote, B, U, (const void*)exp_epoch<kFxLeanVote, B, U>});
}

void launch(const Cand& c, const void* x, size_t n, void* scratch, cudaStream_t st) {
  launch_shape(c.fn, c.B, c.U, x, n, scratch, st);
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  for_each_shape([](auto b, auto u) { add_shape<decltype(b)::value, decltype(u)::value>(); });
  const Inputs in = make_inputs();
  char* scratch;
  CK(cudaMalloc(&scratch, kEpochScratchBytes * kCands));
  CK(cudaMemset(scratch, 0, kEpochScratchBytes * kCands));
  Experiment e;
  for (const Cand& c : g_cands) {
    // the ablations are exact for the integer inputs only: `VALUES=wide check` leaves them out
    const bool ablation = c.f == kFxNoSpec || c.f == kFxCtop || c.f == kFxAsInt;
    e.cands.push_back({kNames[c.f], c.B, c.U, reads_float(c.f), !ablation});
  }
  e.launch = [&](size_t k, const void* x, size_t n, char* at) {
    launch(g_cands[k], x, n, at, in.st);
  };
  e.scratch = [&](size_t k, int) { return scratch + kEpochScratchBytes * g_cands[k].f; };
  e.copy = [](size_t, char* at, cudaStream_t st) { return copy_product_scratch(at, st); };
  if (mode == "check") return check_mode(in, e);
  LaunchLog log(argc > 2 ? argv[2] : "launches.csv");
  return mode == "ab" ? ab_mode(in, e, log, 15) : profile_mode(in, e, log);
}
