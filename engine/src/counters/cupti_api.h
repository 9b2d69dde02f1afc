// CUPTI, loaded at run time: libcupti.so (CUDA 13's; its libnvperf_host and libnvperf_target,
// which it opens by name, are loaded first from its folder) is opened with dlopen the first time
// counters are asked for, so the app and the CLI start and time everything where it is missing.
// Only the profiling calls ReductionLab makes are looked up.
#pragma once

#include <cupti_pcsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <string>

#include "engine/core/error.h"

namespace rl {

// Counters cannot be read here (no CUPTI, profiling refused, a metric unknown to the GPU).
// The point is still timed and verified; the message goes into PointCounters::note.
class CountersUnavailable : public Error {
 public:
  using Error::Error;
};

struct CuptiApi {
  std::string path;  // the library that was opened
  CUptiResult (*GetResultString)(CUptiResult, const char**) = nullptr;
  CUptiResult (*ProfilerInitialize)(CUpti_Profiler_Initialize_Params*) = nullptr;
  CUptiResult (*ProfilerDeInitialize)(CUpti_Profiler_DeInitialize_Params*) = nullptr;
  CUptiResult (*DeviceGetChipName)(CUpti_Device_GetChipName_Params*) = nullptr;
  CUptiResult (*GetCounterAvailability)(CUpti_Profiler_GetCounterAvailability_Params*) = nullptr;
  CUptiResult (*HostInitialize)(CUpti_Profiler_Host_Initialize_Params*) = nullptr;
  CUptiResult (*HostDeinitialize)(CUpti_Profiler_Host_Deinitialize_Params*) = nullptr;
  CUptiResult (*HostConfigAddMetrics)(CUpti_Profiler_Host_ConfigAddMetrics_Params*) = nullptr;
  CUptiResult (*HostGetConfigImageSize)(CUpti_Profiler_Host_GetConfigImageSize_Params*) = nullptr;
  CUptiResult (*HostGetConfigImage)(CUpti_Profiler_Host_GetConfigImage_Params*) = nullptr;
  CUptiResult (*HostGetNumOfPasses)(CUpti_Profiler_Host_GetNumOfPasses_Params*) = nullptr;
  CUptiResult (*HostEvaluateToGpuValues)(CUpti_Profiler_Host_EvaluateToGpuValues_Params*) = nullptr;
  CUptiResult (*RangeEnable)(CUpti_RangeProfiler_Enable_Params*) = nullptr;
  CUptiResult (*RangeDisable)(CUpti_RangeProfiler_Disable_Params*) = nullptr;
  CUptiResult (*RangeGetCounterDataSize)(CUpti_RangeProfiler_GetCounterDataSize_Params*) = nullptr;
  CUptiResult (*RangeCounterDataImageInitialize)(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params*) = nullptr;
  CUptiResult (*RangeSetConfig)(CUpti_RangeProfiler_SetConfig_Params*) = nullptr;
  CUptiResult (*RangeStart)(CUpti_RangeProfiler_Start_Params*) = nullptr;
  CUptiResult (*RangeStop)(CUpti_RangeProfiler_Stop_Params*) = nullptr;
  CUptiResult (*RangePushRange)(CUpti_RangeProfiler_PushRange_Params*) = nullptr;
  CUptiResult (*RangePopRange)(CUpti_RangeProfiler_PopRange_Params*) = nullptr;
  CUptiResult (*RangeDecodeData)(CUpti_RangeProfiler_DecodeData_Params*) = nullptr;
  CUptiResult (*RangeGetCounterDataInfo)(CUpti_RangeProfiler_GetCounterDataInfo_Params*) = nullptr;
  // PC sampling (pc_sampler.h): optional, so a CUPTI without it still reads counters;
  // pc_sampling_missing names what this library lacks.
  CUptiResult (*PcEnable)(CUpti_PCSamplingEnableParams*) = nullptr;
  CUptiResult (*PcDisable)(CUpti_PCSamplingDisableParams*) = nullptr;
  CUptiResult (*PcStart)(CUpti_PCSamplingStartParams*) = nullptr;
  CUptiResult (*PcStop)(CUpti_PCSamplingStopParams*) = nullptr;
  CUptiResult (*PcGetData)(CUpti_PCSamplingGetDataParams*) = nullptr;
  CUptiResult (*PcSetConfig)(CUpti_PCSamplingConfigurationInfoParams*) = nullptr;
  CUptiResult (*PcGetNumStallReasons)(CUpti_PCSamplingGetNumStallReasonsParams*) = nullptr;
  CUptiResult (*PcGetStallReasons)(CUpti_PCSamplingGetStallReasonsParams*) = nullptr;
  std::string pc_sampling_missing;
  // SASS metrics (sass_counter.h): optional too, so a CUPTI without them still reads counters
  // and samples; sass_metrics_missing names what this library lacks.
  CUptiResult (*ProfilerDeviceSupported)(CUpti_Profiler_DeviceSupported_Params*) = nullptr;
  CUptiResult (*SassGetNumOfMetrics)(CUpti_SassMetrics_GetNumOfMetrics_Params*) = nullptr;
  CUptiResult (*SassGetMetrics)(CUpti_SassMetrics_GetMetrics_Params*) = nullptr;
  CUptiResult (*SassGetProperties)(CUpti_SassMetrics_GetProperties_Params*) = nullptr;
  CUptiResult (*SassSetConfig)(CUpti_SassMetricsSetConfig_Params*) = nullptr;
  CUptiResult (*SassUnsetConfig)(CUpti_SassMetricsUnsetConfig_Params*) = nullptr;
  CUptiResult (*SassEnable)(CUpti_SassMetricsEnable_Params*) = nullptr;
  CUptiResult (*SassDisable)(CUpti_SassMetricsDisable_Params*) = nullptr;
  CUptiResult (*SassGetDataProperties)(CUpti_SassMetricsGetDataProperties_Params*) = nullptr;
  CUptiResult (*SassFlushData)(CUpti_SassMetricsFlushData_Params*) = nullptr;
  std::string sass_metrics_missing;
};

// The library, opened once (thread-safe). Throws CountersUnavailable saying why: not found
// (every name tried), or a function missing (a CUPTI older than the range profiler's).
// RL_CUPTI_LIBRARY names the library to open instead.
const CuptiApi& cupti_api();

// Throws CountersUnavailable for result != CUPTI_SUCCESS: "cuptiX failed: <CUPTI's words>
// (CUPTI_ERROR_..., code) [context]", with what to do for CUPTI_ERROR_INSUFFICIENT_PRIVILEGES.
void cupti_check(const CuptiApi& api, CUptiResult result, const char* call,
                 const std::string& context);

}  // namespace rl
