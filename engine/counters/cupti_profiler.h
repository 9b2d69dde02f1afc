// CUPTI's range profiler with the profiler host API (cupti_range_profiler.h,
// cupti_profiler_host.h), one range per launch: the caller launches one kernel (or one library
// call) and gets its metrics. User replay: before every replay pass the caller's setup runs
// again (restore the in-place input, run the steps before, flush L2), so every pass sees what
// ncu's kernel replay with --cache-control all sees, and the in-place kernels find their input.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "counters/counter_values.h"
#include "counters/cupti_api.h"

namespace rl {

class CuptiProfiler {
 public:
  // Binds CUDA device `device` (its primary context, made current), initializes the profiler
  // and builds the configuration for `metrics`. Metrics this GPU does not know are dropped and
  // named in note(); throws CountersUnavailable when none is left, CUPTI is missing, or the
  // driver refuses profiling.
  CuptiProfiler(int device, const std::vector<std::string>& metrics);
  ~CuptiProfiler();
  CuptiProfiler(const CuptiProfiler&) = delete;
  CuptiProfiler& operator=(const CuptiProfiler&) = delete;

  // One range named `role`: for each replay pass, setup() (untimed, unprofiled) then launch()
  // inside the range (it must wait for its kernels). Throws CountersUnavailable or rl::Error
  // with `context` in the message.
  KernelCounters profile(const std::string& role, const std::function<void()>& setup,
                         const std::function<void()>& launch, const std::string& context);

  const std::vector<std::string>& metrics() const { return metrics_; }
  const std::string& note() const { return note_; }  // metrics dropped, and why
  int passes() const { return passes_; }             // replay passes per range
  const std::string& chip() const { return chip_; }

 private:
  // A host object with `metrics` configured: fills the config image; throws on a bad metric.
  void build_config(const std::vector<std::string>& metrics, std::vector<std::uint8_t>& image);
  std::vector<const char*> metric_ptrs() const;

  const CuptiApi& api_;
  CUcontext ctx_ = nullptr;
  bool initialized_ = false;
  std::string chip_;
  std::vector<std::uint8_t> availability_, config_;
  CUpti_Profiler_Host_Object* host_ = nullptr;  // evaluates the counter data of config_
  std::vector<std::string> metrics_;
  std::string note_;
  int passes_ = 0;
};

}  // namespace rl
