// Experiment for issue 10, item 4 (the app's counters within 2 pp / 5% of ncu's): does Nsight
// Compute repeat itself on the kernels where the app and ncu disagree, in a program that has
// nothing of the app in it? The seed's set-up (N = 2^24 int32, B = 1024): `first` is
// reduceInterleaved in place (the interleaved tree over the block's tile of the input, a barrier
// per level), one 64-bit partial per block; `finish` is the app's finishing pass
// (kernels/finish.cu): one block of 1024 threads, each adding partials tid, tid + 1024, ..., then
// the interleaved tree. Rounds of first + finish, back to back on one stream, as in a timed sample.
//   nvcc -O3 -std=c++17 -arch=sm_90 docs/experiments/ncu_repeatability.cu -o ncurep
//   ncu --clock-control none --cache-control all --csv --metrics <M> -k regex:'first|finish' \
//     ./ncurep MODE ROUNDS
// MODE: plain (nothing between the kernels), or flush (before each kernel, the app's counter-pass
// L2 flush of kernels/l2_flush.cu: a zeroed buffer of twice L2 read through the read-only path).
// The program checks each round's total against the host's and prints it. Runs on the H200
// (2026-12-03): docs/data/h200-ncu-repeatability-2026-12-03/, write-up in docs/benchmarks.md
// section 4 ("Re-measured on 2026-12-03"): the first kernel repeats to 0.3 points; the finishing
// pass's stall shares move by up to 11.5 points between ncu's own launches, and its L2 hit rate
// is 27 points apart between ncu's two replay modes.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kBlock = 1024;

// reduceInterleaved, in place on the input (the seed's kernel): the tree over the block's tile.
__global__ void __launch_bounds__(kBlock) first(int* in, long long* partials) {
  int* tile = in + size_t(blockIdx.x) * kBlock;
  const unsigned tid = threadIdx.x;
  for (unsigned stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) tile[tid] += tile[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = tile[0];
}

// The app's finishing pass for 64-bit partials.
__global__ void __launch_bounds__(kBlock)
    finish(const long long* __restrict__ partials, size_t m, long long* __restrict__ result) {
  __shared__ long long s[kBlock];
  const unsigned tid = threadIdx.x;
  long long acc = 0;
  for (size_t i = tid; i < m; i += kBlock) acc += partials[i];
  s[tid] = acc;
  __syncthreads();
  for (unsigned stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) *result = s[0];
}

// The app's flush (kernels/l2_flush.cu): read a zeroed buffer of twice L2 through the read-only
// path, so L2 holds clean lines of it and nothing of the kernels'.
__global__ void read_through(const int4* __restrict__ b, size_t count, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = __ldg(b + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

int main(int argc, char** argv) {
  const bool flush = argc > 1 && std::strcmp(argv[1], "flush") == 0;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const size_t n = size_t(1) << 24, blocks = n / kBlock;
  std::vector<int> host(n);
  long long want = 0;
  for (size_t i = 0; i < n; ++i)
    want += host[i] = int(unsigned(i * 2654435761u) >> 24);  // [0, 255]
  int *in = nullptr, *sink = nullptr;
  long long *partials = nullptr, *result = nullptr;
  int4* flush_buf = nullptr;
  int l2 = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const size_t flush_count = 2 * size_t(l2) / sizeof(int4);
  CK(cudaMalloc(&in, n * sizeof(int)));
  CK(cudaMalloc(&partials, blocks * sizeof(long long)));
  CK(cudaMalloc(&result, sizeof(long long)));
  CK(cudaMalloc(&sink, sizeof(int)));
  CK(cudaMalloc(&flush_buf, flush_count * sizeof(int4)));
  CK(cudaMemset(flush_buf, 0, flush_count * sizeof(int4)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int r = 0; r < rounds; ++r) {
    // The seed's kernel works in place: every round starts from the input again.
    CK(cudaMemcpyAsync(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice, s));
    if (flush) read_through<<<264, 1024, 0, s>>>(flush_buf, flush_count, sink);
    first<<<unsigned(blocks), kBlock, 0, s>>>(in, partials);
    if (flush) read_through<<<264, 1024, 0, s>>>(flush_buf, flush_count, sink);
    finish<<<1, kBlock, 0, s>>>(partials, blocks, result);
    CK(cudaGetLastError());
    long long got = 0;
    CK(cudaMemcpyAsync(&got, result, sizeof got, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    std::printf("round %d mode %s total %lld %s\n", r, flush ? "flush" : "plain", got,
                got == want ? "ok" : "WRONG");
  }
  CK(cudaStreamDestroy(s));
  return 0;
}
