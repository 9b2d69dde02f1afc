// Experiment behind issue 17 (not part of the build): where the one-launch kernels' last tenth
// goes. First question: does float32's second atomic cost time because the ticket counter and
// the window words sit side by side? The product's twin finish (kernels/modern_finish.cuh
// hand_on_windows) puts the ticket at scratch + 0 and the 33 window words at scratch + 256; here
// the same finish with the windows kWindowsAt bytes past the ticket (run 1: no). Then: what does
// a hand-on cost at all (red, store: wrong totals, lower bounds), and the epoch pass that came of
// it (kernels/modern_epoch.cuh), int32 and float32.
// Candidates: int, counted (float32 sums, int32's finish on their bits: a wrong total, one
// atomic), twin256 (the product's layout; twin4k, twin64k, twin1m with APART=1), red, store,
// epoch, epoch_blk (block slots on every grid), epoch_fx (float32 warp sums in fixed point, as
// the product now has them; not profiled: the product was measured instead).
// Modes: `check` (every float32 candidate with a total against a double sum and the same bits
// over 30 runs, the int32 epoch pass exactly), `profile FILE` (3 launches per shape, size and
// candidate, plus the read floor's shapes) for
//   ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/single_pass_shapes.py FILE ncu.csv. Runs and tables:
// docs/data/h200-float-finish-apart-2026-12-02/.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_finish_apart.cu kernels/epoch_total.cpp -o ffa
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

constexpr std::size_t kScratchBytes = (std::size_t(1) << 20) + 4096;
// F: 0 int, 1 counted, else the window words' offset from the ticket in bytes.
// 2 red: int32 slots red.add their sums into the word, nothing returns, no total is written
// (a wrong total: the cost of a grid combine with no round trip); 3 store: every slot stores its
// sum to a line of its own (a wrong total: the warp and block sums and one store, no combine).
// 4 epoch: the epoch pass (kernels/modern_epoch.cuh), int32 and float32, a right total.
// 5 epoch_blk: the same with block slots on every grid.
// 6 epoch_fx: float32 sums in fixed point with REDUX (modern_epoch.cuh warp_sum_fixed).
constexpr long kInt = 0, kCounted = 1, kRed = 2, kStore = 3, kEpoch = 4, kEpochBlk = 5,
               kEpochFx = 6;

template <typename T, int B, int U, long F>
__global__ void __launch_bounds__(B)
    exp_apart(const T* __restrict__ x, std::size_t n, void* result, char* scratch) {
  constexpr unsigned kWarps = B / kWarp;
  if (blockIdx.x == 0 && threadIdx.x == 0) asm volatile("prefetch.global.L2 [%0];" ::"l"(scratch));
  if (F > kEpochFx && blockIdx.x == 0 && threadIdx.x >= 1 && threadIdx.x <= 3)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(scratch + F + 128 * (threadIdx.x - 1)));
  using A = typename Accum<T>::type;
  const unsigned warp_slots = gridDim.x * kWarps;
  if constexpr (F == kEpoch || F == kEpochBlk || F == kEpochFx) {
    // epoch, epoch_blk: the float sums of the shuffle tree; epoch_fx: the fixed-point ones
    const bool per_warp = F != kEpochBlk && warp_slots <= 512;
    constexpr bool kInt32 = std::is_same_v<T, int32_t>;
    epoch_prefetch(scratch, !kInt32);
    unsigned long long t = 0;
    if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) t = epoch_begin(scratch);
    A s = tile_thread_sum<T, B, U>(x, n);
    int w = 0;
    long long add = 0;
    if (per_warp) {
      if constexpr (kInt32) {
        add = warp_total(s);
      } else if constexpr (F == kEpochFx) {
        add = warp_window_entry(s, &w);
      } else {
        add = epoch_window_entry(warp_total(s), &w);
      }
      epoch_hand_on(w, add, scratch, t, warp_slots, kInt32 ? 1 : kEpochTotalWords);
    } else {
      if constexpr (kInt32 || F != kEpochFx) {
        s = block_total(s, kWarps);
      } else {  // as the product (modern_epoch.cu block_sum_fixed)
        __shared__ float warp_sums[kWarp];
        s = warp_sum_float(s);
        if (kWarps > 1) {
          if (threadIdx.x % kWarp == 0) warp_sums[threadIdx.x / kWarp] = s;
          __syncthreads();
          s = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0.0f;
        }
      }
      if (threadIdx.x >= kWarp) return;
      if constexpr (kInt32) {
        add = s;
      } else if constexpr (F == kEpochFx) {
        add = warp_window_entry(s, &w);
      } else {
        add = epoch_window_entry(s, &w);
      }
      epoch_hand_on(w, add, scratch, t, gridDim.x, kInt32 ? 1 : kEpochTotalWords);
    }
    return;
  }
  A sum = tile_thread_sum<T, B, U>(x, n);
  unsigned slots = gridDim.x;
  if (warp_slots <= 512) {  // as modern_single_pass.cu's kMaxWarpSlots
    sum = warp_total(sum);
    slots = warp_slots;
  } else {
    sum = block_total(sum, kWarps);
    if (threadIdx.x >= kWarp) return;
  }
  auto* word = reinterpret_cast<unsigned long long*>(scratch);
  if constexpr (F == kInt) {
    if (threadIdx.x % kWarp == 0)
      hand_on_counted(sum, static_cast<long long*>(result), word, slots);
  } else if constexpr (F == kRed) {
    if (threadIdx.x % kWarp == 0) atomicAdd(word, static_cast<unsigned long long>(sum));
  } else if constexpr (F == kStore) {
    if (threadIdx.x % kWarp == 0)
      reinterpret_cast<long long*>(
          scratch + 4096)[16 * ((blockIdx.x * kWarps + threadIdx.x / kWarp) % 8000)] = sum;
  } else if constexpr (F == kCounted) {
    if (threadIdx.x % kWarp == 0)
      hand_on_counted(static_cast<long long>(__float_as_uint(sum) & 0xffffu),
                      static_cast<long long*>(result), word, slots);
  } else {
    hand_on_windows(sum, static_cast<float*>(result),
                    reinterpret_cast<unsigned long long*>(scratch + F),
                    reinterpret_cast<unsigned*>(scratch), slots);
  }
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

__global__ void init_data(int* xi, float* xf, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    xi[i] = int(z & 255);
    xf[i] = float(z & 255);  // as the app's inputs: integers in [0, 255]
  }
}

struct Cand {
  long f;
  int B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

std::string name_of(long f) {
  switch (f) {
    case kInt:
      return "int";
    case kCounted:
      return "counted";
    case kRed:
      return "red";
    case kStore:
      return "store";
    case kEpoch:
    case -kEpoch:
      return "epoch";
    case kEpochBlk:
    case -kEpochBlk:
      return "epoch_blk";
    case -kEpochFx:
      return "epoch_fx";
    case 256:
      return "twin256";
    case 4096:
      return "twin4k";
    case 65536:
      return "twin64k";
    default:
      return "twin1m";
  }
}

// Run 1 (2026-12-02) profiled the four twin layouts; run 2 dropped the three apart ones (no
// faster than twin256) for red and store. APART=1 puts them back.
bool g_apart = std::getenv("APART") != nullptr;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_apart<int32_t, B, U, kInt>});
  g_cands.push_back({kCounted, B, U, (const void*)exp_apart<float, B, U, kCounted>});
  g_cands.push_back({kRed, B, U, (const void*)exp_apart<int32_t, B, U, kRed>});
  g_cands.push_back({kStore, B, U, (const void*)exp_apart<int32_t, B, U, kStore>});
  g_cands.push_back({kEpoch, B, U, (const void*)exp_apart<int32_t, B, U, kEpoch>});
  g_cands.push_back({-kEpoch, B, U, (const void*)exp_apart<float, B, U, kEpoch>});
  g_cands.push_back({kEpochBlk, B, U, (const void*)exp_apart<int32_t, B, U, kEpochBlk>});
  g_cands.push_back({-kEpochBlk, B, U, (const void*)exp_apart<float, B, U, kEpochBlk>});
  g_cands.push_back({-kEpochFx, B, U, (const void*)exp_apart<float, B, U, kEpochFx>});
  g_cands.push_back({256, B, U, (const void*)exp_apart<float, B, U, 256>});
  if (!g_apart) return;
  g_cands.push_back({4096, B, U, (const void*)exp_apart<float, B, U, 4096>});
  g_cands.push_back({65536, B, U, (const void*)exp_apart<float, B, U, 65536>});
  g_cands.push_back({1 << 20, B, U, (const void*)exp_apart<float, B, U, (1 << 20)>});
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
  size_t tiles = (nv + tile - 1) / tile;
  if (tiles == 0) tiles = 1;
  return unsigned(tiles < kMaxSlots ? tiles : kMaxSlots);
}

void launch(const Cand& c, const void* x, size_t n, void* result, void* scratch, cudaStream_t st) {
  void* args[] = {(void*)&x, (void*)&n, (void*)&result, (void*)&scratch};
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
  void* result;
  CK(cudaMalloc(&xi, maxn * 4));
  CK(cudaMalloc(&xf, maxn * 4));
  CK(cudaMalloc(&scratch, kScratchBytes));
  CK(cudaMalloc(&result, 64));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(scratch, 0, kScratchBytes));
  init_data<<<2048, 256>>>(xi, xf, maxn);
  CK(cudaDeviceSynchronize());
  std::vector<float> hf(maxn);
  CK(cudaMemcpy(hf.data(), xf, maxn * 4, cudaMemcpyDeviceToHost));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  std::vector<size_t> sizes;
  for (int k = 16; k <= 24; ++k) sizes.push_back(size_t(1) << k);
  if (mode == "check") {
    int bad = 0, runs = 0;
    std::vector<size_t> all = sizes;
    for (size_t odd : {size_t(1), size_t(1000), size_t(65537), (size_t(1) << 20) + 13})
      all.push_back(odd);
    for (size_t n : all) {
      double want = 0;
      for (size_t i = 0; i < n; ++i) want += hf[i];
      const long long want_i = static_cast<long long>(want);  // integers below 2^53: exact
      for (const Cand& c : g_cands) {
        if (c.f <= kStore && c.f != -kEpoch && c.f != -kEpochBlk && c.f != -kEpochFx) continue;
        unsigned first = 0;
        for (int r = 0; r < 30; ++r) {
          float got;
          if (c.f == kEpoch || c.f == kEpochBlk) {  // int32: the exact total
            launch(c, xi, n, result, scratch, st);
            unsigned char copy[kEpochScratchBytes];
            CK(cudaMemcpyAsync(copy, scratch, sizeof copy, cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
            ++runs;
            if (epoch_total_int32(copy) != want_i) {
              ++bad;
              std::printf("BAD epoch int32 B=%d U=%d n=%zu got %lld want %lld\n", c.B, c.U, n,
                          epoch_total_int32(copy), want_i);
              break;
            }
            continue;
          }
          launch(c, xf, n, result, scratch, st);
          if (c.f == -kEpoch || c.f == -kEpochBlk || c.f == -kEpochFx) {
            unsigned char copy[kEpochScratchBytes];
            CK(cudaMemcpyAsync(copy, scratch, sizeof copy, cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
            got = epoch_total_float32(copy);
          } else {
            CK(cudaMemcpyAsync(&got, result, 4, cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
          }
          ++runs;
          unsigned bits;
          std::memcpy(&bits, &got, 4);
          if (r == 0) first = bits;
          if (bits != first || std::fabs(got - want) > 1e-6 * want + 1e-3) {
            ++bad;
            std::printf("BAD %s B=%d U=%d n=%zu got %.9g want %.9g\n", name_of(c.f).c_str(), c.B,
                        c.U, n, got, want);
            break;
          }
        }
      }
    }
    std::printf("check: %d runs, %d wrong or nondeterministic\n", runs, bad);
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
        const bool is_int =
            c.f == kInt || c.f == kRed || c.f == kStore || c.f == kEpoch || c.f == kEpochBlk;
        launch(c, is_int ? (const void*)xi : (const void*)xf, n, result, scratch, st);
        // the reference leaves the counted word as it found it only by luck: clean it
        if (c.f == kCounted || c.f == kRed) CK(cudaMemsetAsync(scratch, 0, 4096, st));
        std::fprintf(log, "%d,%s,%d,%d,1,%d,%zu,%u\n", idx++, name_of(c.f).c_str(), c.B, c.U,
                     is_int ? 0 : 1, n, grid_of(c, n));
      }
    CK(cudaStreamSynchronize(st));
    std::fflush(log);
  }
  std::fclose(log);
  std::printf("profile: %d launches\n", idx);
  return 0;
}
