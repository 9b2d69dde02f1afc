#include "counters/cupti_profiler.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <utility>

#include "core/cuda_raii.h"
#include "counters/cupti_internal.h"

namespace rl {

namespace {
using cupti_detail::params;

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

}  // namespace

CUcontext cupti_detail::current_context(int device) {
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

CuptiProfiler::CuptiProfiler(int device, const std::vector<std::string>& metrics)
    : api_(cupti_api()) {
  const std::string where = "cuda:" + std::to_string(device);
  ctx_ = cupti_detail::current_context(device);
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

}  // namespace rl
