// Experiment behind docs/benchmarks.md "Taking the timestamps out" (not part of the build).
// For each (kernel, N), after an L2 flush, medians (us) of:
//   one   events around the whole reduction (what the harness times)
//   s1 s2 the same with a middle event between the first kernel and the finishing pass
//   floor an empty event pair after a flush
//   tail  an empty event pair recorded right after a reduction's stop event
// Run plainly for the event numbers, and under
//   ncu --clock-control none --csv --metrics gpu__time_duration.sum -k regex:'^(?!read_through)'
// with MODE=ncu (only the "one" launches, ITER each) for the kernel durations to pair with.
// Build against the sm_90 kernels library:
//   nvcc -arch=sm_90 -std=c++17 -O2 -I kernels docs/experiments/timestamp_floor.cu \
//        build-gpu/kernels/librl_kernels.a -o timestamp_floor
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/launch.h"
using namespace rl::kernels;
#define CK(x)                                           \
  do {                                                  \
    cudaError_t err_ = (x);                             \
    if (err_) {                                         \
      printf("%s: %s\n", #x, cudaGetErrorString(err_)); \
      std::exit(1);                                     \
    }                                                   \
  } while (0)
static double med(std::vector<float> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return 1e3 * v[v.size() / 2];
}
static float ms(cudaEvent_t a, cudaEvent_t b) {
  float t;
  CK(cudaEventElapsedTime(&t, a, b));
  return t;
}

struct Config {
  const char* name;
  KernelId k;
  Workspace ws;
  int b, u;
};

int main() {
  const bool ncu = std::getenv("MODE") && !std::strcmp(std::getenv("MODE"), "ncu");
  const int iter = std::getenv("ITER") ? std::atoi(std::getenv("ITER")) : 60, warm = 5;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e[5];
  for (auto& x : e) CK(cudaEventCreate(&x));
  size_t fb = 120u << 20;
  void* flush;
  CK(cudaMalloc(&flush, fb));
  CK(cudaMemset(flush, 0, fb));
  const Config configs[] = {
      {"single_pass", KernelId::SinglePass, Workspace::Registers, 512, 4},
      {"single_pass", KernelId::SinglePass, Workspace::Registers, 1024, 4},
      {"cub_device_reduce", KernelId::CubDeviceReduce, Workspace::Registers, 0, 1},
      {"vectorized", KernelId::VectorizedGridStride, Workspace::Registers, 256, 4},
      {"reduceInterleaved", KernelId::Interleaved, Workspace::Shared, 256, 1}};
  printf("config B U N kernels | one s1 s2 floor tail | one-floor s1+s2-2floor\n");
  for (const Config& c : configs) {
    for (int lg : {16, 18, 20, 22, 24, 26, 28}) {
      LaunchArgs a;
      a.kernel = c.k;
      a.type = DType::Int32;
      a.workspace = c.ws;
      a.block_size = c.b;
      a.unroll = c.u;
      a.n = size_t(1) << lg;
      a.stream = s;
      LaunchPlan p;
      CK(plan_launch(a, &p));
      CK(cudaMalloc(&a.input, p.input_capacity * 4));
      CK(cudaMemset(a.input, 1, p.input_capacity * 4));
      CK(cudaMalloc(&a.partials, std::max<size_t>(p.partial_count, 1) * 8));
      CK(cudaMalloc(&a.result, 8));
      if (p.scratch_bytes) {
        CK(cudaMalloc(&a.scratch, p.scratch_bytes));
        CK(cudaMemset(a.scratch, 0, p.scratch_bytes));
      }
      CK(cudaDeviceSynchronize());
      std::vector<float> one, s1, s2, floor, tail;
      for (int i = 0; i < iter + warm; ++i) {
        const bool keep = i >= warm;
        CK(flush_l2(flush, fb, s));
        CK(cudaEventRecord(e[0], s));
        CK(launch_first(a, p));
        CK(launch_finish(a, p));
        CK(cudaEventRecord(e[1], s));
        CK(cudaEventRecord(e[2], s));
        CK(cudaEventRecord(e[3], s));
        CK(cudaEventSynchronize(e[3]));
        if (keep) one.push_back(ms(e[0], e[1])), tail.push_back(ms(e[2], e[3]));
        if (ncu) continue;
        if (p.needs_finish) {
          CK(flush_l2(flush, fb, s));
          CK(cudaEventRecord(e[0], s));
          CK(launch_first(a, p));
          CK(cudaEventRecord(e[1], s));
          CK(launch_finish(a, p));
          CK(cudaEventRecord(e[2], s));
          CK(cudaEventSynchronize(e[2]));
          if (keep) s1.push_back(ms(e[0], e[1])), s2.push_back(ms(e[1], e[2]));
        }
        CK(flush_l2(flush, fb, s));
        CK(cudaEventRecord(e[0], s));
        CK(cudaEventRecord(e[1], s));
        CK(cudaEventSynchronize(e[1]));
        if (keep) floor.push_back(ms(e[0], e[1]));
      }
      const int kernels = c.k == KernelId::CubDeviceReduce || p.needs_finish ? 2 : 1;
      const double f = med(floor);
      printf("%s %d %d 2^%d %d | %.3f %.3f %.3f %.3f %.3f | %.3f %.3f\n", c.name, c.b, c.u, lg,
             kernels, med(one), med(s1), med(s2), f, med(tail), med(one) - f,
             p.needs_finish ? med(s1) + med(s2) - 2 * f : 0.0);
      fflush(stdout);
      cudaFree(a.input);
      cudaFree(a.partials);
      cudaFree(a.result);
      if (a.scratch) cudaFree(a.scratch);
    }
  }
  return 0;
}
