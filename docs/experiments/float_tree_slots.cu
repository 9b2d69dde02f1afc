// Experiment behind issue 17 (not part of the build): float32's epoch pass with no REDUX at all.
// float_block_slots.cu (runs 1, 2) left float32 0.03-0.15 us behind int32 at 2^16..2^22 and
// traced it to one dependence: the fixed-point warp sum's REDUX.SUM waits for its REDUX.MAX (the
// warp's largest exponent sets the grid), and on grids of block slots that chain runs twice (the
// warps', then warp 0's over the warp sums); int32's REDUX are independent, and a third REDUX
// that int32's result depends on costs it the same 0.10-0.13 us. Here the float sums are never on
// a shared fixed-point grid: a warp's 32 values go to shared memory and lane 0 adds them in a
// fixed pairwise tree (eight 16-byte loads, five levels of FADD: the same order on every run, so
// the same bits), a block's warp sums the same way in thread 0, and only the slot's one float
// becomes an exact window entry (its own exponent and mantissa: no maximum to wait for).
// Candidates (per-warp slots up to 512 warps in all of them, as the product):
//   int      the product's int32 epoch pass (kernels/modern_epoch.cu)
//   fx       the product's float32 (fixed-point warp sums, REDUX.MAX then REDUX.SUM)
//   fx_tree  float32 with the fixed-order float trees above
// Modes: `check` (every candidate against a double sum and the same bits over 30 runs; int32
// exactly), `profile FILE` (3 launches per shape, size and candidate, and the read floor's
// shapes) for
//   ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/single_pass_shapes.py FILE ncu.csv. The code of int and fx is the
// product's (the headers below); the harness is float_block_slots.cu's.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_tree_slots.cu kernels/epoch_total.cpp -o fts
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

constexpr int kInt = 0, kFx = 1, kFxTree = 2;
const char* const kNames[] = {"int", "fx", "fx_tree"};

__host__ __device__ constexpr bool is_int(int f) {
  return f == kInt;
}

// A warp's float sum in a fixed order, valid in lane 0: each lane stores its value in the warp's
// 32 floats of shared memory; lane 0 reads them as eight float4 and adds them pairwise.
__device__ __forceinline__ float warp_tree_sum(float v, float4* slot) {
  const unsigned lane = threadIdx.x % kWarp;
  reinterpret_cast<float*>(slot)[lane] = v;
  __syncwarp();
  if (lane != 0) return 0.0f;
  float s[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const float4 a = slot[k];
    s[k] = (a.x + a.y) + (a.z + a.w);
  }
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// kWarps (4..32) floats of shared memory added pairwise in a fixed order by one thread.
template <int kWarps>
__device__ __forceinline__ float tree_of(const float4* sums) {
  float s[kWarps / 4];
#pragma unroll
  for (int k = 0; k < kWarps / 4; ++k) {
    const float4 a = sums[k];
    s[k] = (a.x + a.y) + (a.z + a.w);
  }
#pragma unroll
  for (int width = kWarps / 8; width >= 1; width /= 2)
#pragma unroll
    for (int k = 0; k < width; ++k) s[k] = s[2 * k] + s[2 * k + 1];
  return s[0];
}

// One float as its exact window entry (modern_epoch.cuh's windows): f = m * 2^(eff - 150) with
// m the signed 24-bit significand and eff the biased exponent (1 for subnormals); NaN and the
// infinities as the special word's entry.
__device__ __forceinline__ long long float_window_entry(float f, int* word,
                                                        unsigned long long* special) {
  const unsigned bits = __float_as_uint(f);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  const bool negative = bits >> 31;
  *word = 0;
  *special = 0;
  if (e == 0xffu) {
    *special = special_word_entry(mant ? kNanCode : (negative ? kNegInfCode : kPosInfCode));
    return 0;
  }
  const int m = static_cast<int>((e ? 0x800000u : 0u) | mant);
  const FixedSum fs{negative ? -m : m, static_cast<int>(e ? e : 1u) - 150, 0u};
  return fixed_window_entry(fs, word);
}

// fx_tree: the product's epoch pass with the float trees.
template <int B, int U>
__global__ void __launch_bounds__(B)
    exp_tree(const float* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  constexpr int kWarps = B / kWarp;
  __shared__ float4 lanes[kWarps][8];
  __shared__ float4 warp_sums[kWarps / 4];
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  const unsigned warp = threadIdx.x / kWarp;
  epoch_prefetch(scratch, true);
  unsigned long long t = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) t = epoch_begin(scratch);
  float s = warp_tree_sum(tile_thread_sum<float, B, U>(x, n), lanes[warp]);
  if (!per_warp) {
    if (threadIdx.x % kWarp == 0) reinterpret_cast<float*>(warp_sums)[warp] = s;
    __syncthreads();
    if (threadIdx.x >= kWarp) return;
    s = threadIdx.x == 0 ? tree_of<kWarps>(warp_sums) : 0.0f;
  }
  int w = 0;
  unsigned long long special = 0;
  const long long add = float_window_entry(s, &w, &special);
  epoch_hand_on(w, add, special, scratch, t, per_warp ? warp_slots : gridDim.x, kEpochTotalWords);
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
    } else {
      __shared__ float warp_sums[kWarp];
      s = warp_sum_float(s);
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
  if constexpr (F == kInt)
    add = per_warp ? warp_total(s) : s;
  else
    add = warp_window_entry(s, &w, &special);
  epoch_hand_on(w, add, special, scratch, t, per_warp ? warp_slots : gridDim.x,
                is_int(F) ? 1 : kEpochTotalWords);
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

struct Cand {
  int f, B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_epoch<int32_t, B, U, kInt>});
  g_cands.push_back({kFx, B, U, (const void*)exp_epoch<float, B, U, kFx>});
  g_cands.push_back({kFxTree, B, U, (const void*)exp_tree<B, U>});
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
  CK(cudaMalloc(&scratch, kEpochScratchBytes * 3));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(scratch, 0, kEpochScratchBytes * 3));
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
          launch(c, is_int(c.f) ? (const void*)xi : (const void*)xf, n, scratch_of(c), st);
          unsigned char copy[kEpochScratchBytes];
          CK(cudaMemcpyAsync(copy, scratch_of(c), kEpochScratchBytes, cudaMemcpyDeviceToHost, st));
          CK(cudaStreamSynchronize(st));
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
