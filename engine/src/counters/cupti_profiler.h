// CUPTI's range profiler with the profiler host API (cupti_range_profiler.h,
// cupti_profiler_host.h), one range per kernel: the caller launches one step (a kernel, or a
// library call of several) and gets each kernel's metrics. User replay: before every replay
// pass the caller's setup runs again (restore the in-place input, run the steps before, flush
// L2), so every pass sees what ncu's replay with --cache-control all sees, and the in-place
// kernels find their input.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "counters/cupti_api.h"
#include "engine/session/counter_values.h"

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

  // The kernels launch() starts, each a range of its own (cupti_ranges.cpp): for each replay
  // pass, setup() (untimed, outside the ranges), flush() (empties L2 and waits), then launch()
  // (it must wait for its kernels). With per-kernel ranges the flush runs after the profiler
  // starts, its kernel a range of its own that is dropped: what starting a pass writes then
  // reaches DRAM before the kernel runs instead of while it runs, as with ncu's flush (on the
  // H200, flushed before the start, warp_shuffle B=1024 U=8 wrote 10.7 MB to DRAM against ncu's
  // 2.1-2.4 MB; flushed inside, 27 KB). One KernelCounters per kernel: `role`, then
  // role_2, ... for further kernels. An empty flush: nothing between setup and launch. Throws
  // CountersUnavailable or rl::Error with `context`.
  std::vector<KernelCounters> profile(const std::string& role, const std::function<void()>& setup,
                                      const std::function<void()>& flush,
                                      const std::function<void()>& launch,
                                      const std::string& context);

  const std::vector<std::string>& metrics() const { return metrics_; }
  // Metrics dropped, and why; and whether ranges had to span whole launches.
  std::string note() const {
    return note_ + (note_.empty() || range_note_.empty() ? "" : "; ") + range_note_;
  }
  int passes() const { return passes_; }  // replay passes per range
  const std::string& chip() const { return chip_; }

 private:
  // A host object with `metrics` configured: fills the config image; throws on a bad metric.
  void build_config(const std::vector<std::string>& metrics, std::vector<std::uint8_t>& image);
  std::vector<const char*> metric_ptrs() const;
  std::vector<KernelCounters> run_ranges(bool per_kernel, const std::string& role,
                                         const std::function<void()>& setup,
                                         const std::function<void()>& flush,
                                         const std::function<void()>& launch,
                                         const std::string& context);

  const CuptiApi& api_;
  CUcontext ctx_ = nullptr;
  bool initialized_ = false;
  std::string chip_;
  std::vector<std::uint8_t> availability_, config_;
  CUpti_Profiler_Host_Object* host_ = nullptr;  // evaluates the counter data of config_
  std::vector<std::string> metrics_;
  std::string note_;
  int passes_ = 0;
  bool user_ranges_ = false;  // per-kernel ranges were refused
  std::string range_note_;
};

}  // namespace rl
