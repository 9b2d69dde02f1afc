// Experiment behind docs/benchmarks.md "The floor of event timing" (not part of the build):
// events around the kernel(s) on a stream, the same captured in a CUDA graph, and an empty event
// pair, each after an L2 flush; medians of 55 samples. Build against the sm_90 kernels library:
//   nvcc -arch=sm_90 -std=c++17 -O2 -I kernels docs/experiments/event_floor.cu \
//        build-gpu/kernels/librl_kernels.a -o event_floor
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#include "kernels/launch.h"
using namespace rl::kernels;
#define CK(x)                                        \
  do {                                               \
    cudaError_t e = (x);                             \
    if (e) {                                         \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                      \
    }                                                \
  } while (0)
static float med(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
int main() {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  size_t fb = 120u << 20;
  void* flush;
  CK(cudaMalloc(&flush, fb));
  CK(cudaMemset(flush, 0, fb));
  for (KernelId k : {KernelId::SinglePass, KernelId::CubDeviceReduce}) {
    for (int lg : {16, 20, 24, 26, 28}) {
      LaunchArgs args;
      args.kernel = k;
      args.type = DType::Int32;
      args.workspace = Workspace::Registers;
      args.block_size = k == KernelId::SinglePass ? 512 : 0;
      args.unroll = k == KernelId::SinglePass ? 4 : 1;
      args.n = size_t(1) << lg;
      args.stream = s;
      LaunchPlan p;
      CK(plan_launch(args, &p));
      CK(cudaMalloc(&args.input, p.input_capacity * 4));
      CK(cudaMemset(args.input, 1, p.input_capacity * 4));
      CK(cudaMalloc(&args.partials, std::max<size_t>(p.partial_count, 1) * 8));
      CK(cudaMalloc(&args.result, 8));
      if (p.scratch_bytes) {
        CK(cudaMalloc(&args.scratch, p.scratch_bytes));
        CK(cudaMemset(args.scratch, 0, p.scratch_bytes));
      }
      CK(cudaDeviceSynchronize());
      std::vector<float> plain, graph, empty;
      for (int i = 0; i < 60; ++i) {
        CK(flush_l2(flush, fb, s));
        CK(cudaEventRecord(a, s));
        CK(launch_first(args, p));
        CK(launch_finish(args, p));
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (i >= 5) plain.push_back(ms);
      }
      cudaGraph_t g;
      cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      CK(cudaEventRecordWithFlags(a, s, cudaEventRecordExternal));
      CK(launch_first(args, p));
      CK(launch_finish(args, p));
      CK(cudaEventRecordWithFlags(b, s, cudaEventRecordExternal));
      CK(cudaStreamEndCapture(s, &g));
      CK(cudaGraphInstantiate(&ge, g, 0));
      for (int i = 0; i < 60; ++i) {
        CK(flush_l2(flush, fb, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (i >= 5) graph.push_back(ms);
      }
      for (int i = 0; i < 60; ++i) {
        CK(flush_l2(flush, fb, s));
        CK(cudaEventRecord(a, s));
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (i >= 5) empty.push_back(ms);
      }
      printf("%s N=2^%d plain %.2f us  graph %.2f us  empty-pair %.2f us\n",
             k == KernelId::SinglePass ? "single_pass 512/4" : "cub_device", lg, 1e3 * med(plain),
             1e3 * med(graph), 1e3 * med(empty));
      cudaGraphExecDestroy(ge);
      cudaGraphDestroy(g);
      cudaFree(args.input);
      cudaFree(args.partials);
      cudaFree(args.result);
      if (args.scratch) cudaFree(args.scratch);
    }
  }
  return 0;
}
