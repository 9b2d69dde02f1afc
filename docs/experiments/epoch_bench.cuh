// What the epoch-pass experiments of 2026-12-04 share (not part of the build):
// float_code_layout.cu, float_warp_ablate.cu and epoch_red_replicas.cu
// (docs/data/h200-float-ablate-2026-12-04). The inputs (the app's integers in [0, 255], or
// VALUES=wide floats over 40 binades), the read floor's kernel in its five shapes, the grid of a
// shape, the launch list that docs/experiments/ab_table.py and single_pass_shapes.py join with
// ncu's CSV, and CANDS=a,b,... to run only some candidates. Each experiment keeps its own kernels
// and modes.
// Builds against the product headers of ebce1d7 or before (a git worktree of that commit): the
// epoch pass since (37b4def) takes no ticket, and modern_epoch.cuh has no epoch_begin.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <type_traits>

#include "kernels/epoch_total.h"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"  // kMaxSlots
#include "modern_tiles.cuh"

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

namespace epoch_bench {

// The read floor's kernel (kernels/read_floor.cu's, as docs/experiments/single_pass_shapes.cu).
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

// The product's epoch pass (kernels/modern_epoch.cu at the experiment's commit), its scratch
// layout (since 2026-12-04 session 18 int32's word is kEpochInt32Word; kWord0 keeps it in word
// 0, the layout before, for float_fixed_grid.cu's int_w0). kSlots (float_code_layout.cu): 0 both
// slot kinds compiled in and the grid picks, as the product; 1 warp slots only; 2 block slots only
// (launched only on grids that take them).
template <typename T, int B, int U, int kSlots = 0, bool kWord0 = false>
__global__ void __launch_bounds__(B)
    exp_product_epoch(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using namespace rl::kernels;
  using namespace rl::kernels::modern;
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = kSlots == 0 ? warp_slots <= 512 : kSlots == 1;
  if constexpr (kWord0) {  // the int32 layout before: word 0, the accumulators' first lines
    if (blockIdx.x == 0 && threadIdx.x < 2)
      asm volatile("prefetch.global.L2 [%0];" ::"l"(scratch + kEpochTotals +
                                                    kEpochTotalStride * threadIdx.x));
  } else {
    epoch_prefetch(scratch, !kInt32);
  }
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  A sum = tile_thread_sum<T, B, U>(x, n);
  constexpr unsigned kIntWord = kWord0 ? 0u : unsigned(kEpochInt32Word);
  int word = kInt32 ? int(kIntWord) : 0;
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
                kInt32 ? kIntWord : 0u, kInt32 ? 1u : unsigned(kEpochTotalWords));
}

// As the app's inputs: integers in [0, 255]; float32 also with a spread of exponents (kind 1,
// VALUES=wide) or in [0, 1) with 24 bits (kind 2, VALUES=unit).
__global__ void init_data(int* xi, float* xf, size_t n, int kind) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    xi[i] = int(z & 255);
    xf[i] = kind == 1   ? ldexpf(float(z & 0xffffff) - 8388608.0f, int((z >> 24) % 40) - 20)
            : kind == 2 ? ldexpf(float(z & 0xffffff), -24)
                        : float(z & 255);
  }
}

// The epoch pass's grid for a shape: one block per tile, at most kMaxSlots.
inline unsigned grid_of(int B, int U, size_t n) {
  const size_t nv = n / 4, tile = size_t(B) * U;
  const size_t tiles = std::max<size_t>((nv + tile - 1) / tile, 1);
  return unsigned(std::min<size_t>(tiles, rl::kernels::modern::kMaxSlots));
}

// Calls add(B, U) with B and U as std::integral_constant for every shape the experiments build:
// B in 128, 256, 512, 1024 and U in 1, 2, 4, 8, in that order.
template <typename Add>
void for_each_shape(Add add) {
  auto each_unroll = [&](auto b) {
    add(b, std::integral_constant<int, 1>{});
    add(b, std::integral_constant<int, 2>{});
    add(b, std::integral_constant<int, 4>{});
    add(b, std::integral_constant<int, 8>{});
  };
  each_unroll(std::integral_constant<int, 128>{});
  each_unroll(std::integral_constant<int, 256>{});
  each_unroll(std::integral_constant<int, 512>{});
  each_unroll(std::integral_constant<int, 1024>{});
}

// Launches an epoch-pass-shaped kernel (x, n, scratch) at a shape's grid.
inline void launch_shape(const void* fn, int B, int U, const void* x, size_t n, void* scratch,
                         cudaStream_t st) {
  void* args[] = {(void*)&x, (void*)&n, (void*)&scratch};
  CK(cudaLaunchKernel(fn, dim3(grid_of(B, U, n)), dim3(B), args, 0, st));
}

inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

// CANDS=name,name,...: whether a candidate is chosen (all when CANDS is unset or empty).
inline bool chosen(const char* name) {
  const char* env = std::getenv("CANDS");
  const std::string cands = env ? env : "";
  return cands.empty() ||
         ("," + cands + ",").find("," + std::string(name) + ",") != std::string::npos;
}

// The inputs on the device (2^24 of each type) and on the host (float32, for the checks).
struct Inputs {
  int* xi = nullptr;
  float* xf = nullptr;
  int* sink = nullptr;
  bool wide = false;  // float32 inputs that are not the integers (VALUES=wide or unit)
  cudaStream_t st = nullptr;
  std::vector<float> hf;
};
inline Inputs make_inputs(size_t maxn = size_t(1) << 24) {
  Inputs in;
  CK(cudaMalloc(&in.xi, maxn * 4));
  CK(cudaMalloc(&in.xf, maxn * 4));
  CK(cudaMalloc(&in.sink, 64));
  const std::string values = std::getenv("VALUES") ? std::getenv("VALUES") : "";
  const int kind = values == "wide" ? 1 : values == "unit" ? 2 : 0;
  in.wide = kind != 0;
  init_data<<<2048, 256>>>(in.xi, in.xf, maxn, kind);
  CK(cudaDeviceSynchronize());
  in.hf.resize(maxn);
  CK(cudaMemcpy(in.hf.data(), in.xf, maxn * 4, cudaMemcpyDeviceToHost));
  CK(cudaStreamCreateWithFlags(&in.st, cudaStreamNonBlocking));
  return in;
}

// The sizes of `profile` and the odd ones `check` adds.
inline std::vector<size_t> profile_sizes() {
  std::vector<size_t> sizes;
  for (int k = 16; k <= 24; ++k) sizes.push_back(size_t(1) << k);
  return sizes;
}
inline std::vector<size_t> check_sizes() {
  std::vector<size_t> all = profile_sizes();
  for (size_t odd : {size_t(1), size_t(1000), size_t(65537), (size_t(1) << 20) + 13})
    all.push_back(odd);
  return all;
}

// The ab mode's four shapes (B, U).
inline bool ab_shape(int B, int U) {
  return (B == 256 && U == 2) || (B == 512 && U == 2) || (B == 1024 && U == 4) ||
         (B == 256 && U == 4);
}

// The launch list, in launch order (ncu's order): idx,cand,B,U,C,type,n,grid.
struct LaunchLog {
  FILE* f;
  int idx = 0;
  explicit LaunchLog(const char* path) : f(std::fopen(path, "w")) {
    std::fprintf(f, "idx,cand,B,U,C,type,n,grid\n");
  }
  ~LaunchLog() { std::fclose(f); }
  void flush() { std::fflush(f); }
  void add(const std::string& cand, int B, int U, int type, size_t n, size_t grid) {
    std::fprintf(f, "%d,%s,%d,%d,1,%d,%zu,%zu\n", idx++, cand.c_str(), B, U, type, n, grid);
  }
};

// The read floor's kernel in its five shapes at size n, `reps` launches each (type -1).
inline void launch_floor_shapes(const Inputs& in, size_t n, int reps, LaunchLog& log) {
  const int shapes[][2] = {{128, 1}, {256, 1}, {256, 4}, {512, 4}, {1024, 2}};
  for (const auto& s : shapes) {
    const size_t vectors = n / 4, per = size_t(s[0]) * s[1];
    const size_t g = std::min<size_t>((vectors + per - 1) / per, 16384);
    for (int r = 0; r < reps; ++r) {
      const int4* x = reinterpret_cast<const int4*>(in.xi);
      if (s[1] == 1)
        exp_floor<1><<<g, s[0], 0, in.st>>>(x, vectors, in.sink, 0x7fffffffu);
      else if (s[1] == 2)
        exp_floor<2><<<g, s[0], 0, in.st>>>(x, vectors, in.sink, 0x7fffffffu);
      else
        exp_floor<4><<<g, s[0], 0, in.st>>>(x, vectors, in.sink, 0x7fffffffu);
      CK(cudaGetLastError());
      log.add("floor", s[0], s[1], -1, n, g);
    }
  }
}

// A host reference of the first n inputs: the float32 sum as a double, its magnitude, and the
// int32 sum.
struct Reference {
  double sum = 0, magnitude = 0;
  long long int_sum = 0;
};
inline Reference reference(const Inputs& in, size_t n) {
  Reference r;
  for (size_t i = 0; i < n; ++i) {
    r.sum += in.hf[i];
    r.magnitude += in.hf[i] < 0 ? -in.hf[i] : in.hf[i];
    r.int_sum += int(in.hf[i]);
  }
  return r;
}

// Whether a float32 total is right (within 1e-6 of the inputs' magnitude) and has the bits of
// the first of its runs (`first` set on run 0).
inline bool float_total_ok(float got, const Reference& want, int run, unsigned* first) {
  unsigned bits;
  std::memcpy(&bits, &got, 4);
  if (run == 0) *first = bits;
  const double err = got - want.sum;
  return bits == *first && (err < 0 ? -err : err) <= 1e-6 * want.magnitude + 1e-30;
}

// The modes every experiment has, over its list of candidates.
struct Candidate {
  std::string name;
  int B, U;
  bool reads_float;
  bool exact_for_wide;  // false: an ablation right for the integer inputs only
  // Where its input is read from when that is not its type's buffer (float_fixed_grid.cu's
  // int_on_f, fx_on_i: the other type's bytes, timed only, never checked): 0 its own, 1 the
  // float32 buffer, 2 the int32 buffer.
  int buffer = 0;
};
struct Experiment {
  std::vector<Candidate> cands;
  // Launches candidate k on the first n inputs of its type with its scratch at `scratch`.
  std::function<void(size_t k, const void* x, size_t n, char* scratch)> launch;
  // Candidate k's scratch in round r (experiments that rotate the places use r).
  std::function<char*(size_t k, int r)> scratch;
  // The first kEpochScratchBytes of candidate k's scratch in the product's layout (for the
  // readers of kernels/epoch_total.h), copied from the device.
  std::function<std::vector<unsigned char>(size_t k, char* scratch, cudaStream_t st)> copy;

  const void* input(const Inputs& in, size_t k) const {
    const int b = cands[k].buffer;
    return b == 1 || (b == 0 && cands[k].reads_float) ? (const void*)in.xf : (const void*)in.xi;
  }
  void run(const Inputs& in, size_t k, size_t n, char* at, LaunchLog& log,
           const std::string& name) const {
    launch(k, input(in, k), n, at);
    log.add(name, cands[k].B, cands[k].U, cands[k].reads_float ? 1 : 0, n,
            grid_of(cands[k].B, cands[k].U, n));
  }
};

// The product's layout as it is (experiments whose scratch is the product's).
inline std::vector<unsigned char> copy_product_scratch(char* scratch, cudaStream_t st) {
  std::vector<unsigned char> copy(rl::kernels::kEpochScratchBytes);
  CK(cudaMemcpyAsync(copy.data(), scratch, copy.size(), cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  return copy;
}

// check: every candidate at every check size, 30 launches each, against the host: int32
// exactly (integer inputs), float32 within 1e-6 of the magnitude and the same bits every run.
inline int check_mode(const Inputs& in, const Experiment& e) {
  int bad = 0, runs = 0;
  for (size_t n : check_sizes()) {
    const Reference want = reference(in, n);
    for (size_t k = 0; k < e.cands.size(); ++k) {
      const Candidate& c = e.cands[k];
      if ((in.wide && !c.exact_for_wide) || c.buffer != 0) continue;
      unsigned first = 0;
      for (int r = 0; r < 30; ++r) {
        char* at = e.scratch(k, 0);
        e.launch(k, e.input(in, k), n, at);
        const std::vector<unsigned char> copy = e.copy(k, at, in.st);
        ++runs;
        if (!c.reads_float) {
          if (!in.wide && rl::kernels::epoch_total_int32(copy.data()) != want.int_sum) {
            ++bad;
            std::printf("BAD %s B=%d U=%d n=%zu\n", c.name.c_str(), c.B, c.U, n);
            break;
          }
          continue;
        }
        const float got = rl::kernels::epoch_total_float32(copy.data());
        if (!float_total_ok(got, want, r, &first)) {
          ++bad;
          std::printf("BAD %s B=%d U=%d n=%zu got %.9g want %.9g\n", c.name.c_str(), c.B, c.U, n,
                      got, want.sum);
          break;
        }
      }
    }
  }
  const char* values = std::getenv("VALUES");
  std::printf("check (%s values): %d runs, %d wrong or nondeterministic\n",
              values && *values ? values : "integer", runs, bad);
  return bad != 0;
}

// ab: the four fixed shapes at 2^16, 2^18, 2^20, 2^22, ROUNDS rounds (default `rounds`), the
// chosen candidates interleaved in each.
inline int ab_mode(const Inputs& in, const Experiment& e, LaunchLog& log, int rounds) {
  rounds = env_int("ROUNDS", rounds);
  for (size_t n : {size_t(1) << 16, size_t(1) << 18, size_t(1) << 20, size_t(1) << 22})
    for (int r = 0; r < rounds; ++r)
      for (size_t k = 0; k < e.cands.size(); ++k)
        if (ab_shape(e.cands[k].B, e.cands[k].U) && chosen(e.cands[k].name.c_str()))
          e.run(in, k, n, e.scratch(k, r), log, e.cands[k].name);
  CK(cudaStreamSynchronize(in.st));
  std::printf("ab: %d launches\n", log.idx);
  return 0;
}

// profile: at every profile size, the read floor's shapes, then every chosen candidate's, 3
// launches each.
inline int profile_mode(const Inputs& in, const Experiment& e, LaunchLog& log) {
  for (size_t n : profile_sizes()) {
    launch_floor_shapes(in, n, 3, log);
    for (size_t k = 0; k < e.cands.size(); ++k)
      if (chosen(e.cands[k].name.c_str()))
        for (int r = 0; r < 3; ++r) e.run(in, k, n, e.scratch(k, r), log, e.cands[k].name);
    CK(cudaStreamSynchronize(in.st));
    log.flush();
  }
  std::printf("profile: %d launches\n", log.idx);
  return 0;
}

}  // namespace epoch_bench
