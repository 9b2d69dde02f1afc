#include "counters/cupti_profiler.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <utility>

#include "cuda_raii.h"

namespace rl {

namespace {

constexpr int kMaxPasses = 64;

// A CUPTI parameter struct: zeroed, with its size set (what every CUPTI call checks).
template <typename P>
P params(std::size_t struct_size) {
  P p{};
  p.structSize = struct_size;
  return p;
}  // a metric set needing more is a bug, not a workload

// A host object (cuptiProfilerHostInitialize) for one chip, deinitialized on scope exit.
class HostObject {
 public:
  HostObject(const CuptiApi& api, const std::string& chip, const std::vector<std::uint8_t>& avail)
      : api_(api) {
    auto p = params<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = avail.data();
    cupti_check(api_, api_.HostInitialize(&p), "cuptiProfilerHostInitialize", "chip " + chip);
    obj_ = p.pHostObject;
  }
  ~HostObject() {
    if (!obj_) return;
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = obj_;
    api_.HostDeinitialize(&p);  // nothing to do about a failure while cleaning up
  }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
  CUpti_Profiler_Host_Object* get() const { return obj_; }
  CUpti_Profiler_Host_Object* release() { return std::exchange(obj_, nullptr); }

 private:
  const CuptiApi& api_;
  CUpti_Profiler_Host_Object* obj_ = nullptr;
};

// The range profiler enabled on a context for one range, disabled on scope exit.
class EnabledProfiler {
 public:
  EnabledProfiler(const CuptiApi& api, CUcontext ctx, const std::string& context) : api_(api) {
    auto p =
        params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    p.ctx = ctx;
    cupti_check(api_, api_.RangeEnable(&p), "cuptiRangeProfilerEnable", context);
    obj_ = p.pRangeProfilerObject;
  }
  ~EnabledProfiler() {
    auto p =
        params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = obj_;
    api_.RangeDisable(&p);
  }
  EnabledProfiler(const EnabledProfiler&) = delete;
  EnabledProfiler& operator=(const EnabledProfiler&) = delete;
  CUpti_RangeProfiler_Object* get() const { return obj_; }

 private:
  const CuptiApi& api_;
  CUpti_RangeProfiler_Object* obj_ = nullptr;
};

CUcontext current_context(int device) {
  const std::string ctx = "counters on cuda:" + std::to_string(device);
  RL_CUDA_CHECK(cudaSetDevice(device), ctx);
  RL_CUDA_CHECK(cudaFree(nullptr), ctx);  // makes the primary context current
  // The driver API without linking libcuda (static cudart opens it at run time).
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  RL_CUDA_CHECK(
      cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found),
      "looking up cuCtxGetCurrent, " + ctx);
  if (!fn || found != cudaDriverEntryPointSuccess)
    throw CountersUnavailable("the driver has no cuCtxGetCurrent [" + ctx + "]");
  CUcontext c = nullptr;
  const CUresult r = reinterpret_cast<CUresult (*)(CUcontext*)>(fn)(&c);
  if (r != CUDA_SUCCESS || !c)
    throw CountersUnavailable("cuCtxGetCurrent failed (code " + std::to_string(int(r)) + ") [" +
                              ctx + "]");
  return c;
}

}  // namespace

CuptiProfiler::CuptiProfiler(int device, const std::vector<std::string>& metrics)
    : api_(cupti_api()) {
  const std::string where = "cuda:" + std::to_string(device);
  ctx_ = current_context(device);
  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  cupti_check(api_, api_.ProfilerInitialize(&init), "cuptiProfilerInitialize", where);
  initialized_ = true;
  auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = std::size_t(device);
  cupti_check(api_, api_.DeviceGetChipName(&chip), "cuptiDeviceGetChipName", where);
  chip_ = chip.pChipName ? chip.pChipName : "";
  auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx_;
  cupti_check(api_, api_.GetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability",
              where);
  availability_.resize(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability_.data();
  cupti_check(api_, api_.GetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability",
              where);
  // All together first; where that fails, one at a time to name the metrics this chip lacks.
  try {
    build_config(metrics, config_);
    metrics_ = metrics;
  } catch (const CountersUnavailable& all) {
    for (const std::string& m : metrics) {
      std::vector<std::uint8_t> one;
      try {
        build_config({m}, one);
        metrics_.push_back(m);
      } catch (const CountersUnavailable&) {
        note_ += (note_.empty() ? "not available on " + chip_ + ": " : ", ") + m;
      }
    }
    if (metrics_.empty()) throw CountersUnavailable(std::string(all.what()));
    build_config(metrics_, config_);
  }
  HostObject host(api_, chip_, availability_);
  std::vector<const char*> names = metric_ptrs();
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host.get();
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  cupti_check(api_, api_.HostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics", where);
  host_ = host.release();
  auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  passes.pConfigImage = config_.data();
  passes.configImageSize = config_.size();
  cupti_check(api_, api_.HostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses", where);
  passes_ = int(passes.numOfPasses);
}

CuptiProfiler::~CuptiProfiler() {
  if (host_) {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = host_;
    api_.HostDeinitialize(&p);
  }
  if (initialized_) {
    auto p =
        params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    api_.ProfilerDeInitialize(&p);
  }
}

std::vector<const char*> CuptiProfiler::metric_ptrs() const {
  std::vector<const char*> out;
  for (const std::string& m : metrics_) out.push_back(m.c_str());
  return out;
}

void CuptiProfiler::build_config(const std::vector<std::string>& metrics,
                                 std::vector<std::uint8_t>& image) {
  HostObject host(api_, chip_, availability_);
  std::vector<const char*> names;
  for (const std::string& m : metrics) names.push_back(m.c_str());
  const std::string what = metrics.size() == 1 ? metrics[0] : "the counter set";
  auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host.get();
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  cupti_check(api_, api_.HostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics", what);
  auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = host.get();
  cupti_check(api_, api_.HostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize",
              what);
  image.assign(size.configImageSize, 0);
  auto get = params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  get.pHostObject = host.get();
  get.pConfigImage = image.data();
  get.configImageSize = image.size();
  cupti_check(api_, api_.HostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage", what);
}

KernelCounters CuptiProfiler::profile(const std::string& role, const std::function<void()>& setup,
                                      const std::function<void()>& launch,
                                      const std::string& context) {
  const std::string where = role + ", " + context;
  EnabledProfiler prof(api_, ctx_, where);
  std::vector<const char*> names = metric_ptrs();
  auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = prof.get();
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  cupti_check(api_, api_.RangeGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize",
              where);
  std::vector<std::uint8_t> data(size.counterDataSize, 0);
  auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = prof.get();
  init.pCounterData = data.data();
  init.counterDataSize = data.size();
  cupti_check(api_, api_.RangeCounterDataImageInitialize(&init),
              "cuptiRangeProfilerCounterDataImageInitialize", where);
  auto config = params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  config.pRangeProfilerObject = prof.get();
  config.pConfig = config_.data();
  config.configSize = config_.size();
  config.pCounterDataImage = data.data();
  config.counterDataImageSize = data.size();
  config.range = CUPTI_UserRange;
  config.replayMode = CUPTI_UserReplay;
  config.maxRangesPerPass = 1;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  cupti_check(api_, api_.RangeSetConfig(&config), "cuptiRangeProfilerSetConfig", where);
  bool all_submitted = false;
  for (int pass = 0; !all_submitted; ++pass) {
    if (pass == kMaxPasses)
      throw CountersUnavailable("more than " + std::to_string(kMaxPasses) + " replay passes [" +
                                where + "]");
    setup();
    auto start =
        params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = prof.get();
    cupti_check(api_, api_.RangeStart(&start), "cuptiRangeProfilerStart", where);
    auto push = params<CUpti_RangeProfiler_PushRange_Params>(
        CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
    push.pRangeProfilerObject = prof.get();
    push.pRangeName = role.c_str();
    cupti_check(api_, api_.RangePushRange(&push), "cuptiRangeProfilerPushRange", where);
    launch();
    auto pop = params<CUpti_RangeProfiler_PopRange_Params>(
        CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
    pop.pRangeProfilerObject = prof.get();
    cupti_check(api_, api_.RangePopRange(&pop), "cuptiRangeProfilerPopRange", where);
    auto stop =
        params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = prof.get();
    cupti_check(api_, api_.RangeStop(&stop), "cuptiRangeProfilerStop", where);
    all_submitted = stop.isAllPassSubmitted != 0;
    passes_ = pass + 1;
  }
  auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = prof.get();
  cupti_check(api_, api_.RangeDecodeData(&decode), "cuptiRangeProfilerDecodeData", where);
  if (decode.numOfRangeDropped > 0)
    throw CountersUnavailable("CUPTI dropped the range [" + where + "]");
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  cupti_check(api_, api_.RangeGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo",
              where);
  if (info.numTotalRanges != 1)
    throw CountersUnavailable("expected one range, CUPTI has " +
                              std::to_string(info.numTotalRanges) + " [" + where + "]");
  std::vector<double> values(names.size(), 0.0);
  auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  eval.pHostObject = host_;
  eval.pCounterDataImage = data.data();
  eval.counterDataImageSize = data.size();
  eval.rangeIndex = 0;
  eval.ppMetricNames = names.data();
  eval.numMetrics = names.size();
  eval.pMetricValues = values.data();
  cupti_check(api_, api_.HostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues",
              where);
  KernelCounters k;
  k.role = role;
  for (std::size_t i = 0; i < names.size(); ++i) k.values.emplace_back(metrics_[i], values[i]);
  return k;
}

}  // namespace rl
