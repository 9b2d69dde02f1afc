#include "counters/sass_counter.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <utility>

#include "counters/cupti_internal.h"

namespace rl {

namespace {
using cupti_detail::params;

constexpr const char* kInstExecuted = "smsp__sass_inst_executed";
constexpr const char* kThreadInstExecuted = "smsp__sass_thread_inst_executed";
// Far more records than any kernel here has instructions (a few hundred each): a count past it
// is not data to allocate for.
constexpr std::size_t kMaxRecords = std::size_t(1) << 22;
constexpr std::size_t kMaxInstances = std::size_t(1) << 12;

// "the architecture, vGPU" from the levels cuptiProfilerDeviceSupported reports as not supported.
std::string unsupported_parts(const CUpti_Profiler_DeviceSupported_Params& s) {
  std::string out;
  auto add = [&](CUpti_Profiler_Support_Level level, const char* part) {
    if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
        level == CUPTI_PROFILER_CONFIGURATION_DISABLED)
      out += (out.empty() ? "" : ", ") + std::string(part) +
             (level == CUPTI_PROFILER_CONFIGURATION_DISABLED ? " (disabled)" : "");
  };
  add(s.architecture, "the GPU's architecture");
  add(s.sli, "SLI");
  add(s.vGpu, "vGPU");
  add(s.confidentialCompute, "confidential compute");
  add(s.cmp, "a crypto-mining processor");
  add(s.wsl, "WSL");
  return out.empty() ? "no reason given" : out;
}

}  // namespace

SassCounter::SassCounter(int device) : api_(cupti_api()), device_(device) {
  if (!api_.sass_metrics_missing.empty())
    throw CountersUnavailable(api_.path + " has no " + api_.sass_metrics_missing +
                              ": this CUPTI cannot count executed instructions per line (SASS "
                              "metrics)");
  const std::string where = "SASS metrics on cuda:" + std::to_string(device);
  ctx_ = cupti_detail::current_context(device);
  // The SASS metrics belong to CUPTI's profiling API family: initialized first, as CUPTI's own
  // sass_metrics sample does, so that the device check below can answer.
  auto init =
      params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  cupti_check(api_, api_.ProfilerInitialize(&init), "cuptiProfilerInitialize", where);
  initialized_ = true;
  try {
    auto sup = params<CUpti_Profiler_DeviceSupported_Params>(
        CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
    sup.cuDevice = CUdevice(device);
    sup.api = CUPTI_PROFILER_SASS_METRICS;
    cupti_check(api_, api_.ProfilerDeviceSupported(&sup), "cuptiProfilerDeviceSupported", where);
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      throw CountersUnavailable("CUPTI cannot count SASS metrics on this device: " +
                                unsupported_parts(sup) + " not supported [" + where + "]");
    auto chip =
        params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = std::size_t(device);
    cupti_check(api_, api_.DeviceGetChipName(&chip), "cuptiDeviceGetChipName", where);
    chip_ = chip.pChipName ? chip.pChipName : "";
    inst_id_ = metric_id(kInstExecuted, where);
    thread_id_ = metric_id(kThreadInstExecuted, where);
    // Summed over the GPU: one value per instruction and metric (per SM would only be summed).
    CUpti_SassMetrics_Config configs[2] = {
        {inst_id_, std::uint8_t(CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU)},
        {thread_id_, std::uint8_t(CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU)}};
    auto set =
        params<CUpti_SassMetricsSetConfig_Params>(CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE);
    set.numOfMetricConfig = 2;
    set.pConfigs = configs;
    set.deviceIndex = std::uint32_t(device);
    cupti_check(api_, api_.SassSetConfig(&set), "cuptiSassMetricsSetConfig", where);
    configured_ = true;
  } catch (...) {
    auto de =
        params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    api_.ProfilerDeInitialize(&de);  // nothing to do about a failure while cleaning up
    throw;
  }
}

SassCounter::~SassCounter() {
  // Nothing to do about a failure while cleaning up.
  if (configured_) {
    auto unset = params<CUpti_SassMetricsUnsetConfig_Params>(
        CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE);
    unset.deviceIndex = std::uint32_t(device_);
    api_.SassUnsetConfig(&unset);
  }
  if (initialized_) {
    auto de =
        params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    api_.ProfilerDeInitialize(&de);
  }
}

std::uint64_t SassCounter::metric_id(const std::string& name, const std::string& where) {
  auto p = params<CUpti_SassMetrics_GetProperties_Params>(
      CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE);
  p.pChipName = chip_.c_str();
  p.pMetricName = name.c_str();
  const CUptiResult asked = api_.SassGetProperties(&p);
  if (asked == CUPTI_SUCCESS) return p.metric.metricId;
  // Refused: the chip's list says whether it has the metric at all (a clearer reason than the
  // refusal's), else CUPTI's words for the refusal.
  auto num = params<CUpti_SassMetrics_GetNumOfMetrics_Params>(
      CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE);
  num.pChipName = chip_.c_str();
  cupti_check(api_, api_.SassGetNumOfMetrics(&num), "cuptiSassMetricsGetNumOfMetrics", where);
  std::vector<CUpti_SassMetrics_MetricDetails> list(std::min(num.numOfMetrics, kMaxRecords));
  auto get =
      params<CUpti_SassMetrics_GetMetrics_Params>(CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE);
  get.pChipName = chip_.c_str();
  get.numOfMetrics = list.size();
  get.pMetricsList = list.data();
  cupti_check(api_, api_.SassGetMetrics(&get), "cuptiSassMetricsGetMetrics", where);
  const bool listed = std::any_of(list.begin(), list.end(), [&](const auto& m) {
    return m.pMetricName && name == m.pMetricName;
  });
  if (!listed)
    throw CountersUnavailable(name + " is not a SASS metric of " + chip_ + " (CUPTI lists " +
                              std::to_string(list.size()) + ") [" + where + "]");
  cupti_check(api_, asked, "cuptiSassMetricsGetProperties", where + ", " + name);
  return p.metric.metricId;  // not reached: the check throws
}

namespace {
// Whether this process has opened its one counting session (see sass_counter.h).
std::atomic<bool> counted_in_this_process{false};
}  // namespace

SassCounter::Counted SassCounter::count(
    const std::function<std::string(const std::string&)>& role_of,
    const std::function<void()>& setup, const std::function<void()>& launch,
    const std::string& context) {
  Counted c;
  if (counted_in_this_process.exchange(true))
    throw CountersUnavailable(
        "CUPTI's SASS metrics count once per process (a second session returns nothing on the "
        "H200 with CUDA 13): each launch step is counted in a fresh worker process [" +
        context + "]");
  setup();
  auto en = params<CUpti_SassMetricsEnable_Params>(CUpti_SassMetricsEnable_Params_STRUCT_SIZE);
  en.ctx = ctx_;
  // Lazy: only the functions launched in the range are patched, at their first launch there,
  // not every function of every loaded module (the kernels library has hundreds).
  en.enableLazyPatching = 1;
  cupti_check(api_, api_.SassEnable(&en), "cuptiSassMetricsEnable", context);
  auto dis = params<CUpti_SassMetricsDisable_Params>(CUpti_SassMetricsDisable_Params_STRUCT_SIZE);
  dis.ctx = ctx_;
  try {
    launch();
    // The records are read inside the range: CUPTI answers only there, and drops what is left
    // at the disable.
    flush(c.functions, role_of, context);
  } catch (...) {
    api_.SassDisable(&dis);  // the first failure is the one to report
    throw;
  }
  cupti_check(api_, api_.SassDisable(&dis), "cuptiSassMetricsDisable", context);
  c.dropped = dis.numOfDroppedRecords;
  return c;
}

void SassCounter::flush(std::vector<SampledFunction>& into,
                        const std::function<std::string(const std::string&)>& role_of,
                        const std::string& context) {
  auto props = params<CUpti_SassMetricsGetDataProperties_Params>(
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE);
  props.ctx = ctx_;
  cupti_check(api_, api_.SassGetDataProperties(&props), "cuptiSassMetricsGetDataProperties",
              context);
  const std::size_t records = props.numOfPatchedInstructionRecords;
  const std::size_t instances = props.numOfInstances;
  if (records == 0 || instances == 0) return;
  if (records > kMaxRecords || instances > kMaxInstances)
    throw CountersUnavailable("cuptiSassMetricsGetDataProperties reported " +
                              std::to_string(records) + " records of " + std::to_string(instances) +
                              " values: not plausible [" + context + "]");
  std::vector<CUpti_SassMetrics_Data> data(records);
  std::vector<CUpti_SassMetrics_InstanceValue> values(records * instances);
  for (std::size_t i = 0; i < records; ++i) data[i].pInstanceValues = &values[i * instances];
  auto fl =
      params<CUpti_SassMetricsFlushData_Params>(CUpti_SassMetricsFlushData_Params_STRUCT_SIZE);
  fl.ctx = ctx_;
  fl.numOfPatchedInstructionRecords = records;
  fl.numOfInstances = instances;
  fl.pMetricsData = data.data();
  const CUptiResult flushed = api_.SassFlushData(&fl);
  // Each record's function name is CUPTI's allocation, the caller's to free (CUPTI's
  // sass_metrics sample frees them): taken as strings and freed before anything can throw.
  std::vector<std::string> names(records);
  for (std::size_t i = 0; i < records; ++i) {
    if (data[i].functionName) names[i] = data[i].functionName;
    std::free(const_cast<char*>(data[i].functionName));
    data[i].functionName = nullptr;
  }
  cupti_check(api_, flushed, "cuptiSassMetricsFlushData", context);
  // Summed per (function, offset) over the instances (one per metric and record at the GPU
  // granularity), each value by the metric it names.
  std::map<std::string, std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>> found;
  for (std::size_t i = 0; i < records; ++i) {
    auto& counts = found[names[i]][data[i].pcOffset];
    for (std::size_t k = 0; k < instances; ++k) {
      const CUpti_SassMetrics_InstanceValue& v = data[i].pInstanceValues[k];
      if (v.metricId == inst_id_) counts.first += v.value;
      if (v.metricId == thread_id_) counts.second += v.value;
    }
  }
  for (auto& [function, pcs] : found) {
    SampledFunction f{role_of(function), function, {}};
    for (const auto& [offset, n] : pcs) {
      SampledPc pc{offset, {}};
      pc.inst_executed = n.first;
      pc.thread_inst_executed = n.second;
      f.pcs.push_back(std::move(pc));
    }
    into.push_back(std::move(f));
  }
}

}  // namespace rl
