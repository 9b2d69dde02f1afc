// Experiment behind issue 17 (runs 1, 4, 5 of docs/data/h200-float-ablate-2026-12-04) (not part
// of the build): does float32's epoch pass lose its last tenth where one wave holds the grid to
// *fetching its code*, not to running it? Sections 5.5-5.10 of docs/benchmarks.md shortened
// float32's combine five ways without a consistent gain, while int32's code and fx_as_int (float
// data, int32's combine) stay 0.05-0.2 us ahead. What they share: a short kernel. ncu's
// --cache-control all (the targets' measurement) and the app's cold-L2 timing leave the kernel's
// code in DRAM, so every SM fetches each instruction line it runs; the float32 kernels are 2.5 KB
// longer (sm_90 SASS: 6.1-8.1 KB against 3.5-5.4 KB), and the per-warp path that small grids take
// sits at the far end of the kernel, 2.7 KB past the branch that chooses it (both paths are
// compiled into every kernel and the grid picks one at run time).
// Candidates, at the same shapes:
//   int        the product's int32 epoch pass (kernels/modern_epoch.cu at this file's commit)
//   fx         the product's float32
//   int_one    int32 with only the slot kind its grid takes compiled in (the host picks it)
//   fx_one     float32 the same way
//   int_split, fx_split (run 4) the product's kernel on grids of warp slots, and a kernel with only
//              block slots compiled in on grids of block slots (at 2^16 they are the product: a
//              check on the instrument itself)
// Modes: `check` (every candidate against the host, float32's bits over 30 runs; VALUES=wide
// for exponents over 40 binades), `ab FILE` (4 fixed shapes x 4 sizes, 15 rounds, candidates
// interleaved; ROUNDS, CANDS=name,...), `profile FILE` (every shape and the read floor's, 3
// launches), each for
//   ncu --clock-control none --cache-control all|none --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/ab_table.py (ab) or single_pass_shapes.py (profile) FILE ncu.csv.
// `slots FILE` (run 5): the product's int and fx kernels alone, each with its scratch (epoch word
// and accumulators) at 8 places STRIDE bytes apart (default 4096), the places interleaved in each
// of ROUNDS rounds, at 2^16 (256/2) and 2^20 (512/2): does where the atomics land move the time?
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_code_layout.cu kernels/epoch_total.cpp -o fcl
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
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

constexpr int kInt = 0, kFx = 1, kIntOne = 2, kFxOne = 3, kIntSplit = 4, kFxSplit = 5, kCands = 6;
const char* const kNames[] = {"int", "fx", "int_one", "fx_one", "int_split", "fx_split"};
__host__ __device__ constexpr bool reads_float(int f) {
  return f == kFx || f == kFxOne || f == kFxSplit;
}

// kSlots: 0 both slot kinds compiled in, the grid picks (the product); 1 warp slots only;
// 2 block slots only (the host launches each only on grids that take it).
template <typename T, int B, int U, int kSlots>
__global__ void __launch_bounds__(B)
    exp_epoch(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = kSlots == 0 ? warp_slots <= 512 : kSlots == 1;
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
      block_window_hand_on<kWarps>(sum, scratch, began, gridDim.x);
      return;
    }
    add = warp_window_entry(sum, &word, &special);
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

// As the app's inputs: integers in [0, 255]; float32 also with a spread of exponents (VALUES=wide).
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
  const void* both;   // kSlots 0
  const void* warp;   // kSlots 1
  const void* block;  // kSlots 2
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_epoch<int32_t, B, U, 0>, nullptr, nullptr});
  g_cands.push_back({kFx, B, U, (const void*)exp_epoch<float, B, U, 0>, nullptr, nullptr});
  g_cands.push_back({kIntOne, B, U, nullptr, (const void*)exp_epoch<int32_t, B, U, 1>,
                     (const void*)exp_epoch<int32_t, B, U, 2>});
  g_cands.push_back({kFxOne, B, U, nullptr, (const void*)exp_epoch<float, B, U, 1>,
                     (const void*)exp_epoch<float, B, U, 2>});
  g_cands.push_back({kIntSplit, B, U, nullptr, (const void*)exp_epoch<int32_t, B, U, 0>,
                     (const void*)exp_epoch<int32_t, B, U, 2>});
  g_cands.push_back({kFxSplit, B, U, nullptr, (const void*)exp_epoch<float, B, U, 0>,
                     (const void*)exp_epoch<float, B, U, 2>});
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
  const unsigned g = grid_of(c, n);
  const void* fn = c.both ? c.both : (g * unsigned(c.B / kWarp) <= 512 ? c.warp : c.block);
  CK(cudaLaunchKernel(fn, dim3(g), dim3(c.B), args, 0, st));
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
  const size_t stride =
      std::getenv("STRIDE") ? std::strtoull(std::getenv("STRIDE"), nullptr, 0) : 4096;
  const size_t scratch_bytes = std::max<size_t>(kEpochScratchBytes * kCands, 16 * stride + 4096);
  CK(cudaMalloc(&scratch, scratch_bytes));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(scratch, 0, scratch_bytes));
  const bool wide = std::getenv("VALUES") && std::string(std::getenv("VALUES")) == "wide";
  init_data<<<2048, 256>>>(xi, xf, maxn, wide);
  CK(cudaDeviceSynchronize());
  std::vector<float> hf(maxn);
  CK(cudaMemcpy(hf.data(), xf, maxn * 4, cudaMemcpyDeviceToHost));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
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
      long long want_i = 0;
      for (size_t i = 0; i < n; ++i) want += hf[i], mag += std::fabs(hf[i]), want_i += int(hf[i]);
      for (const Cand& c : g_cands) {
        unsigned first = 0;
        for (int r = 0; r < 30; ++r) {
          launch(c, reads_float(c.f) ? (const void*)xf : (const void*)xi, n, scratch_of(c), st);
          unsigned char copy[kEpochScratchBytes];
          CK(cudaMemcpyAsync(copy, scratch_of(c), kEpochScratchBytes, cudaMemcpyDeviceToHost, st));
          CK(cudaStreamSynchronize(st));
          ++runs;
          if (!reads_float(c.f)) {
            if (!wide && epoch_total_int32(copy) != want_i) {
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
  FILE* log = std::fopen(argc > 2 ? argv[2] : "launches.csv", "w");
  std::fprintf(log, "idx,cand,B,U,C,type,n,grid\n");
  int idx = 0;
  // CANDS=name,name,...: only these candidates in ab and profile (default all)
  const std::string cands = std::getenv("CANDS") ? std::getenv("CANDS") : "";
  auto chosen = [&](int f) {
    return cands.empty() ||
           ("," + cands + ",").find("," + std::string(kNames[f]) + ",") != std::string::npos;
  };
  auto run = [&](const Cand& c, size_t n) {
    launch(c, reads_float(c.f) ? (const void*)xf : (const void*)xi, n, scratch_of(c), st);
    std::fprintf(log, "%d,%s,%d,%d,1,%d,%zu,%u\n", idx++, kNames[c.f], c.B, c.U,
                 reads_float(c.f) ? 1 : 0, n, grid_of(c, n));
  };
  if (mode == "slots") {
    const int rounds = std::getenv("ROUNDS") ? std::atoi(std::getenv("ROUNDS")) : 25;
    const size_t ns[] = {size_t(1) << 16, size_t(1) << 20};
    const int shapes[][2] = {{256, 2}, {512, 2}};
    for (int k = 0; k < 2; ++k)
      for (int r = 0; r < rounds; ++r)
        for (const Cand& c : g_cands) {
          if ((c.f != kInt && c.f != kFx) || c.B != shapes[k][0] || c.U != shapes[k][1]) continue;
          for (int slot = 0; slot < 8; ++slot) {
            // int's places after fx's, so that no two candidates share a scratch
            char* at = scratch + stride * (slot + 8 * c.f);
            launch(c, reads_float(c.f) ? (const void*)xf : (const void*)xi, ns[k], at, st);
            std::fprintf(log, "%d,%s@%d,%d,%d,1,%d,%zu,%u\n", idx++, kNames[c.f], slot, c.B, c.U,
                         reads_float(c.f) ? 1 : 0, ns[k], grid_of(c, ns[k]));
          }
        }
    CK(cudaStreamSynchronize(st));
    std::fclose(log);
    std::printf("slots: %d launches\n", idx);
    return 0;
  }
  if (mode == "ab") {  // A/B at fixed shapes: 15 rounds, the candidates interleaved in each
    const int rounds = std::getenv("ROUNDS") ? std::atoi(std::getenv("ROUNDS")) : 15;
    for (size_t n : {size_t(1) << 16, size_t(1) << 18, size_t(1) << 20, size_t(1) << 22})
      for (int r = 0; r < rounds; ++r)
        for (const Cand& c : g_cands) {
          const bool shape = (c.B == 256 && c.U == 2) || (c.B == 512 && c.U == 2) ||
                             (c.B == 1024 && c.U == 4) || (c.B == 256 && c.U == 4);
          if (shape && chosen(c.f)) run(c, n);
        }
    CK(cudaStreamSynchronize(st));
    std::fclose(log);
    std::printf("ab: %d launches\n", idx);
    return 0;
  }
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
      if (chosen(c.f))
        for (int r = 0; r < reps; ++r) run(c, n);
    CK(cudaStreamSynchronize(st));
    std::fflush(log);
  }
  std::fclose(log);
  std::printf("profile: %d launches\n", idx);
  return 0;
}
