// Experiment behind issue 17 (not part of the build): where the single pass loses time against the
// read floor at small N, and what thread-block clusters buy. Candidates, each at every shape:
//   floor<U>       the read floor (kernels/read_floor.cu's kernel)
//   sp<T,B,U,0>    the single pass as built at commit 279e1bb (shuffle block sum; float: fence +
//                  counter, the last block sums partials with a plain loop)
//   sp<T,B,U,1>    int32: REDUX block sum (two 24-bit halves); float32: release/acquire counter,
//                  the last block loads every partial before adding (unrolled)
//   cl<T,B,U,C>    as sp<..,1>, but the C blocks of a cluster add their sums through distributed
//                  shared memory first; one atomic (and one partial) per cluster; a grid of one
//                  cluster writes the result with no atomic at all
// Modes: `check` verifies every candidate at every size against a host sum and float32 bits over
// 100 runs; `profile` launches each 3 times per size for
//   ncu --clock-control none --cache-control all --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and writes the launch list (same order as ncu's IDs) to launches.csv; `floor` launches only the
// read floor's shapes (scripts/gpu-check.sh step floor17).
//   nvcc -O3 -std=c++20 -arch=sm_90 docs/experiments/single_pass_shapes.cu -o sps
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cuda/atomic>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

template <typename T>
struct Acc;
template <>
struct Acc<int> {
  using type = long long;
  using vec = int4;
};
template <>
struct Acc<float> {
  using type = float;
  using vec = float4;
};

constexpr unsigned kFull = 0xffffffffu;

template <typename V>
__device__ __forceinline__ V warp_shfl(V v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(kFull, v, o);
  return v;
}

template <typename V>
__device__ __forceinline__ V block_shfl(V v, int nwarps) {
  __shared__ V ws[32];
  v = warp_shfl(v);
  if (nwarps == 1) return v;
  if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = warp_shfl(int(threadIdx.x) < nwarps ? ws[threadIdx.x] : V(0));
  return v;
}

// REDUX on a 64-bit int below 2^48: two 24-bit halves, each warp sum < 2^29.
__device__ __forceinline__ long long warp_redux(long long v) {
  const unsigned lo = unsigned(v) & 0xffffffu, hi = unsigned(v >> 24);
  return (long long)__reduce_add_sync(kFull, lo) + ((long long)__reduce_add_sync(kFull, hi) << 24);
}
__device__ __forceinline__ long long block_redux(long long v, int nwarps) {
  __shared__ long long ws[32];
  v = warp_redux(v);
  if (nwarps == 1) return v;
  if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = warp_redux(int(threadIdx.x) < nwarps ? ws[threadIdx.x] : 0);
  return v;
}

template <typename T, int R>
__device__ __forceinline__ typename Acc<T>::type block_sum(typename Acc<T>::type v, int nwarps) {
  if constexpr (std::is_same_v<T, int> && R == 1)
    return block_redux(v, nwarps);
  else
    return block_shfl(v, nwarps);
}

template <typename V>
__device__ __forceinline__ auto lanes(const V& v) {
  return (v.x + v.y) + (v.z + v.w);
}

template <typename T, int B, int U>
__device__ __forceinline__ typename Acc<T>::type tiles_sum(const T* __restrict__ x, size_t n) {
  using A = typename Acc<T>::type;
  using V = typename Acc<T>::vec;
  constexpr size_t kTile = size_t(B) * U;
  const V* __restrict__ xv = reinterpret_cast<const V*>(x);
  const size_t nv = n / 4, full = nv / kTile;
  A acc = A(0);
  size_t t = blockIdx.x;
  for (; t < full; t += gridDim.x) {
    const V* p = xv + t * kTile + threadIdx.x;
    V v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = __ldg(p + k * B);
    T s = lanes(v[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes(v[k]);
    acc += s;
  }
  if (t == full) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const size_t i = full * kTile + threadIdx.x + size_t(k) * B;
      if (i < nv) acc += lanes(__ldg(xv + i));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) acc += x[nv * 4 + threadIdx.x];
  return acc;
}

// int32 finish: count in bits 48..63, sum below. `slot`, `slots`: this block's (cluster's) index
// and how many there are.
__device__ __forceinline__ void finish_counted(long long s, long long* result,
                                               unsigned long long* word, unsigned slots) {
  const unsigned long long mine = (1ull << 48) + (unsigned long long)s;
  const unsigned long long before = atomicAdd(word, mine);
  if ((before >> 48) == slots - 1) {
    *result = (long long)((before + mine) & ((1ull << 48) - 1));
    *word = 0;
  }
}

// float32 finish, old: fence, counter, plain loop.
template <int B>
__device__ __forceinline__ void finish_old(float s, float* result, float* partials,
                                           unsigned* counter) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s;
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
    if (last) __threadfence();
  }
  __syncthreads();
  if (!last) return;
  float acc = 0.0f;
  for (unsigned j = threadIdx.x; j < gridDim.x; j += B) acc += __ldcg(partials + j);
  acc = block_shfl(acc, B / 32);
  if (threadIdx.x == 0) {
    *result = acc;
    *counter = 0;
  }
}

// float32 finish, new: release/acquire counter; the last block's threads load their partials
// (slot t, t + B, ...) all at once, then add them in that fixed order: the same bits every run.
template <int B>
__device__ __forceinline__ void finish_acq_rel(float s, bool has, float* result, float* partials,
                                               unsigned* counter, unsigned slot, unsigned slots) {
  __shared__ bool last;
  if (threadIdx.x == 0 && has) {
    partials[slot] = s;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*counter);
    last = c.fetch_add(1u, cuda::memory_order_acq_rel) == slots - 1;
  }
  if (!has) return;
  __syncthreads();
  if (!last) return;
  float acc = 0.0f;
  constexpr int K = 8;
  for (unsigned base = 0; base < slots; base += K * B) {
    float v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned j = base + threadIdx.x + k * B;
      v[k] = j < slots ? __ldcg(partials + j) : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) acc += v[k];
  }
  acc = block_shfl(acc, B / 32);
  if (threadIdx.x == 0) {
    *result = acc;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*counter);
    c.store(0u, cuda::memory_order_relaxed);
  }
}

template <typename T, int B, int U, int R>
__global__ void __launch_bounds__(B)
    exp_sp(const T* __restrict__ x, size_t n, typename Acc<T>::type* result, char* scratch) {
  using A = typename Acc<T>::type;
  A s = tiles_sum<T, B, U>(x, n);
  s = block_sum<T, R>(s, B / 32);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) *result = s;
    return;
  }
  if constexpr (std::is_same_v<T, int>) {
    if (threadIdx.x == 0)
      finish_counted(s, result, reinterpret_cast<unsigned long long*>(scratch), gridDim.x);
  } else if constexpr (R == 0) {
    finish_old<B>(s, result, reinterpret_cast<float*>(scratch + 256),
                  reinterpret_cast<unsigned*>(scratch));
  } else {
    finish_acq_rel<B>(s, true, result, reinterpret_cast<float*>(scratch + 256),
                      reinterpret_cast<unsigned*>(scratch), blockIdx.x, gridDim.x);
  }
}

// Cluster: every block's sum goes to the leader's shared slots through DSMEM; after the cluster
// barrier the leader's first warp adds the C slots (a fixed tree) and finishes for the cluster.
template <typename T, int B, int U, int C>
__global__ void __launch_bounds__(B)
    exp_cl(const T* __restrict__ x, size_t n, typename Acc<T>::type* result, char* scratch) {
  using A = typename Acc<T>::type;
  __shared__ A slots[C];
  cg::cluster_group cluster = cg::this_cluster();
  A s = tiles_sum<T, B, U>(x, n);
  s = block_sum<T, 1>(s, B / 32);
  const unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) *cluster.map_shared_rank(&slots[rank], 0) = s;
  cluster.sync();
  const bool leader = rank == 0;
  if (leader && threadIdx.x < 32) {
    A v = threadIdx.x < C ? slots[threadIdx.x] : A(0);
    if constexpr (std::is_same_v<T, int>)
      v = warp_redux(v);
    else
      v = warp_shfl(v);
    s = v;
  }
  const unsigned clusters = gridDim.x / C, me = blockIdx.x / C;
  if (clusters == 1) {
    if (leader && threadIdx.x == 0) *result = s;
    return;
  }
  if constexpr (std::is_same_v<T, int>) {
    if (leader && threadIdx.x == 0)
      finish_counted(s, result, reinterpret_cast<unsigned long long*>(scratch), clusters);
  } else {
    finish_acq_rel<B>(s, leader, result, reinterpret_cast<float*>(scratch + 256),
                      reinterpret_cast<unsigned*>(scratch), me, clusters);
  }
}

// float32 finish, counted exponent windows: the block sum s = +-m * 2^E (m < 2^24) goes, as the
// integer m << (q % 8) with q = E + 149, into window word q / 8 (33 words: 32 windows and one
// for NaN/inf). A word is count (bits 48..63) + a sum biased by 2^31 per entry (bits 0..47):
// integer additions, so the windows hold the same bits whatever order the blocks arrive in. A
// separate counter finds the last block; its first warp reads the windows (again until their
// counts add up to every block: an add may still be on its way) and adds them in a fixed order.
__device__ __forceinline__ unsigned long long window_entry(float s, int* w) {
  const unsigned bits = __float_as_uint(s);
  const unsigned e = (bits >> 23) & 0xffu, mant = bits & 0x7fffffu;
  if (e == 0xffu) {  // NaN: field 0, +inf: field 1, -inf: field 2 of word 32
    *w = 32;
    const int f = mant ? 0 : ((bits >> 31) ? 2 : 1);
    return (1ull << 48) + (1ull << (16 * f));
  }
  const unsigned q = (e ? e : 1u) - 1u;
  const long long m = (long long)((e ? 0x800000u : 0u) | mant) << (q & 7u);
  *w = int(q >> 3);
  return (1ull << 48) + (unsigned long long)((bits >> 31 ? -m : m) + (1ll << 31));
}

template <int SPEC>
__device__ __forceinline__ void finish_windows(float s, bool has, float* result,
                                               unsigned long long* words, unsigned* counter,
                                               unsigned slots) {
  __shared__ bool last;
  if (threadIdx.x == 0 && has) {
    int w;
    const unsigned long long entry = window_entry(s, &w);
    atomicAdd(words + w, entry);
    last = atomicAdd(counter, 1u) == slots - 1;
  }
  if (!has) return;
  __syncthreads();
  if (!last || threadIdx.x >= 32) return;
  const unsigned lane = threadIdx.x;
  unsigned long long mine, special;
  for (;;) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> a(words[lane]), b(words[32]);
    mine = a.load(cuda::memory_order_relaxed);
    special = b.load(cuda::memory_order_relaxed);
    unsigned c = unsigned(mine >> 48);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(kFull, c, o);
    c += unsigned(special >> 48);
    if (c == slots) break;
    if (c > slots) {  // not this launch's entries: the scratch was not clean
      if (lane == 0) *result = __int_as_float(0x7fc00000);
      return;
    }
  }
  const long long count = (long long)(mine >> 48);
  const long long sum = (long long)(mine & ((1ull << 48) - 1)) - (count << 31);
  double v = ldexp(double(sum), int(8 * lane) - 149);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(kFull, v, o);
  words[lane] = 0;
  if (lane == 0) {
    const unsigned nan = unsigned(special & 0xffff), pinf = unsigned((special >> 16) & 0xffff),
                   ninf = unsigned((special >> 32) & 0xffff);
    float r = float(v);
    if (nan || (pinf && ninf))
      r = __int_as_float(0x7fc00000);
    else if (pinf)
      r = __int_as_float(0x7f800000);
    else if (ninf)
      r = __int_as_float(0xff800000);
    *result = r;
    words[32] = 0;
    *counter = 0;
  }
}

// sp2: int32 warps count themselves (no block barrier); float32 windows.
template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    exp_sp2(const T* __restrict__ x, size_t n, typename Acc<T>::type* result, char* scratch) {
  using A = typename Acc<T>::type;
  A s = tiles_sum<T, B, U>(x, n);
  if constexpr (std::is_same_v<T, int>) {
    s = warp_redux(s);
    const unsigned warps = gridDim.x * (B / 32);
    if (warps == 1) {
      if (threadIdx.x == 0) *result = s;
      return;
    }
    if (threadIdx.x % 32 == 0)
      finish_counted(s, result, reinterpret_cast<unsigned long long*>(scratch), warps);
  } else {
    s = block_shfl(s, B / 32);
    if (gridDim.x == 1) {
      if (threadIdx.x == 0) *result = s;
      return;
    }
    finish_windows<0>(s, true, result, reinterpret_cast<unsigned long long*>(scratch + (1 << 19)),
                      reinterpret_cast<unsigned*>(scratch), gridDim.x);
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
    xf[i] = float(z >> 40) * (1.0f / 16777216.0f);
  }
}

struct Cand {
  std::string name;
  int kind;  // 0 sp0, 1 sp1, 2 cluster
  int B, U, C;
  const void* fn[2];  // int, float
};

std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({"sp0",
                     0,
                     B,
                     U,
                     1,
                     {(const void*)exp_sp<int, B, U, 0>, (const void*)exp_sp<float, B, U, 0>}});
  g_cands.push_back({"sp1",
                     1,
                     B,
                     U,
                     1,
                     {(const void*)exp_sp<int, B, U, 1>, (const void*)exp_sp<float, B, U, 1>}});
  g_cands.push_back(
      {"sp2", 3, B, U, 1, {(const void*)exp_sp2<int, B, U>, (const void*)exp_sp2<float, B, U>}});
  g_cands.push_back({"cl2",
                     2,
                     B,
                     U,
                     2,
                     {(const void*)exp_cl<int, B, U, 2>, (const void*)exp_cl<float, B, U, 2>}});
  g_cands.push_back({"cl4",
                     2,
                     B,
                     U,
                     4,
                     {(const void*)exp_cl<int, B, U, 4>, (const void*)exp_cl<float, B, U, 4>}});
  g_cands.push_back({"cl8",
                     2,
                     B,
                     U,
                     8,
                     {(const void*)exp_cl<int, B, U, 8>, (const void*)exp_cl<float, B, U, 8>}});
  g_cands.push_back({"cl16",
                     2,
                     B,
                     U,
                     16,
                     {(const void*)exp_cl<int, B, U, 16>, (const void*)exp_cl<float, B, U, 16>}});
}

void build_cands() {
  add_shape<128, 1>();
  add_shape<128, 2>();
  add_shape<128, 4>();
  add_shape<256, 1>();
  add_shape<256, 2>();
  add_shape<256, 4>();
  add_shape<512, 1>();
  add_shape<512, 2>();
  add_shape<512, 4>();
  add_shape<512, 8>();
  add_shape<1024, 1>();
  add_shape<1024, 2>();
  add_shape<1024, 4>();
}

unsigned grid_of(const Cand& c, size_t n, int type) {
  const size_t nv = n / 4, tile = size_t(c.B) * c.U;
  size_t tiles = (nv + tile - 1) / tile;
  if (tiles == 0) tiles = 1;
  const size_t cap = (type == 0 || c.kind != 0) ? 16384 : 4096;
  size_t g = tiles < cap ? tiles : cap;
  if (c.kind == 3 && type == 0) g = std::min<size_t>(g, 65535 / (c.B / 32));
  g = (g + c.C - 1) / c.C * c.C;
  return unsigned(g);
}

// Launches candidate c; false (and a message) if the launch is refused.
bool launch(const Cand& c, int type, const void* x, size_t n, void* result, void* scratch,
            cudaStream_t st) {
  const unsigned grid = grid_of(c, n, type);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(c.B);
  cfg.stream = st;
  cudaLaunchAttribute attr[1];
  if (c.kind == 2) {
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = c.C;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  void* args[] = {(void*)&x, (void*)&n, (void*)&result, (void*)&scratch};
  const cudaError_t e = cudaLaunchKernelExC(&cfg, c.fn[type], args);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  build_cands();
  for (const Cand& c : g_cands)
    for (int t = 0; t < 2; ++t)
      if (c.C == 16)
        CK(cudaFuncSetAttribute(c.fn[t], cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const size_t maxn = size_t(1) << 28;
  int* xi;
  float* xf;
  char* scratch;
  void* result;
  int* sink;
  CK(cudaMalloc(&xi, maxn * 4));
  CK(cudaMalloc(&xf, maxn * 4));
  CK(cudaMalloc(&scratch, 1 << 20));
  CK(cudaMalloc(&result, 64));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(scratch, 0, 1 << 20));
  init_data<<<2048, 256>>>(xi, xf, maxn);
  CK(cudaDeviceSynchronize());
  std::vector<int> hi(maxn);
  std::vector<float> hf(maxn);
  CK(cudaMemcpy(hi.data(), xi, maxn * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hf.data(), xf, maxn * 4, cudaMemcpyDeviceToHost));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  std::vector<size_t> sizes;
  for (int k = 16; k <= 28; ++k) sizes.push_back(size_t(1) << k);
  if (mode == "check") {
    // awkward sizes too
    const size_t odd[] = {1, 3, 4, 5, 1000, 4097, 65537, 1000003, (size_t(1) << 20) + 13};
    std::vector<size_t> all = sizes;
    all.insert(all.end(), std::begin(odd), std::end(odd));
    int bad = 0, refused = 0, runs = 0;
    for (size_t n : all) {
      long long want_i = 0;
      double want_f = 0;
      for (size_t i = 0; i < n; ++i) want_i += hi[i], want_f += hf[i];
      for (const Cand& c : g_cands)
        for (int t = 0; t < 2; ++t) {
          unsigned first_bits = 0;
          const int reps =
              (t == 1 && (n == (1u << 16) || n == (1u << 20) || n == (1u << 24))) ? 100 : 2;
          for (int r = 0; r < reps; ++r) {
            CK(cudaMemsetAsync(result, 0xff, 8, st));
            if (!launch(c, t, t ? (void*)xf : (void*)xi, n, result, scratch, st)) {
              if (r == 0 && n == all[0])
                std::printf("refused: %s B=%d U=%d type=%d\n", c.name.c_str(), c.B, c.U, t);
              ++refused;
              break;
            }
            CK(cudaStreamSynchronize(st));
            ++runs;
            if (t == 0) {
              long long got;
              CK(cudaMemcpy(&got, result, 8, cudaMemcpyDeviceToHost));
              if (got != want_i) {
                ++bad;
                std::printf("WRONG %s B=%d U=%d int n=%zu got %lld want %lld\n", c.name.c_str(),
                            c.B, c.U, n, got, want_i);
              }
            } else {
              float got;
              CK(cudaMemcpy(&got, result, 4, cudaMemcpyDeviceToHost));
              unsigned bits;
              std::memcpy(&bits, &got, 4);
              if (r == 0)
                first_bits = bits;
              else if (bits != first_bits) {
                ++bad;
                std::printf("NONDETERMINISTIC %s B=%d U=%d n=%zu run %d\n", c.name.c_str(), c.B,
                            c.U, n, r);
                break;
              }
              if (std::fabs(got - want_f) > 1e-5 * want_f + 1e-3) {
                ++bad;
                std::printf("WRONG %s B=%d U=%d float n=%zu got %.9g want %.9g\n", c.name.c_str(),
                            c.B, c.U, n, got, want_f);
              }
            }
          }
        }
    }
    std::printf("check: %d runs, %d wrong or nondeterministic, %d refused launches\n", runs, bad,
                refused);
    return bad != 0;
  }
  if (mode == "one") {
    // one CAND B U TYPE N REPS: the read floor at (B, U, one tile per block up to 16384 blocks)
    // REPS times, then candidate CAND at (B, U) REPS times, on this process's one buffer: to
    // compare a kernel here with the same kernel run through reductionlab-cli under ncu.
    if (argc < 8) {
      std::printf("usage: sps one CAND B U TYPE(0 int32, 1 float32) N REPS\n");
      return 2;
    }
    const std::string name = argv[2];
    const int B = std::atoi(argv[3]), U = std::atoi(argv[4]), t = std::atoi(argv[5]);
    const size_t n = std::strtoull(argv[6], nullptr, 0);
    const int reps1 = std::atoi(argv[7]);
    const size_t vectors = n / 4;
    const size_t g = std::min<size_t>((vectors + size_t(B) * U - 1) / (size_t(B) * U), 16384);
    for (int r = 0; r < reps1; ++r) {
      if (U == 1)
        exp_floor<1><<<g, B, 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
      else if (U == 2)
        exp_floor<2><<<g, B, 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
      else
        exp_floor<4><<<g, B, 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
      CK(cudaGetLastError());
    }
    for (const Cand& c : g_cands)
      if (c.name == name && c.B == B && c.U == U)
        for (int r = 0; r < reps1; ++r)
          if (!launch(c, t, t ? (void*)xf : (void*)xi, n, result, scratch, st))
            std::printf("refused %s\n", name.c_str());
    CK(cudaStreamSynchronize(st));
    std::printf("one: done\n");
    return 0;
  }
  // profile
  FILE* log = std::fopen(argc > 2 ? argv[2] : "launches.csv", "w");
  std::fprintf(log, "idx,cand,B,U,C,type,n,grid\n");
  int idx = 0;
  const int reps = 3;
  struct Shape {
    int B, U, per_sm, cap;
  };
  const Shape floors[] = {{128, 1, 0, 0}, {256, 1, 0, 0},     {256, 4, 8, 0},
                          {512, 4, 4, 0}, {512, 4, 0, 16384}, {1024, 2, 2, 0}};
  for (size_t n : sizes) {
    for (const Shape& s : floors) {
      const size_t vectors = n / 4, per = size_t(s.B) * s.U;
      size_t g = (vectors + per - 1) / per;
      if (s.per_sm) g = std::min<size_t>(g, 132u * s.per_sm);
      if (s.cap) g = std::min<size_t>(g, s.cap);
      for (int r = 0; r < reps; ++r) {
        if (s.U == 1)
          exp_floor<1><<<g, s.B, 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
        else if (s.U == 2)
          exp_floor<2><<<g, s.B, 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
        else
          exp_floor<4><<<g, s.B, 0, st>>>((const int4*)xi, vectors, sink, 0x7fffffffu);
        CK(cudaGetLastError());
        std::fprintf(log, "%d,floor,%d,%d,1,-1,%zu,%zu\n", idx++, s.B, s.U, n, g);
      }
    }
    for (int t = 0; t < 2 && mode != "floor"; ++t)
      for (const Cand& c : g_cands) {
        // Large N: the cluster sizes 2 and 4 and the 128-thread shapes only below 2^22.
        if (n >= (size_t(1) << 22) && (c.B == 128 || c.C == 2 || c.C == 4 || c.U == 1)) continue;
        for (int r = 0; r < reps; ++r) {
          if (!launch(c, t, t ? (void*)xf : (void*)xi, n, result, scratch, st)) break;
          std::fprintf(log, "%d,%s,%d,%d,%d,%d,%zu,%u\n", idx++, c.name.c_str(), c.B, c.U, c.C, t,
                       n, grid_of(c, n, t));
        }
      }
    CK(cudaStreamSynchronize(st));
    std::fflush(log);
    std::fprintf(stderr, "n=%zu done, %d launches\n", n, idx);
  }
  std::fclose(log);
  std::printf("profile: %d launches\n", idx);
  return 0;
}
