#include "counters/cupti_api.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace rl {

namespace {

// Owns the dlopen handle. CUPTI keeps threads and driver callbacks of its own once used, so the
// library stays loaded for the life of the process (the handle is closed only if loading
// failed part-way).
class Library {
 public:
  explicit Library(void* h) : handle_(h) {}
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  ~Library() {
    if (handle_ && !keep_) dlclose(handle_);
  }
  void* get() const { return handle_; }
  void keep() { keep_ = true; }

 private:
  void* handle_;
  bool keep_ = false;
};

// CUPTI opens libnvperf_host.so and libnvperf_target.so by name when profiling starts; where
// their folder (libcupti's own) is not on the loader's path that fails. Loading them first, from
// libcupti's folder, makes those opens find them already loaded (same soname). Kept loaded; a
// library that is not there is left to CUPTI to report.
void preload_perf_libraries(void* cupti) {
  link_map* map = nullptr;
  if (dlinfo(cupti, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return;
  std::string dir = map->l_name;
  const std::size_t slash = dir.rfind('/');
  if (slash == std::string::npos) return;
  dir.resize(slash + 1);
  for (const char* name : {"libnvperf_host.so", "libnvperf_target.so"})
    dlopen((dir + name).c_str(), RTLD_NOW | RTLD_GLOBAL);
}

template <typename F>
void look_up(void* lib, const char* name, F& fn, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn) missing += (missing.empty() ? "" : ", ") + std::string(name);
}

CuptiApi load() {
  std::vector<std::string> names;
  if (const char* env = std::getenv("RL_CUPTI_LIBRARY"); env && *env) names.emplace_back(env);
  for (const char* n : {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
                        "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"})
    names.emplace_back(n);
  std::string tried;
  for (const std::string& name : names) {
    Library lib(dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!lib.get()) {
      const char* why = dlerror();
      tried += "\n  " + name + ": " + (why ? why : "not found");
      continue;
    }
    CuptiApi api;
    api.path = name;
    std::string missing;
    void* h = lib.get();
    look_up(h, "cuptiGetResultString", api.GetResultString, missing);
    look_up(h, "cuptiProfilerInitialize", api.ProfilerInitialize, missing);
    look_up(h, "cuptiProfilerDeInitialize", api.ProfilerDeInitialize, missing);
    look_up(h, "cuptiDeviceGetChipName", api.DeviceGetChipName, missing);
    look_up(h, "cuptiProfilerGetCounterAvailability", api.GetCounterAvailability, missing);
    look_up(h, "cuptiProfilerHostInitialize", api.HostInitialize, missing);
    look_up(h, "cuptiProfilerHostDeinitialize", api.HostDeinitialize, missing);
    look_up(h, "cuptiProfilerHostConfigAddMetrics", api.HostConfigAddMetrics, missing);
    look_up(h, "cuptiProfilerHostGetConfigImageSize", api.HostGetConfigImageSize, missing);
    look_up(h, "cuptiProfilerHostGetConfigImage", api.HostGetConfigImage, missing);
    look_up(h, "cuptiProfilerHostGetNumOfPasses", api.HostGetNumOfPasses, missing);
    look_up(h, "cuptiProfilerHostEvaluateToGpuValues", api.HostEvaluateToGpuValues, missing);
    look_up(h, "cuptiRangeProfilerEnable", api.RangeEnable, missing);
    look_up(h, "cuptiRangeProfilerDisable", api.RangeDisable, missing);
    look_up(h, "cuptiRangeProfilerGetCounterDataSize", api.RangeGetCounterDataSize, missing);
    look_up(h, "cuptiRangeProfilerCounterDataImageInitialize", api.RangeCounterDataImageInitialize,
            missing);
    look_up(h, "cuptiRangeProfilerSetConfig", api.RangeSetConfig, missing);
    look_up(h, "cuptiRangeProfilerStart", api.RangeStart, missing);
    look_up(h, "cuptiRangeProfilerStop", api.RangeStop, missing);
    look_up(h, "cuptiRangeProfilerPushRange", api.RangePushRange, missing);
    look_up(h, "cuptiRangeProfilerPopRange", api.RangePopRange, missing);
    look_up(h, "cuptiRangeProfilerDecodeData", api.RangeDecodeData, missing);
    look_up(h, "cuptiRangeProfilerGetCounterDataInfo", api.RangeGetCounterDataInfo, missing);
    look_up(h, "cuptiPCSamplingEnable", api.PcEnable, api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingDisable", api.PcDisable, api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingStart", api.PcStart, api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingStop", api.PcStop, api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingGetData", api.PcGetData, api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingSetConfigurationAttribute", api.PcSetConfig,
            api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingGetNumStallReasons", api.PcGetNumStallReasons,
            api.pc_sampling_missing);
    look_up(h, "cuptiPCSamplingGetStallReasons", api.PcGetStallReasons, api.pc_sampling_missing);
    std::string& sass = api.sass_metrics_missing;
    look_up(h, "cuptiProfilerDeviceSupported", api.ProfilerDeviceSupported, sass);
    look_up(h, "cuptiSassMetricsGetNumOfMetrics", api.SassGetNumOfMetrics, sass);
    look_up(h, "cuptiSassMetricsGetMetrics", api.SassGetMetrics, sass);
    look_up(h, "cuptiSassMetricsGetProperties", api.SassGetProperties, sass);
    look_up(h, "cuptiSassMetricsSetConfig", api.SassSetConfig, sass);
    look_up(h, "cuptiSassMetricsUnsetConfig", api.SassUnsetConfig, sass);
    look_up(h, "cuptiSassMetricsEnable", api.SassEnable, sass);
    look_up(h, "cuptiSassMetricsDisable", api.SassDisable, sass);
    look_up(h, "cuptiSassMetricsGetDataProperties", api.SassGetDataProperties, sass);
    look_up(h, "cuptiSassMetricsFlushData", api.SassFlushData, sass);
    if (!missing.empty())
      throw CountersUnavailable(name + " has no " + missing +
                                ": a CUPTI with the range profiler (CUDA 12.6 or later) is needed");
    lib.keep();
    preload_perf_libraries(h);
    return api;
  }
  throw CountersUnavailable(
      "CUPTI (libcupti, part of the CUDA toolkit) could not be loaded; tried:" + tried +
      "\n  set RL_CUPTI_LIBRARY to its path, or add its folder to LD_LIBRARY_PATH");
}

}  // namespace

const CuptiApi& cupti_api() {
  static std::once_flag once;
  static CuptiApi api;
  static std::string failure;
  std::call_once(once, [] {
    try {
      api = load();
    } catch (const CountersUnavailable& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw CountersUnavailable(failure);
  return api;
}

void cupti_check(const CuptiApi& api, CUptiResult result, const char* call,
                 const std::string& context) {
  if (result == CUPTI_SUCCESS) return;
  const char* words = nullptr;
  if (!api.GetResultString || api.GetResultString(result, &words) != CUPTI_SUCCESS) words = nullptr;
  std::string msg = std::string(call) + " failed: " + (words ? words : "unknown CUPTI error") +
                    " (code " + std::to_string(int(result)) + ")";
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    msg +=
        ": profiling is not permitted: the driver lets only administrators read GPU performance "
        "counters (NVreg_RestrictProfilingToAdminUsers=1; "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM says how to allow it)";
  if (!context.empty()) msg += " [" + context + "]";
  throw CountersUnavailable(msg);
}

}  // namespace rl
