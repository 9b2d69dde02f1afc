// Experiment behind the L2 preparation of kernels/l2_flush.cu (issue 10, item 4: the app's DRAM
// writes against ncu's). A probe kernel reads a 64 MiB input right after the input was restored by
// a device-to-device copy (which leaves L2 full of dirty lines) and one way of emptying L2; ncu
// (--cache-control none, so it adds no flush of its own) counts the probe's DRAM writes: the dirty
// lines the preparation left behind, written back while the probe runs.
//   nvcc -O3 -std=c++17 -arch=sm_90 docs/experiments/l2_flush_variants.cu -o l2v
//   ncu --cache-control none --clock-control none --csv --metrics \
//     dram__bytes_write.sum,dram__bytes_read.sum,gpu__time_duration.sum -k regex:probe ./l2v
// Ways: 0 none; 1 read a zeroed buffer of 2x L2 through the read-only path (the app's flush
// before this experiment); 2 the same with plain loads (ld.global.cg); 3 read with an evict_last
// L2 policy, then discard those lines (discard.global.L2: invalidated, never written back);
// 4 write (memset) 2x L2; 5 way 1 twice.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

__global__ void read_nc(const int4* __restrict__ b, size_t count, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = __ldg(b + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

__global__ void read_cg(const int4* b, size_t count, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = __ldcg(b + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

__global__ void read_evict_last(const int4* b, size_t count, int* sink) {
  unsigned long long policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    int4 v;
    asm volatile("ld.global.L2::cache_hint.v4.s32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(b + i), "l"(policy));
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

// Invalidates every 128-byte line of the buffer in L2 (no write-back: the lines are clean).
__global__ void discard_lines(char* b, size_t bytes) {
  for (size_t i = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * 128; i + 128 <= bytes;
       i += size_t(gridDim.x) * blockDim.x * 128)
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(b + i) : "memory");
}

__global__ void probe(const int4* __restrict__ x, size_t count, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
       i += size_t(gridDim.x) * blockDim.x) {
    const int4 v = __ldg(x + i);
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 0x7fffffff) *sink = acc;
}

int main() {
  int l2 = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const size_t n_bytes = size_t(64) << 20, fbytes = size_t(l2) * 2;
  char *x, *pristine, *flush;
  int* sink;
  CK(cudaMalloc(&x, n_bytes));
  CK(cudaMalloc(&pristine, n_bytes));
  CK(cudaMalloc(&flush, fbytes));
  CK(cudaMalloc(&sink, 64));
  CK(cudaMemset(pristine, 1, n_bytes));
  CK(cudaMemset(flush, 0, fbytes));
  CK(cudaDeviceSynchronize());
  const size_t fcount = fbytes / 16 - 1;
  for (int way = 0; way <= 5; ++way)
    for (int dirty = 0; dirty < 2; ++dirty)
      for (int r = 0; r < 3; ++r) {
        if (dirty) CK(cudaMemcpy(x, pristine, n_bytes, cudaMemcpyDeviceToDevice));
        switch (way) {
          case 1:
            read_nc<<<1024, 256>>>((const int4*)flush, fcount, sink);
            break;
          case 2:
            read_cg<<<1024, 256>>>((const int4*)flush, fcount, sink);
            break;
          case 3:
            read_evict_last<<<1024, 256>>>((const int4*)flush, fcount, sink);
            discard_lines<<<1024, 256>>>(flush, fbytes);
            break;
          case 4:
            CK(cudaMemset(flush, 0, fbytes));
            break;
          case 5:
            read_nc<<<1024, 256>>>((const int4*)flush, fcount, sink);
            read_nc<<<1024, 256>>>((const int4*)flush, fcount, sink);
            break;
          default:
            break;
        }
        CK(cudaGetLastError());
        probe<<<2048, 512>>>((const int4*)x, n_bytes / 16, sink);
        CK(cudaDeviceSynchronize());
        std::printf("way %d dirty %d rep %d\n", way, dirty, r);
      }
  return 0;
}
