// CUPTI's SASS metrics (cupti_sass_metrics.h) for the line-count pass: CUPTI patches the kernels'
// code with counters of its own, and reports, per executed instruction (cubin, function, PC
// offset), how many warp instructions and thread instructions ran there. Only the launches the
// caller wraps are counted (not its setup): collection is enabled around them alone.
//
// Once per process, first thing. Measured on the H200 with CUDA 13.0's CUPTI: records come back
// from the first flush of the first Enable..Disable session of a process only, for the first
// kernel launched in it, and none at all when another kernel (a cudaMemset of 8 KiB or more, a
// device-to-device copy) ran in the process before; a context on which PC sampling was ever
// enabled returns none. So each launch step is counted in a fresh process that launches nothing
// else first (counters/line_count_pass.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "counters/cupti_api.h"
#include "engine/session/line_samples.h"

namespace rl {

class SassCounter {
 public:
  // Configures smsp__sass_inst_executed and smsp__sass_thread_inst_executed (summed over the
  // GPU) on CUDA device `device`, its primary context made current. Throws CountersUnavailable
  // when CUPTI or its SASS metrics are missing, the device does not support them, or the driver
  // refuses profiling.
  explicit SassCounter(int device);
  ~SassCounter();  // unsets the configuration
  SassCounter(const SassCounter&) = delete;
  SassCounter& operator=(const SassCounter&) = delete;

  // setup() (not counted), then launch() counted (it must wait for its kernels): the counts per
  // function, in the order first seen, each tagged with role_of(its function name), PCs by
  // offset. Throws CountersUnavailable when this process has counted before (see the top), or
  // rl::Error with the CUPTI call's name and `context` in the message.
  struct Counted {
    std::vector<SampledFunction> functions;
    std::uint64_t dropped = 0;  // records CUPTI dropped (collection disabled before they were read)
  };
  Counted count(const std::function<std::string(const std::string&)>& role_of,
                const std::function<void()>& setup, const std::function<void()>& launch,
                const std::string& context);

  const std::string& chip() const { return chip_; }

 private:
  // The metric's id on this chip; throws naming the metric where the chip has none.
  std::uint64_t metric_id(const std::string& name, const std::string& where);
  void flush(std::vector<SampledFunction>& into,
             const std::function<std::string(const std::string&)>& role_of,
             const std::string& context);

  const CuptiApi& api_;
  int device_ = 0;
  CUcontext ctx_ = nullptr;
  bool initialized_ = false, configured_ = false;
  std::string chip_;
  std::uint64_t inst_id_ = 0, thread_id_ = 0;
};

}  // namespace rl
