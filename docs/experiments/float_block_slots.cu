// Experiment behind issue 17 (not part of the build): float32's epoch pass on grids of block slots
// (more than 512 warps). float_warp_sum.cu showed float32 level with int32 where every warp is a
// slot and 0.05-0.15 us behind where a block is: the block's float path is a fixed-point warp sum,
// a rounding to float, shared memory, a barrier and a second fixed-point warp sum before its one
// RED. Here every warp adds its own entry (RED) into one of 32 replicas of the accumulator, so the
// block's only step is a barrier that hands every warp the ticket thread 0 took at the start (the
// epoch says which accumulator; the last ticket's block zeroes the other one, every replica).
// The replicas (32 x 33 words, each in lines of its own) keep any one word to a 32nd of the REDs;
// the reader adds the replicas (integers: the same total whatever the order).
// Candidates (per-warp slots up to 512 warps in all of them, as the product):
//   int      the product's int32 epoch pass (block sum, one RED per block)
//   fx       the product's float32 (block sum through a float per warp, one RED per block)
//   int_wr   int32, a RED per warp into replica (block * warps + warp) % 32
//   fx_wr    float32, the same
// Run 2 (written in session 12, not yet run: no GPU was lent after run 1): is it the number of
// REDUX per warp (the tail of a one-wave grid, where every warp of an SM reaches its warp sum at
// about the same time)? float32 issues three per warp sum (REDUX.MAX, the NaN/inf counts,
// REDUX.SUM), int32 two (the 64-bit sum's halves).
//   fx_vote  fx with the NaN/inf counts behind a vote (VOTE.ANY; the counting REDUX only in a
//            warp that holds one): two REDUX per warp sum, as int32
//   int_x    int with a third REDUX per warp sum (a maximum the result depends on, never taken)
// Modes: `check` (every candidate against a double sum and the same bits over 30 runs; int32
// exactly), `profile FILE` (3 launches per shape, size and candidate, and the read floor's
// shapes) for
//   ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/single_pass_shapes.py FILE ncu.csv.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_block_slots.cu kernels/epoch_total.cpp -o fbs
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

constexpr int kInt = 0, kFx = 1, kIntWr = 2, kFxWr = 3, kFxVote = 4, kIntX = 5;
const char* const kNames[] = {"int", "fx", "int_wr", "fx_wr", "fx_vote", "int_x"};

// modern_epoch.cuh's warp_sum_fixed with the NaN/inf counts behind a vote.
__device__ __forceinline__ FixedSum warp_sum_fixed_vote(float v) {
  const unsigned bits = __float_as_uint(v);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const bool special = e == 0xffu, negative = bits >> 31;
  const unsigned eff = special || e == 0 ? 1u : e;
  const int m = static_cast<int>(((e ? 0x800000u : 0u) | mant) << (kGuard + 1));
  const int twice = special ? 0 : (negative ? -m : m);
  const bool any_special = __any_sync(kFullMask, special);
  const unsigned top = max(warp_max_u32(eff), 3u);
  unsigned specials = 0;
  if (any_special) {
    const unsigned code = special ? (mant ? kNanCode : (negative ? kNegInfCode : kPosInfCode)) : 0u;
    specials = static_cast<unsigned>(warp_add_i32(static_cast<int>(code)));
  }
  const int a = (shift_right_clamped(twice, top - eff) + 1) >> 1;
  return {warp_add_i32(a), static_cast<int>(top) - 150 - kGuard, specials};
}
__device__ __forceinline__ float warp_sum_float_vote(float v) {
  const FixedSum f = warp_sum_fixed_vote(v);
  if (f.special != 0) {
    const bool pinf = f.special & (0x3ffu << 10), ninf = f.special >> 20;
    if ((f.special & 0x3ffu) || (pinf && ninf)) return __int_as_float(0x7fc00000);
    return __int_as_float(pinf ? 0x7f800000 : static_cast<int>(0xff800000u));
  }
  return ldexpf(static_cast<float>(f.sum), f.exp);
}
// int32's warp total with a third REDUX that the result depends on (the maximum of the low
// halves, below 2^24, is never all ones).
__device__ __forceinline__ long long warp_total_x(long long v) {
  const unsigned lo = static_cast<unsigned>(v) & 0xffffffu;
  const long long t = warp_total(v);
  return warp_max_u32(lo) == 0xffffffffu ? 0 : t;
}
__host__ __device__ constexpr bool is_int(int f) {
  return f == kInt || f == kIntWr || f == kIntX;
}
constexpr unsigned kReplicas = 32;
constexpr std::size_t kRepStride = kEpochTotalStride;  // 33 words in three lines
constexpr std::size_t kWrScratch = kEpochTotals + 2 * kReplicas * kRepStride;

__device__ __forceinline__ unsigned long long* wr_total(char* scratch, unsigned e, unsigned rep) {
  return reinterpret_cast<unsigned long long*>(scratch + kEpochTotals +
                                               kRepStride * ((e & 1u) * kReplicas + rep));
}

// The product's kernel (kernels/modern_epoch.cu), int32 or float32.
template <typename T, int B, int U, int F>
__global__ void __launch_bounds__(B)
    exp_epoch(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  const unsigned warp_slots = gridDim.x * (B / kWarp);
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, F != kInt);
  unsigned long long t = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) t = epoch_begin(scratch);
  A s = tile_thread_sum<T, B, U>(x, n);
  if (!per_warp) {
    if constexpr (F == kInt) {
      s = block_total(s, B / kWarp);
    } else if constexpr (F == kIntX) {
      __shared__ long long warp_sums_x[kWarp];
      s = warp_total_x(s);
      if (threadIdx.x % kWarp == 0) warp_sums_x[threadIdx.x / kWarp] = s;
      __syncthreads();
      if (threadIdx.x < kWarp)
        s = warp_total_x(threadIdx.x < B / kWarp ? warp_sums_x[threadIdx.x] : 0ll);
    } else {
      __shared__ float warp_sums[kWarp];
      s = F == kFxVote ? warp_sum_float_vote(s) : warp_sum_float(s);
      if (B > kWarp) {
        if (threadIdx.x % kWarp == 0) warp_sums[threadIdx.x / kWarp] = s;
        __syncthreads();
        s = threadIdx.x < B / kWarp ? warp_sums[threadIdx.x] : 0.0f;
      }
    }
    if (threadIdx.x >= kWarp) return;
  }
  int w = 0;
  long long add = 0;
  unsigned long long special = 0;
  if constexpr (F == kInt) {
    add = per_warp ? warp_total(s) : s;
  } else if constexpr (F == kIntX) {
    add = per_warp ? warp_total_x(s) : s;
  } else if constexpr (F == kFxVote) {
    const FixedSum f = warp_sum_fixed_vote(s);
    special = special_word_entry(f.special);
    add = fixed_window_entry(f, &w);
  } else {
    add = warp_window_entry(s, &w, &special);
  }
  epoch_hand_on(w, add, special, scratch, t, per_warp ? warp_slots : gridDim.x,
                is_int(F) ? 1 : kEpochTotalWords);
}

// Every warp a RED into a replica; on grids of block slots the ticket is the block's.
template <typename T, int B, int U, int F>
__global__ void __launch_bounds__(B)
    exp_wr(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr unsigned kWarps = B / kWarp;
  constexpr unsigned kWords = F == kIntWr ? 1u : unsigned(kEpochTotalWords);
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  unsigned long long began = 0;
  if (per_warp ? lane == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  A s = tile_thread_sum<T, B, U>(x, n);
  int w = 0;
  long long add = 0;
  unsigned long long special = 0;
  if constexpr (F == kIntWr)
    add = warp_total(s);
  else
    add = warp_window_entry(s, &w, &special);
  unsigned slots = warp_slots;
  if (per_warp) {
    began = __shfl_sync(kFullMask, began, 0);
  } else {
    __shared__ unsigned long long block_began;
    if (threadIdx.x == 0) block_began = began;
    __syncthreads();
    began = block_began;
    slots = gridDim.x;
  }
  const unsigned epoch = static_cast<unsigned>(began >> 32);
  if (lane == 0) {
    unsigned long long* total = wr_total(scratch, epoch, (blockIdx.x * kWarps + warp) % kReplicas);
    if (add != 0) atomicAdd(total + w, static_cast<unsigned long long>(add));
    if (special != 0) atomicOr(total + kEpochWindows, special);
  }
  if (static_cast<unsigned>(began) != slots - 1) return;
  // The last ticket (of a warp, or of a block: then the whole block zeroes).
  const unsigned helpers = per_warp ? kWarp : B, me = per_warp ? lane : threadIdx.x;
  for (unsigned i = me; i < kReplicas * kWords; i += helpers)
    wr_total(scratch, epoch + 1, i / kWords)[i % kWords] = 0;
  if (me == 0) *epoch_word(scratch) = static_cast<unsigned long long>(epoch + 1) << 32;
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
// to exercise the rounding.
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

bool is_wr(int f) {
  return f == kIntWr || f == kFxWr;
}

// The replicas of the latest launch's accumulator added into the product's layout (one
// accumulator per epoch parity), so that epoch_total_* read them.
void fold_replicas(const unsigned char* raw, unsigned char* copy) {
  unsigned long long word;
  std::memcpy(&word, raw, 8);
  const unsigned a = (unsigned(word >> 32) - 1u) & 1u;
  for (int k = 0; k < kEpochTotalWords; ++k) {
    unsigned long long sum = 0;
    for (unsigned r = 0; r < kReplicas; ++r) {
      unsigned long long v;
      std::memcpy(&v, raw + kEpochTotals + kRepStride * (a * kReplicas + r) + 8 * k, 8);
      sum = k == kEpochWindows ? (sum | v) : sum + v;
    }
    std::memcpy(copy + kEpochTotals + kEpochTotalStride * a + 8 * k, &sum, 8);
  }
}

struct Cand {
  int f, B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_epoch<int32_t, B, U, kInt>});
  g_cands.push_back({kFx, B, U, (const void*)exp_epoch<float, B, U, kFx>});
  g_cands.push_back({kIntWr, B, U, (const void*)exp_wr<int32_t, B, U, kIntWr>});
  g_cands.push_back({kFxWr, B, U, (const void*)exp_wr<float, B, U, kFxWr>});
  g_cands.push_back({kFxVote, B, U, (const void*)exp_epoch<float, B, U, kFxVote>});
  g_cands.push_back({kIntX, B, U, (const void*)exp_epoch<int32_t, B, U, kIntX>});
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
  CK(cudaMalloc(&scratch, kWrScratch * 6));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(scratch, 0, kWrScratch * 6));
  const bool wide = std::getenv("VALUES") && std::string(std::getenv("VALUES")) == "wide";
  init_data<<<2048, 256>>>(xi, xf, maxn, wide);
  CK(cudaDeviceSynchronize());
  std::vector<float> hf(maxn);
  CK(cudaMemcpy(hf.data(), xf, maxn * 4, cudaMemcpyDeviceToHost));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  // each candidate its own scratch: their accumulators differ in width
  auto scratch_of = [&](const Cand& c) { return scratch + kWrScratch * c.f; };
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
          launch(c, is_int(c.f) ? (const void*)xi : (const void*)xf, n, scratch_of(c), st);
          static unsigned char raw[kWrScratch];
          CK(cudaMemcpyAsync(raw, scratch_of(c), is_wr(c.f) ? kWrScratch : kEpochScratchBytes,
                             cudaMemcpyDeviceToHost, st));
          CK(cudaStreamSynchronize(st));
          unsigned char copy[kEpochScratchBytes];
          std::memcpy(copy, raw, sizeof copy);
          if (is_wr(c.f)) fold_replicas(raw, copy);
          ++runs;
          if (is_int(c.f)) {
            long long want_i = 0;
            for (size_t i = 0; i < n; ++i) want_i += int(hf[i]);
            if (!wide && epoch_total_int32(copy) != want_i) {
              ++bad;
              std::printf("BAD int B=%d U=%d n=%zu\n", c.B, c.U, n);
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
        launch(c, is_int(c.f) ? (const void*)xi : (const void*)xf, n, scratch_of(c), st);
        std::fprintf(log, "%d,%s,%d,%d,1,%d,%zu,%u\n", idx++, kNames[c.f], c.B, c.U,
                     is_int(c.f) ? 0 : 1, n, grid_of(c, n));
      }
    CK(cudaStreamSynchronize(st));
    std::fflush(log);
  }
  std::fclose(log);
  std::printf("profile: %d launches\n", idx);
  return 0;
}
