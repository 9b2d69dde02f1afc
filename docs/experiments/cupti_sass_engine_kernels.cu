// Experiment behind issue 11's line counts (not part of the build), the sequel of
// cupti_sass_sessions.cu: its probe, plus modes that count this engine's own kernels from the
// built kernels library (build-gpu/kernels/librl_kernels.a), launched through kernels/launch.h:
//   X  reduceInterleaved at 2^20 (B=256, global workspace) and its finishing pass, default stream
//   Y  the same on a non-blocking stream       Z  X with lazy patching off
//   W N [MS]  reduceInterleaved at N elements, waiting MS ms before reading (NOFIN=1: no
//             finishing pass); GRAN_SM=1 asks per-SM values; BLOCKS=K sets the probe kernel's grid
//   T G  the same tree kernel copied into this file, G blocks of 256
//   R G WHAT  parts of T switched on one by one (parts_kernel's comment)
//   U G  T with __syncwarp() for the barrier      V G  the probe with one __syncthreads(), G x 256
// Built here and run on the lent H200 (driver 580.159.04, CUDA 13.0's CUPTI), 2026-12-01:
//   nvcc -std=c++17 -arch=sm_90 -Ikernels/include-engine -Ikernels/include \
//        docs/experiments/cupti_sass_engine_kernels.cu build-gpu/kernels/librl_kernels.a -o sp2 \
//        -L/usr/local/cuda/lib -lcupti -lcuda
// Results (first session): the probe kernel is counted at 4, 64 and 1024 blocks (28 records);
// the engine's reduce_interleaved at 256 and 512 elements but not at 4096 (16 blocks) and more, in
// any of the ways tried (finishing pass or not, waiting, per-SM values, lazy patching off: Z is
// refused, code 1).
// Results (2026-12-01, second session, each line a fresh process; records of the counted kernel):
//   T 1, 2, 4: 34 records; T 8, 16, 132, 1024: 0. U 2: 34; U 16, 1024: 0. V 2, 16, 1024: 29.
//   R G WHAT with the cudaMemset of the input: G x 256 x 4 bytes of 4 KiB counts (47 records,
//   every WHAT), 8 KiB and more (G = 8, 64; 32 x 64; 2 x 1024 threads) gives 0, every WHAT;
//   NOMEMSET=1: 47 records at G = 8, 64 and 1024, whatever the kernel does.
//   V 16 with, inside the range before the kernel: EXTRA_MEMSET 1024, 4096: 29; 8192, 65536,
//   16 MiB: 0. EXTRA_COPY (host to device) of any of those sizes: 29. EXTRA_D2D 64 KiB, 16 MiB: 0.
//   PRE_KERNEL=1 (other_kernel first): 15 records, all other_kernel's; POST_KERNEL=1 (probe_kernel
//   after): 29, all probe_bar's: one kernel per range.
//   V 16 with, before the range: PRE_COPY 64 KiB, 16 MiB: 29; PRE_MEMSET 4096: 29, 65536: 0;
//   PRE_OTHER (another kernel): 0; PRE_RANGE (the same kernel at 16 x 256): 0; B (the probe at
//   4 x 128 before, the same inside): 28; E: 28.
// So the grid size was never the cause: the cudaMemset of the input (a kernel from 8 KiB, a
// copy-engine write below) ran first. What is safe, and what the engine does
// (engine/include/engine/counters/line_count_pass.h): a fresh process, the input uploaded with
// host-to-device copies only, no kernel before the counted one, one launch step per process.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "kernels/launch.h"
#define CK(x)                                      \
  do {                                             \
    auto r_ = (x);                                 \
    if (r_ != 0) {                                 \
      std::printf("%s failed: %d\n", #x, int(r_)); \
      std::exit(1);                                \
    }                                              \
  } while (0)
// The seed's reduceInterleaved, global workspace, copied here.
__global__ void tree_copy(int* input, long long* partials) {
  int* ws = input + blockIdx.x * blockDim.x;
  const unsigned tid = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
// The same tree with __syncwarp() for the barrier (wrong sums across warps, the same shape of
// code without BAR.SYNC): mode U.
__global__ void tree_nobar(int* input, long long* partials) {
  int* ws = input + blockIdx.x * blockDim.x;
  const unsigned tid = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncwarp();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
// The probe kernel with one __syncthreads() and no branch around it: mode V.
__global__ void probe_bar(int* out, int n) {
  int s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += i & 7;
  __syncthreads();
  if (threadIdx.x % 2) s *= 3;
  atomicAdd(out, s);
}
// Mode R G WHAT: one kernel with what T has, each part switched by a flag (what = bits): 1 global
// loads of the block's tile, 2 a store of each thread's value back (in place), 4 the per-block
// partial store, 8 a loop of eight steps with a branch on tid, 16 an atomicAdd to one word.
__global__ void parts_kernel(int* input, long long* partials, int* out, int what) {
  int* ws = input + blockIdx.x * blockDim.x;
  const unsigned tid = threadIdx.x;
  int v = int(tid);
  if (what & 1) v = ws[tid];
  if (what & 8)
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1)
      if (tid < stride) v += int(stride);
  if (what & 2) ws[tid] = v;
  if ((what & 4) && tid == 0) partials[blockIdx.x] = v;
  if (what & 16) atomicAdd(out, v);
}
__global__ void other_kernel(int* out, int n) {
  if (threadIdx.x < n) atomicAdd(out, int(threadIdx.x));
}
__global__ void probe_kernel(int* out, int n) {
  int s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += i & 7;
  if (threadIdx.x % 2) s *= 3;
  atomicAdd(out, s);
}
int main(int argc, char** argv) {
  const char mode = argc > 1 ? argv[1][0] : 'A';
  const bool lazy = !(mode == 'D' || mode == 'E' || mode == 'Z');
  int* out;
  CK(cudaMalloc(&out, 4));
  CUcontext ctx;
  CK(cuCtxGetCurrent(&ctx));
  if (mode == 'B' || mode == 'E') {
    probe_kernel<<<4, 128>>>(out, 1000);
    CK(cudaDeviceSynchronize());
  }
  if (mode == 'C') {
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, probe_kernel));
  }
  if (mode == 'F') {
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    probe_kernel<<<4, 128, 0, s>>>(out, 1000);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphDestroy(g));
  }
  if (mode == 'G' || mode == 'H') {
    CUpti_PCSamplingEnableParams pe = {CUpti_PCSamplingEnableParamsSize};
    pe.ctx = ctx;
    CK(cuptiPCSamplingEnable(&pe));
    if (mode == 'H') {
      CUpti_PCSamplingDisableParams pd = {CUpti_PCSamplingDisableParamsSize};
      pd.ctx = ctx;
      CK(cuptiPCSamplingDisable(&pd));
    }
  }
  CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CK(cuptiProfilerInitialize(&ip));
  CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  cn.deviceIndex = 0;
  CK(cuptiDeviceGetChipName(&cn));
  CUpti_SassMetrics_GetProperties_Params gp = {CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
  gp.pChipName = cn.pChipName;
  gp.pMetricName = "smsp__sass_inst_executed";
  CK(cuptiSassMetricsGetProperties(&gp));
  CUpti_SassMetrics_Config cfg = {
      gp.metric.metricId, uint8_t(getenv("GRAN_SM") ? CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_SM
                                                    : CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU)};
  CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  sc.numOfMetricConfig = 1;
  sc.pConfigs = &cfg;
  sc.deviceIndex = 0;
  CK(cuptiSassMetricsSetConfig(&sc));
  // Mode V's set-up before the range: PRE_RANGE=1 launches the counted kernel once,
  // PRE_MEMSET=BYTES a cudaMemset.
  if (mode == 'V' && getenv("PRE_RANGE")) {
    probe_bar<<<std::atoi(argv[2]), 256>>>(out, 1000);
    CK(cudaDeviceSynchronize());
  }
  if (mode == 'V' && getenv("PRE_OTHER")) {  // another kernel of this file first
    other_kernel<<<1, 64>>>(out, 10);
    CK(cudaDeviceSynchronize());
  }
  if (mode == 'V' && getenv("PRE_COPY")) {  // a host-to-device copy first (no kernel)
    void* p;
    const size_t b = std::strtoull(getenv("PRE_COPY"), nullptr, 0);
    std::vector<char> h(b, 1);
    CK(cudaMalloc(&p, b));
    CK(cudaMemcpy(p, h.data(), b, cudaMemcpyHostToDevice));
  }
  if (mode == 'V' && getenv("PRE_MEMSET")) {
    void* p;
    const size_t b = std::strtoull(getenv("PRE_MEMSET"), nullptr, 0);
    CK(cudaMalloc(&p, b));
    CK(cudaMemset(p, 1, b));
    CK(cudaDeviceSynchronize());
  }
  CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  en.ctx = ctx;
  en.enableLazyPatching = lazy;
  CK(cuptiSassMetricsEnable(&en));
  if (mode == 'R') {
    const int g = std::atoi(argv[2]);
    const int what = std::atoi(argv[3]);
    const int bd = getenv("BLOCKDIM") ? atoi(getenv("BLOCKDIM")) : 256;
    int* in;
    long long* part;
    CK(cudaMalloc(&in, size_t(g) * bd * 4));
    CK(cudaMalloc(&part, size_t(g) * 8));
    if (!getenv("NOMEMSET")) CK(cudaMemset(in, 1, size_t(g) * bd * 4));
    parts_kernel<<<g, bd>>>(in, part, out, what);
    CK(cudaDeviceSynchronize());
  } else if (mode == 'T' || mode == 'U') {
    const int g = std::atoi(argv[2]);
    int* in;
    long long* part;
    CK(cudaMalloc(&in, size_t(g) * 256 * 4));
    CK(cudaMalloc(&part, size_t(g) * 8));
    CK(cudaMemset(in, 1, size_t(g) * 256 * 4));
    if (mode == 'T')
      tree_copy<<<g, 256>>>(in, part);
    else
      tree_nobar<<<g, 256>>>(in, part);
    CK(cudaDeviceSynchronize());
  } else if (mode == 'V') {
    // What else runs in the range before the counted kernel: EXTRA_MEMSET=BYTES a cudaMemset,
    // EXTRA_COPY=BYTES a host-to-device copy, PRE_KERNEL=1 another kernel.
    if (getenv("EXTRA_MEMSET") || getenv("EXTRA_COPY")) {
      const size_t b =
          std::strtoull(getenv(getenv("EXTRA_MEMSET") ? "EXTRA_MEMSET" : "EXTRA_COPY"), nullptr, 0);
      void* p;
      CK(cudaMalloc(&p, b));
      if (getenv("EXTRA_MEMSET")) {
        CK(cudaMemset(p, 1, b));
      } else {
        std::vector<char> h(b, 1);
        CK(cudaMemcpy(p, h.data(), b, cudaMemcpyHostToDevice));
      }
    }
    if (getenv("EXTRA_D2D")) {
      const size_t b = std::strtoull(getenv("EXTRA_D2D"), nullptr, 0);
      void *p, *q;
      CK(cudaMalloc(&p, b));
      CK(cudaMalloc(&q, b));
      CK(cudaMemcpy(p, q, b, cudaMemcpyDeviceToDevice));
    }
    if (getenv("PRE_KERNEL")) other_kernel<<<1, 64>>>(out, 10);
    probe_bar<<<std::atoi(argv[2]), 256>>>(out, 1000);
    if (getenv("POST_KERNEL")) probe_kernel<<<4, 128>>>(out, 1000);
    CK(cudaDeviceSynchronize());
  } else if (mode == 'X' || mode == 'Y' || mode == 'Z' || mode == 'W') {
    rl::kernels::LaunchArgs a;
    a.kernel = rl::kernels::KernelId::Interleaved;
    a.n = mode == 'W' ? std::strtoull(argv[2], nullptr, 0) : 1 << 20;
    a.block_size = 256;
    rl::kernels::LaunchPlan p;
    CK(rl::kernels::plan_launch(a, &p));
    CK(cudaMalloc(&a.input, p.input_capacity * 4));
    CK(cudaMemset(a.input, 1, p.input_capacity * 4));
    CK(cudaMalloc(&a.partials, p.partial_count * 8 + 8));
    CK(cudaMalloc(&a.result, 8));
    if (p.scratch_bytes) {
      CK(cudaMalloc(&a.scratch, p.scratch_bytes));
    }
    if (mode == 'Y') {
      cudaStream_t s;
      CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      a.stream = s;
    }
    CK(rl::kernels::launch_first(a, p));
    if (!getenv("NOFIN")) CK(rl::kernels::launch_finish(a, p));
    std::printf("  grid %u, partials %zu, finish %d\n", p.grid, p.partial_count,
                int(p.needs_finish));
    CK(cudaDeviceSynchronize());
  } else {
    probe_kernel<<<getenv("BLOCKS") ? atoi(getenv("BLOCKS")) : 4, 128>>>(out, 1000);
    CK(cudaDeviceSynchronize());
  }
  CUpti_SassMetricsGetDataProperties_Params dp = {
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  dp.ctx = ctx;
  if (argc > 3 && mode != 'R') usleep(std::atoi(argv[3]) * 1000);
  CK(cuptiSassMetricsGetDataProperties(&dp));
  std::printf("mode %c lazy %d: %zu records, %zu instances\n", mode, int(lazy),
              size_t(dp.numOfPatchedInstructionRecords), size_t(dp.numOfInstances));
  if (dp.numOfPatchedInstructionRecords && dp.numOfInstances) {
    std::vector<CUpti_SassMetrics_Data> d(dp.numOfPatchedInstructionRecords);
    std::vector<CUpti_SassMetrics_InstanceValue> v(d.size() * dp.numOfInstances);
    for (size_t i = 0; i < d.size(); ++i) {
      d[i].structSize = sizeof(CUpti_SassMetrics_Data);
      d[i].pInstanceValues = &v[i * dp.numOfInstances];
    }
    CUpti_SassMetricsFlushData_Params fl = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    fl.ctx = ctx;
    fl.numOfPatchedInstructionRecords = d.size();
    fl.numOfInstances = dp.numOfInstances;
    fl.pMetricsData = d.data();
    CK(cuptiSassMetricsFlushData(&fl));
    unsigned long long tot = 0;
    for (auto& x : v) tot += x.value;
    std::printf("  first function %s, total inst_executed %llu\n",
                d[0].functionName ? d[0].functionName : "?", tot);
    for (size_t i = 0; i < d.size(); ++i)  // every function with records
      if (d[i].functionName && (i == 0 || !d[i - 1].functionName ||
                                std::strcmp(d[i].functionName, d[i - 1].functionName)))
        std::printf("  records of %s\n", d[i].functionName);
  }
  if (mode == 'Q') {  // one session: a second kernel after the flush, then the first again
    for (int k = 0; k < 2; ++k) {
      if (k == 0)
        other_kernel<<<1, 64>>>(out, 10);
      else
        probe_kernel<<<4, 128>>>(out, 1000);
      CK(cudaDeviceSynchronize());
      CUpti_SassMetricsGetDataProperties_Params dq = {
          CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
      dq.ctx = ctx;
      CK(cuptiSassMetricsGetDataProperties(&dq));
      std::printf("  same session, launch %d after a flush: %zu records, %zu instances\n", k,
                  size_t(dq.numOfPatchedInstructionRecords), size_t(dq.numOfInstances));
      if (dq.numOfPatchedInstructionRecords && dq.numOfInstances) {
        std::vector<CUpti_SassMetrics_Data> d(dq.numOfPatchedInstructionRecords);
        std::vector<CUpti_SassMetrics_InstanceValue> v(d.size() * dq.numOfInstances);
        for (size_t i = 0; i < d.size(); ++i) {
          d[i].structSize = sizeof(CUpti_SassMetrics_Data);
          d[i].pInstanceValues = &v[i * dq.numOfInstances];
        }
        CUpti_SassMetricsFlushData_Params fl = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        fl.ctx = ctx;
        fl.numOfPatchedInstructionRecords = d.size();
        fl.numOfInstances = dq.numOfInstances;
        fl.pMetricsData = d.data();
        CK(cuptiSassMetricsFlushData(&fl));
        unsigned long long tot = 0;
        for (auto& x : v) tot += x.value;
        std::printf("    function %s, total %llu\n", d[0].functionName ? d[0].functionName : "?",
                    tot);
      }
    }
  }
  CUpti_SassMetricsDisable_Params di = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  di.ctx = ctx;
  CK(cuptiSassMetricsDisable(&di));
  if (mode == 'J' || mode == 'K') {
    CUpti_PCSamplingEnableParams pe = {CUpti_PCSamplingEnableParamsSize};
    pe.ctx = ctx;
    std::printf("  then PC sampling enable: %d\n", int(cuptiPCSamplingEnable(&pe)));
    CUpti_PCSamplingDisableParams pd = {CUpti_PCSamplingDisableParamsSize};
    pd.ctx = ctx;
    std::printf("  PC sampling disable: %d\n", int(cuptiPCSamplingDisable(&pd)));
    if (mode == 'K') {
      CK(cuptiSassMetricsEnable(&en));
      probe_kernel<<<4, 128>>>(out, 1000);
      CK(cudaDeviceSynchronize());
      CUpti_SassMetricsGetDataProperties_Params dp2 = {
          CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
      dp2.ctx = ctx;
      CK(cuptiSassMetricsGetDataProperties(&dp2));
      std::printf("  SASS again after PC sampling: %zu records\n",
                  size_t(dp2.numOfPatchedInstructionRecords));
      CK(cuptiSassMetricsDisable(&di));
    }
  }
  if (mode == 'L' || mode == 'M' || mode == 'N' || mode == 'O' ||
      mode == 'P') {  // SASS twice, no PC sampling
    if (mode == 'N') en.enableLazyPatching = 0;
    if (mode == 'O' || mode == 'P') {  // unset and set the configuration again between the sessions
      CUpti_SassMetricsUnsetConfig_Params uc = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
      uc.deviceIndex = 0;
      CK(cuptiSassMetricsUnsetConfig(&uc));
      if (mode == 'P') {
        CUpti_Profiler_DeInitialize_Params de = {CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        CK(cuptiProfilerDeInitialize(&de));
        CK(cuptiProfilerInitialize(&ip));
      }
      CK(cuptiSassMetricsSetConfig(&sc));
    }
    CK(cuptiSassMetricsEnable(&en));
    if (mode == 'M')
      other_kernel<<<1, 64>>>(out, 10);
    else
      probe_kernel<<<4, 128>>>(out, 1000);
    CK(cudaDeviceSynchronize());
    CUpti_SassMetricsGetDataProperties_Params dp2 = {
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    dp2.ctx = ctx;
    CK(cuptiSassMetricsGetDataProperties(&dp2));
    std::printf("  SASS a second time: %zu records\n", size_t(dp2.numOfPatchedInstructionRecords));
    CK(cuptiSassMetricsDisable(&di));
  }
  return 0;
}
