// Experiment behind issue 17 (not part of the build): float32 on int32's path when a warp's
// thread sums fit one fixed grid. Sections 5.10-5.11 of docs/benchmarks.md found that the only
// float32 kernels that come near int32 (fx_as_int) convert each thread's float sum to an integer
// and then take int32's combine: two independent REDUX per warp, and after the block's barrier
// int32's two REDUX, with no warp maximum, no window bookkeeping and no NaN vote. They were
// ablations, exact only for the app's integer-valued inputs. Here the same path is exact for
// every input, because each warp first asks whether it may take it:
//   fast lane: the thread's sum v is a multiple of 2^-21 below 2^17 in magnitude (v * 2^21 an
//              integer below 2^38; NaN and infinities never are). That is window 16's grid
//              (2^(8*16 - 149)), so the integer is an entry of that window as it is.
//   warp:      one vote: every lane fast? Then two independent REDUX on the entries' 24-bit
//              halves, as int32 (the warp's entry below 2^43). Else the product's warp sum
//              (REDUX.MAX, the grid of the warp's largest exponent, REDUX.SUM, the NaN vote).
//   block:     after the block's barrier warp 0 asks with one vote whether every warp was fast;
//              then it adds the entries with int32's two REDUX (below 2^48) into window 16, else
//              it takes the product's window combine.
// Both paths are exact sums or roundings that depend only on the warp's data, and the windows
// add integers, so the total has the same bits on every run. Capacity: 2^14 block entries below
// 2^48 and the product's below 2^57 in all stay below 2^63 in one window.
// Candidates (per-warp slots up to 512 warps, block slots above, as the product):
//   int        the product's int32 epoch pass (epoch_bench.cuh exp_product_epoch)
//   fx         the product's float32
//   fx_fixed   the above
//   ablations of where the input lies (run 3; timed, not checked): the int32 buffer is
//   allocated first, the float32 buffer after it, and the read floor reads the int32 one:
//   int_on_f   the product's int32 kernel on the float32 buffer's bytes
//   fx_on_i    the product's float32 kernel on the int32 buffer's bytes (subnormal floats)
//   where the float32 sums land (run 4): window w stored in the accumulator's word (w + 16) % 32,
//   so that these inputs' window 16 is at scratch offset 128, where int32's word was in runs 1-3:
//   fx_rot       the product's float32 so
//   fx_fixed_rot fx_fixed so
//   int32's word (run 4, after the product moved it from word 0 to word 16, kEpochInt32Word;
//   in runs 1-3 `int` itself was this kernel):
//   int_w0       the product's int32 kernel with its word where it was (word 0: offsets 128, 512)
// VALUES=integer (default, the app's inputs: every warp fast), unit (floats in [0, 1) with 24
// bits: thread sums of 8+ values fast, of 4 mostly not), wide (40 binades: never fast).
// Modes: `check` (every candidate against a double sum, float32 the same bits over 30 runs), `ab
// FILE` (4 shapes x 4 sizes, ROUNDS rounds, candidates interleaved and rotated over the scratch
// places each round), `profile FILE` (every shape, 3 launches, and the read floor's kernel), for
//   ncu --clock-control none --cache-control all|none --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/ab_table.py (ab) or single_pass_shapes.py (profile) FILE ncu.csv.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_fixed_grid.cu kernels/epoch_total.cpp -o ffg
// with the product headers of ebce1d7 (run 4; runs 1-3: the session-18 working tree before it).
#include <cuda_runtime.h>

#include <type_traits>

#include "epoch_bench.cuh"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"
#include "modern_tiles.cuh"

using namespace rl::kernels;
using namespace rl::kernels::modern;
using namespace epoch_bench;

constexpr int kInt = 0, kFx = 1, kFxFixed = 2, kIntOnF = 3, kFxOnI = 4, kFxRot = 5, kFxFixedRot = 6,
              kIntW0 = 7, kCands = 8;
const char* const kNames[] = {"int",     "fx",     "fx_fixed",     "int_on_f",
                              "fx_on_i", "fx_rot", "fx_fixed_rot", "int_w0"};
constexpr bool rotated(int f) {
  return f == kFxRot || f == kFxFixedRot;
}

// Window 16's grid: x = v * 2^21.
constexpr int kFixedWindow = 16;
constexpr int kFixedShift = 149 - 8 * kFixedWindow;  // 21

// The lane's thread sum as an entry of window 16 when it is exactly one below 2^38: lo (24 bits)
// and hi (signed, below 2^14 in magnitude) for int32's two REDUX.
struct FixedLane {
  int lo, hi;
  bool fits;
};
__device__ __forceinline__ FixedLane fixed_lane(float v) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu;
  const unsigned sig = (e ? 0x800000u : 0u) | (bits & 0x7fffffu);
  // v = sig * 2^(e' - 150) with e' = max(e, 1), so v * 2^21 = sig * 2^(e' - 129).
  const int t = static_cast<int>(e ? e : 1u) - (150 - kFixedShift);
  const unsigned right = static_cast<unsigned>(min(max(-t, 0), 24));  // sig < 2^24
  const unsigned left = static_cast<unsigned>(min(max(t, 0), 14));
  const bool fits = t <= 14 && (sig & ((1u << right) - 1u)) == 0;
  const long long mag = static_cast<long long>(sig >> right) << left;  // below 2^38
  const long long x = bits >> 31 ? -mag : mag;
  return {static_cast<int>(x & 0xffffff), static_cast<int>(x >> 24), fits};
}

// The warp's entry and window: the fixed grid when every lane fits (warp-uniform), else the
// product's warp sum.
__device__ __forceinline__ long long warp_fixed_or_window_entry(float v, bool* fast, int* word,
                                                                unsigned* special) {
  const FixedLane l = fixed_lane(v);
  *fast = __all_sync(kFullMask, l.fits);
  if (*fast) {
    *word = kFixedWindow;
    *special = 0;
    return static_cast<long long>(warp_add_i32(l.lo)) +
           (static_cast<long long>(warp_add_i32(l.hi)) << 24);
  }
  const FixedSum f = warp_sum_fixed(v);
  *special = f.special;
  return fixed_window_entry(f, word);
}

// A block slot's hand-on: int32's block sum when every warp was fast, else the product's.
// Each warp's lane 0 stores its entry with bit 31 of `special` set if it was not fast; after the
// barrier warp 0 asks with one vote whether any was not. (__syncthreads_and would be the
// natural barrier, but ptxas for sm_90, CUDA 13.0, compiles it, as the intrinsic and as inline
// bar.red.and.pred alike, into a BAR.RED.AND before the other warps return and a second one
// that warp 0 runs alone after they have: the AND of warp 0's lanes only. Run 1's `VALUES=unit
// check` caught the wrong totals where warp 0 was fast and another warp was not.)
constexpr unsigned kSlowWarp = 1u << 31;
// kRot (run 4): window w in word (w + 16) % 32 of the accumulator, so that window 16, where these
// inputs' sums land, is the accumulator's word 0 at scratch offset 128, as int32's word (the
// product's window 16 is at 256, the next 128-byte line).
template <bool kRot>
__device__ __forceinline__ int stored_word(int window) {
  return kRot ? (window + 16) & 31 : window;
}
template <int kWarps, bool kRot>
__device__ __forceinline__ void block_fixed_hand_on(long long entry, bool fast, int word,
                                                    unsigned special, char* scratch,
                                                    unsigned long long began, unsigned slots) {
  __shared__ WarpEntry entries[kWarp];
  const unsigned lane = threadIdx.x % kWarp;
  if (lane == 0)
    entries[threadIdx.x / kWarp] = {entry, unsigned(word), special | (fast ? 0u : kSlowWarp)};
  __syncthreads();
  if (threadIdx.x >= kWarp) return;
  const WarpEntry w = lane < unsigned(kWarps) ? entries[lane] : WarpEntry{0, 0, 0};
  // |entry| < 2^43: the low 24 bits of 32 entries add below 2^29, the high 19 (signed) too.
  const long long sum =
      static_cast<long long>(warp_add_i32(static_cast<int>(w.entry & 0xffffff))) +
      (static_cast<long long>(warp_add_i32(static_cast<int>(w.entry >> 24))) << 24);
  if (__all_sync(kFullMask, (w.special & kSlowWarp) == 0)) {
    epoch_hand_on(stored_word<kRot>(kFixedWindow), sum, 0, scratch, began, slots, 0,
                  kEpochTotalWords);
    return;
  }
  const unsigned wspecial = w.special & ~kSlowWarp;
  const unsigned windows = warp_or_u32(w.entry != 0 ? 1u << w.word : 0u);
  const unsigned long long sp =
      __any_sync(kFullMask, wspecial != 0) ? special_word_entry(warp_or_u32(wspecial)) : 0ull;
  if (__popc(windows) <= 1) {
    epoch_hand_on(stored_word<kRot>(windows ? __ffs(windows) - 1 : 0), sum, sp, scratch, began,
                  slots, 0, kEpochTotalWords);
    return;
  }
  const unsigned epoch = static_cast<unsigned>(__shfl_sync(kFullMask, began, 0) >> 32);
  if (w.entry != 0)
    atomicAdd(epoch_total(scratch, epoch) + stored_word<kRot>(int(w.word)),
              static_cast<unsigned long long>(w.entry));
  epoch_hand_on(0, 0, sp, scratch, began, slots, 0, kEpochTotalWords);
}

// kFast: the fixed-grid path (fx_fixed); without it the warp sum is the product's (fx_rot).
template <int B, int U, bool kFast, bool kRot>
__global__ void __launch_bounds__(B)
    exp_fixed_epoch(const float* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, true);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  const float sum = tile_thread_sum<float, B, U>(x, n);
  bool fast = false;
  int word = 0;
  unsigned special = 0;
  long long entry;
  if constexpr (kFast) {
    entry = warp_fixed_or_window_entry(sum, &fast, &word, &special);
  } else {
    const FixedSum f = warp_sum_fixed(sum);
    special = f.special;
    entry = fixed_window_entry(f, &word);
  }
  if (!per_warp) {
    // without kFast every warp is slow: the product's combine (after one vote more)
    block_fixed_hand_on<kWarps, kRot>(entry, fast, word, special, scratch, began, gridDim.x);
    return;
  }
  epoch_hand_on(stored_word<kRot>(word), entry, special_word_entry(special), scratch, began,
                warp_slots, 0, kEpochTotalWords);
}

struct Cand {
  int f, B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_product_epoch<int32_t, B, U>});
  g_cands.push_back({kFx, B, U, (const void*)exp_product_epoch<float, B, U>});
  g_cands.push_back({kFxFixed, B, U, (const void*)exp_fixed_epoch<B, U, true, false>});
  g_cands.push_back({kIntOnF, B, U, (const void*)exp_product_epoch<int32_t, B, U>});
  g_cands.push_back({kFxOnI, B, U, (const void*)exp_product_epoch<float, B, U>});
  g_cands.push_back({kFxRot, B, U, (const void*)exp_fixed_epoch<B, U, false, true>});
  g_cands.push_back({kFxFixedRot, B, U, (const void*)exp_fixed_epoch<B, U, true, true>});
  g_cands.push_back({kIntW0, B, U, (const void*)exp_product_epoch<int32_t, B, U, 0, true>});
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  for_each_shape([](auto b, auto u) { add_shape<decltype(b)::value, decltype(u)::value>(); });
  const Inputs in = make_inputs();
  char* scratch;
  // One place per candidate, 4 KB apart; round r moves candidate f to place (f + r) % kCands.
  constexpr std::size_t kPlace = 4096;
  CK(cudaMalloc(&scratch, kPlace * kCands));
  CK(cudaMemset(scratch, 0, kPlace * kCands));
  Experiment e;
  for (const Cand& c : g_cands) {
    const bool reads_float = c.f != kInt && c.f != kIntOnF && c.f != kIntW0;
    const int buffer = c.f == kIntOnF ? 1 : c.f == kFxOnI ? 2 : 0;
    e.cands.push_back({kNames[c.f], c.B, c.U, reads_float, true, buffer});
  }
  e.launch = [&](size_t k, const void* x, size_t n, char* at) {
    launch_shape(g_cands[k].fn, g_cands[k].B, g_cands[k].U, x, n, at, in.st);
  };
  e.scratch = [&](size_t k, int r) { return scratch + kPlace * ((g_cands[k].f + r) % kCands); };
  // The rotated candidates' windows back in the product's order, for its reader.
  e.copy = [&](size_t k, char* at, cudaStream_t st) {
    std::vector<unsigned char> c = copy_product_scratch(at, st);
    if (g_cands[k].f == kIntW0) {  // word 0 to where the reader looks
      for (int a = 0; a < 2; ++a) {
        unsigned char* acc = c.data() + kEpochTotals + kEpochTotalStride * a;
        std::memcpy(acc + 8 * kEpochInt32Word, acc, 8);
      }
      return c;
    }
    if (!rotated(g_cands[k].f)) return c;
    for (int a = 0; a < 2; ++a) {
      unsigned char* acc = c.data() + kEpochTotals + kEpochTotalStride * a;
      std::vector<unsigned char> words(acc, acc + 8 * kEpochWindows);
      for (int w = 0; w < kEpochWindows; ++w)
        std::memcpy(acc + 8 * w, words.data() + 8 * ((w + 16) % kEpochWindows), 8);
    }
    return c;
  };
  if (mode == "check") return check_mode(in, e);
  LaunchLog log(argc > 2 ? argv[2] : "launches.csv");
  return mode == "ab" ? ab_mode(in, e, log, 16) : profile_mode(in, e, log);
}
