// Experiment behind issue 11's line counts (not part of the build): when does CUPTI's SASS
// metrics API (cupti_sass_metrics.h) return records? One tiny kernel, modes by argv[1]:
//   A enable, launch, read                    B launch, then A      C cudaFuncGetAttributes, then A
//   D A with lazy patching off                E B, lazy off          F stream capture, then A
//   G PC sampling enabled, then A             H PC sampling enabled and disabled, then A
//   J A, then PC sampling enable/disable      K J, then a second SASS session
//   L A, then a second session (same kernel)  M L with another kernel  N L, second session not lazy
//   O L with UnsetConfig/SetConfig between    P O with Profiler DeInitialize/Initialize too
//   Q A, then in the same session: another kernel, read; the first again, read
// Run on the lent H200 (driver 580.159.04, CUDA 13.0's CUPTI), 2026-12-01:
//   nvcc -std=c++17 -arch=sm_90 -I/usr/local/cuda/extras/CUPTI/include cupti_sass_sessions.cu \
//        -o sp -L/usr/local/cuda/extras/CUPTI/lib64 -lcupti -lcuda
// Results: A, B, C, F: 28 records (1012 instructions executed); D: 0 (with
// CUDA_MODULE_LOADING=EAGER: 28); E: 28; G, H: 0; J: 28, and PC sampling enables after it; K, L, M,
// N: the second session 0; O, P: cuptiSassMetricsSetConfig refuses the second configuration (error
// 8); Q: 0 after the first read, for either kernel. So: one session per process, read once, before
// any PC sampling. The engine counts each point in a fresh worker process
// (engine/src/counters/sass_counter.h).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#define CK(x)                                      \
  do {                                             \
    auto r_ = (x);                                 \
    if (r_ != 0) {                                 \
      std::printf("%s failed: %d\n", #x, int(r_)); \
      std::exit(1);                                \
    }                                              \
  } while (0)
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
  const bool lazy = !(mode == 'D' || mode == 'E');
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
  CUpti_SassMetrics_Config cfg = {gp.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
  CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  sc.numOfMetricConfig = 1;
  sc.pConfigs = &cfg;
  sc.deviceIndex = 0;
  CK(cuptiSassMetricsSetConfig(&sc));
  CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  en.ctx = ctx;
  en.enableLazyPatching = lazy;
  CK(cuptiSassMetricsEnable(&en));
  probe_kernel<<<4, 128>>>(out, 1000);
  CK(cudaDeviceSynchronize());
  CUpti_SassMetricsGetDataProperties_Params dp = {
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  dp.ctx = ctx;
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
