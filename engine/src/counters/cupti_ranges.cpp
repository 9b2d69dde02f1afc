// CuptiProfiler::profile: the replay loop and the evaluation of its ranges. Per-kernel ranges
// (CUPTI_AutoRange) first: each kernel launched between start and stop is a range of its own
// whose elapsed time is the kernel's, as in ncu. Where CUPTI refuses them with user replay, one
// user range around the launch (CUPTI_UserRange): its elapsed time also holds the launch and the
// wait, so the %-of-peak-over-elapsed counters (DRAM throughput) read low for short kernels; the
// note says so.
#include <cstring>

#include "counters/cupti_internal.h"
#include "counters/cupti_profiler.h"

namespace rl {

namespace {
using cupti_detail::EnabledProfiler;
using cupti_detail::params;

constexpr int kMaxPasses = 64;  // a metric set needing more is a bug, not a workload
constexpr int kMaxRanges = 8;   // kernels per launch step (CUB's device reduce has two)
}  // namespace

std::vector<KernelCounters> CuptiProfiler::profile(const std::string& role,
                                                   const std::function<void()>& setup,
                                                   const std::function<void()>& flush,
                                                   const std::function<void()>& launch,
                                                   const std::string& context) {
  if (!user_ranges_) {
    try {
      return run_ranges(true, role, setup, flush, launch, context);
    } catch (const CountersUnavailable& e) {
      if (std::strstr(e.what(), "not permitted")) throw;
      user_ranges_ = true;
      range_note_ = std::string("per-kernel ranges refused (") + e.what() +
                    "): one range around each launch instead, whose elapsed time holds the "
                    "launch and the wait (DRAM % reads low for short kernels)";
    }
  }
  return run_ranges(false, role, setup, flush, launch, context);
}

std::vector<KernelCounters> CuptiProfiler::run_ranges(bool per_kernel, const std::string& role,
                                                      const std::function<void()>& setup,
                                                      const std::function<void()>& flush,
                                                      const std::function<void()>& launch,
                                                      const std::string& context) {
  const std::string where =
      role + ", " + context + (per_kernel ? ", per-kernel ranges" : ", user range");
  // With per-kernel ranges the flush runs after the profiler starts, a range of its own that is
  // dropped below (cupti_profiler.h says why); the user-range config has room for one range
  // only, so there the flush runs before the start.
  const bool flush_inside = per_kernel && flush;
  const std::size_t dropped = flush_inside ? 1 : 0;
  const std::size_t ranges = per_kernel ? kMaxRanges + dropped : 1;
  EnabledProfiler prof(api_, ctx_, where);
  std::vector<const char*> names = metric_ptrs();
  auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = prof.get();
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = ranges;
  size.maxNumRangeTreeNodes = std::uint32_t(ranges);
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
  config.range = per_kernel ? CUPTI_AutoRange : CUPTI_UserRange;
  // User replay either way: setup() restores the input and flushes L2 before every pass.
  config.replayMode = CUPTI_UserReplay;
  config.maxRangesPerPass = ranges;
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
    if (!flush_inside && flush) flush();
    auto start =
        params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = prof.get();
    cupti_check(api_, api_.RangeStart(&start), "cuptiRangeProfilerStart", where);
    if (flush_inside) flush();
    if (!per_kernel) {
      auto push = params<CUpti_RangeProfiler_PushRange_Params>(
          CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
      push.pRangeProfilerObject = prof.get();
      push.pRangeName = role.c_str();
      cupti_check(api_, api_.RangePushRange(&push), "cuptiRangeProfilerPushRange", where);
    }
    launch();
    if (!per_kernel) {
      auto pop = params<CUpti_RangeProfiler_PopRange_Params>(
          CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
      pop.pRangeProfilerObject = prof.get();
      cupti_check(api_, api_.RangePopRange(&pop), "cuptiRangeProfilerPopRange", where);
    }
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
    throw CountersUnavailable("CUPTI dropped " + std::to_string(decode.numOfRangeDropped) +
                              " ranges [" + where + "]");
  auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  cupti_check(api_, api_.RangeGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo",
              where);
  if (info.numTotalRanges <= dropped || info.numTotalRanges > ranges)
    throw CountersUnavailable("expected " + std::to_string(dropped + 1) + ".." +
                              std::to_string(ranges) + " ranges, CUPTI has " +
                              std::to_string(info.numTotalRanges) + " [" + where + "]");
  std::vector<KernelCounters> out;
  for (std::size_t r = dropped; r < info.numTotalRanges; ++r) {
    std::vector<double> values(names.size(), 0.0);
    auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    eval.pHostObject = host_;
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = r;
    eval.ppMetricNames = names.data();
    eval.numMetrics = names.size();
    eval.pMetricValues = values.data();
    cupti_check(api_, api_.HostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues",
                where);
    KernelCounters k;
    // A step of several kernels (CUB's device reduce): "whole", "whole_2", ...
    const std::size_t kernel = r - dropped;
    k.role = kernel == 0 ? role : role + "_" + std::to_string(kernel + 1);
    for (std::size_t i = 0; i < names.size(); ++i) k.values.emplace_back(metrics_[i], values[i]);
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace rl
