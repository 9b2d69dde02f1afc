// Experiment behind issue 17 (not part of the build): does the epoch pass lose time where every
// slot's RED lands on the same word? One L2 slice performs the atomics on one address one after
// another: in float_code_layout.cu run 4, int32 at 2^22 with 2048 block slots of 256 threads
// (every RED into one word) took 1.3 us longer than float32, whose block sums of these inputs
// fall into two windows (two words), about 0.63 ns per RED. The product's best shapes have
// 128-512 slots: 0.08-0.3 us of REDs if they arrived at once.
// Candidates, the product's kernel with the accumulator in R replicas, slot s adding into
// replica s % R (each replica in a 4 KB page of its own; block 0 prefetches every replica's
// lines; the slot with the last ticket zeroes all R of the next launch; the reader adds them):
//   int, fx            the product's kernels (kernels/modern_epoch.cu at this file's commit), its
//                      scratch layout
//   int_r1, fx_r1      this file's layout, one replica (the product's work, the check on it)
//   int_r4, fx_r4      four replicas
//   int_r16, fx_r16    sixteen
//   fx_at128 .. fx_at2048 (run 7) see below
// Run 8 (int_z, fx_z) built this file with a temporary epoch_hand_on<kZeroEarly> in
// kernels/modern_epoch.cuh (warp 0 of block 0 zeroes the other accumulator as it hands on, the
// last slot only writes the next epoch; the patch is in
// docs/data/h200-float-ablate-2026-12-04/run8-zero-early/) and two more candidates, the product's
// kernel with epoch_hand_on<true> and block_window_hand_on<kWarps, true>; the patch is not in the
// product, so neither are they here.
// Modes: `check` (every candidate against the host, float32's bits over 30 runs; VALUES=wide),
// `ab FILE` (4 fixed shapes x 4 sizes, ROUNDS rounds, CANDS=name,... to choose, the candidates
// interleaved and each round moving every candidate to the next one's scratch, so that no candidate
// keeps one place: float_code_layout.cu run 5 found the place alone moves a kernel by up to 0.1
// us), `profile FILE` (every shape, 3 launches, and the read floor's kernel), for
//   ncu --clock-control none --cache-control all|none --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/ab_table.py (ab) or single_pass_shapes.py (profile) FILE ncu.csv.
// The inputs, the read floor, the launch list and the modes check, ab and profile are
// epoch_bench.cuh's.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/epoch_red_replicas.cu kernels/epoch_total.cpp -o err
#include <cuda_runtime.h>

#include <type_traits>

#include "epoch_bench.cuh"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"
#include "modern_tiles.cuh"

using namespace rl::kernels;
using namespace rl::kernels::modern;
using namespace epoch_bench;

constexpr int kInt = 0, kFx = 1, kIntR1 = 2, kFxR1 = 3, kIntR4 = 4, kFxR4 = 5, kIntR16 = 6,
              kFxR16 = 7, kFxAt128 = 8, kFxAt512 = 9, kFxAt1024 = 10, kFxAt2048 = 11, kCands = 12;
const char* const kNames[] = {"int",      "fx",       "int_r1",    "fx_r1",
                              "int_r4",   "fx_r4",    "int_r16",   "fx_r16",
                              "fx_at128", "fx_at512", "fx_at1024", "fx_at2048"};
constexpr bool reads_float(int f) {
  return f % 2 == 1 || f >= kFxAt128;
}
constexpr int replicas_of(int f) {
  return f < 2 ? 0 : (f < 4 || f >= kFxAt128 ? 1 : (f < 6 ? 4 : 16));
}

// fx_at<B> (run 7): one replica, the accumulators at B and B + 384 (the product's layout is
// 128 and 512): where the windows lie against the epoch word, nothing else changed.
// This file's scratch: the epoch word at 0, accumulator a's replica r at kRepBase + (a R + r)
// pages.
constexpr std::size_t kRepBase = 4096, kRepStride = 4096;
constexpr std::size_t rep_scratch_bytes(int r) {
  return kRepBase + 2 * r * kRepStride;
}
constexpr std::size_t kRegionBytes = rep_scratch_bytes(16);
constexpr std::size_t base_of(int f) {
  return f == kFxAt128    ? 128
         : f == kFxAt512  ? 512
         : f == kFxAt1024 ? 1024
         : f == kFxAt2048 ? 2048
                          : kRepBase;
}
constexpr std::size_t stride_of(int f) {
  return f >= kFxAt128 ? 384 : kRepStride;
}

template <int R, std::size_t kBase = kRepBase, std::size_t kStride = kRepStride>
__device__ __forceinline__ unsigned long long* rep_total(char* scratch, unsigned e, unsigned r) {
  return reinterpret_cast<unsigned long long*>(scratch + kBase + ((e & 1u) * R + r) * kStride);
}

template <int R, std::size_t kB, std::size_t kS>
__device__ __forceinline__ void rep_prefetch(const char* scratch, bool windows) {
  constexpr unsigned kLinesEach = (kEpochTotalWords * 8 + 127) / 128;
  const unsigned each = windows ? kLinesEach : 1u;
  if (blockIdx.x != 0 || threadIdx.x >= 2 * R * each) return;
  const unsigned rep = threadIdx.x / each;  // a * R + r
  const char* line = scratch + kB + rep * kS + 128 * (threadIdx.x % each);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(line));
}

// epoch_hand_on (kernels/modern_epoch.cuh) into replica `rep`; the last slot zeroes all R
// replicas of the next launch's accumulator.
template <int R, std::size_t kB, std::size_t kS>
__device__ __forceinline__ void rep_hand_on(int word, long long add, unsigned long long special,
                                            char* scratch, unsigned long long began, unsigned slots,
                                            unsigned words, unsigned rep) {
  const unsigned lane = threadIdx.x % kWarp;
  if (lane == 0) {
    unsigned long long* total =
        rep_total<R, kB, kS>(scratch, static_cast<unsigned>(began >> 32), rep);
    if (add != 0) atomicAdd(total + word, static_cast<unsigned long long>(add));
    if (special != 0) atomicAdd(total + kEpochWindows, special);
  }
  began = __shfl_sync(kFullMask, began, 0);
  if (static_cast<unsigned>(began) != slots - 1) return;
  const unsigned epoch = static_cast<unsigned>(began >> 32);
  for (unsigned i = lane; i < R * words; i += kWarp)
    rep_total<R, kB, kS>(scratch, epoch + 1, i / words)[i % words] = 0;
  if (lane == 0) *epoch_word(scratch) = static_cast<unsigned long long>(epoch + 1) << 32;
}

// block_window_hand_on (kernels/modern_epoch.cuh) into replica `rep`.
template <int kWarps, int R, std::size_t kB, std::size_t kS>
__device__ __forceinline__ void rep_block_window_hand_on(float v, char* scratch,
                                                         unsigned long long began, unsigned slots,
                                                         unsigned rep) {
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
  const long long sum =
      static_cast<long long>(warp_add_i32(static_cast<int>(w.entry & 0xffffff))) +
      (static_cast<long long>(warp_add_i32(static_cast<int>(w.entry >> 24))) << 24);
  const unsigned long long special =
      __any_sync(kFullMask, w.special != 0) ? special_word_entry(warp_or_u32(w.special)) : 0ull;
  if (__popc(windows) <= 1) {
    rep_hand_on<R, kB, kS>(windows ? __ffs(windows) - 1 : 0, sum, special, scratch, began, slots,
                           kEpochTotalWords, rep);
    return;
  }
  const unsigned epoch = static_cast<unsigned>(__shfl_sync(kFullMask, began, 0) >> 32);
  if (w.entry != 0)
    atomicAdd(rep_total<R, kB, kS>(scratch, epoch, rep) + w.word,
              static_cast<unsigned long long>(w.entry));
  rep_hand_on<R, kB, kS>(0, 0, special, scratch, began, slots, kEpochTotalWords, rep);
}

// The same with R replicas.
template <typename T, int B, int U, int R, std::size_t kB = kRepBase, std::size_t kS = kRepStride>
__global__ void __launch_bounds__(B)
    exp_rep(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  rep_prefetch<R, kB, kS>(scratch, !kInt32);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  A sum = tile_thread_sum<T, B, U>(x, n);
  const unsigned rep = (per_warp ? blockIdx.x * kWarps + threadIdx.x / kWarp : blockIdx.x) % R;
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
      rep_block_window_hand_on<kWarps, R, kB, kS>(sum, scratch, began, gridDim.x, rep);
      return;
    }
    add = warp_window_entry(sum, &word, &special);
  }
  rep_hand_on<R, kB, kS>(word, add, special, scratch, began, per_warp ? warp_slots : gridDim.x,
                         kInt32 ? 1u : unsigned(kEpochTotalWords), rep);
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
  g_cands.push_back({kIntR1, B, U, (const void*)exp_rep<int32_t, B, U, 1>});
  g_cands.push_back({kFxR1, B, U, (const void*)exp_rep<float, B, U, 1>});
  g_cands.push_back({kIntR4, B, U, (const void*)exp_rep<int32_t, B, U, 4>});
  g_cands.push_back({kFxR4, B, U, (const void*)exp_rep<float, B, U, 4>});
  g_cands.push_back({kIntR16, B, U, (const void*)exp_rep<int32_t, B, U, 16>});
  g_cands.push_back({kFxR16, B, U, (const void*)exp_rep<float, B, U, 16>});
  g_cands.push_back({kFxAt128, B, U, (const void*)exp_rep<float, B, U, 1, 128, 384>});
  g_cands.push_back({kFxAt512, B, U, (const void*)exp_rep<float, B, U, 1, 512, 384>});
  g_cands.push_back({kFxAt1024, B, U, (const void*)exp_rep<float, B, U, 1, 1024, 384>});
  g_cands.push_back({kFxAt2048, B, U, (const void*)exp_rep<float, B, U, 1, 2048, 384>});
}

void launch(const Cand& c, const void* x, size_t n, void* scratch, cudaStream_t st) {
  launch_shape(c.fn, c.B, c.U, x, n, scratch, st);
}

// A launch's scratch in the product's layout (the replicas of the latest accumulator added as
// 64-bit integers, exact modulo 2^64 as the windows are), for kernels/epoch_total.cpp's reader.
std::vector<unsigned char> product_layout(const std::vector<unsigned char>& s, int f) {
  const int r = replicas_of(f);
  std::vector<unsigned char> out(kEpochScratchBytes, 0);
  std::memcpy(out.data(), s.data(), 8);
  if (r == 0) return std::vector<unsigned char>(s.begin(), s.begin() + kEpochScratchBytes);
  unsigned long long word = 0;
  std::memcpy(&word, s.data(), 8);
  const unsigned a = (unsigned(word >> 32) - 1u) & 1u;
  for (int k = 0; k < kEpochTotalWords; ++k) {
    unsigned long long sum = 0;
    for (int q = 0; q < r; ++q) {
      unsigned long long w = 0;
      std::memcpy(&w, s.data() + base_of(f) + (a * r + q) * stride_of(f) + 8 * k, 8);
      sum += w;
    }
    std::memcpy(out.data() + kEpochTotals + kEpochTotalStride * a + 8 * k, &sum, 8);
  }
  return out;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  for_each_shape([](auto b, auto u) { add_shape<decltype(b)::value, decltype(u)::value>(); });
  const Inputs in = make_inputs();
  char* scratch;
  CK(cudaMalloc(&scratch, kRegionBytes * kCands));
  CK(cudaMemset(scratch, 0, kRegionBytes * kCands));
  // Candidate k's region in round r: each round moves every candidate to the next one's place
  // (check keeps round 0's: a scratch must keep its layout from one launch to the next).
  auto region = [&](int k) { return scratch + kRegionBytes * (k % kCands); };
  Experiment e;
  for (const Cand& c : g_cands) e.cands.push_back({kNames[c.f], c.B, c.U, reads_float(c.f), true});
  e.launch = [&](size_t k, const void* x, size_t n, char* at) {
    launch(g_cands[k], x, n, at, in.st);
  };
  e.scratch = [&](size_t k, int r) { return region(g_cands[k].f + r); };
  e.copy = [](size_t k, char* at, cudaStream_t st) {
    std::vector<unsigned char> copy(kRegionBytes);
    CK(cudaMemcpyAsync(copy.data(), at, kRegionBytes, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    return product_layout(copy, g_cands[k].f);
  };
  if (mode == "check") return check_mode(in, e);
  LaunchLog log(argc > 2 ? argv[2] : "launches.csv");
  return mode == "ab" ? ab_mode(in, e, log, 16) : profile_mode(in, e, log);
}
