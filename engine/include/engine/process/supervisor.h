// Runs an experiment on a GPU in worker processes (process/worker.h; docs/architecture.md,
// "Processes"), so that a GPU fault costs one point, not the rest of the run: CUDA cannot go on
// in a process after a sticky error such as cudaErrorIllegalAddress (on the H200 even
// cudaDeviceReset then cudaSetDevice answers cudaErrorDevicesUnavailable), but a fresh process
// can. The supervisor itself never touches CUDA.
// When a worker reports the device lost, or dies (a crash, a signal), the finished points are
// kept, the point it was running fails with the CUDA error (or how the worker died), and a fresh
// worker runs the rest. After kMaxConsecutiveFailures workers in a row end that way without
// finishing a point, the remaining points fail saying why.
// Same shape as Runner::run: the same callbacks, called on the calling thread, the same session.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/measure/runner.h"

namespace rl {

struct SupervisorOptions {
  std::string worker;  // the worker executable (find_worker)
  int device_index = 0;
  // The device as discovered (no CUDA context needed): validates the spec, and stands in the
  // session until the first worker reports its own (with the measured floors).
  DeviceInfo device;
  std::vector<std::string> counters;  // Runner::set_counters
  bool line_samples = false;          // Runner::set_line_samples
  // Executed instructions per line (counters/line_count_pass.h): each point is timed in a worker
  // of its own, then each of its launch steps is counted by a further worker, before the next
  // point is timed; the counts join the point's line_samples before its callbacks run.
  bool line_counts = false;
  int max_consecutive_failures = 3;
  // Says what happened when a worker was lost and what comes next ("the GPU worker process was
  // lost at <point> (the device was lost: ...); a fresh one runs the remaining 5 points"), on
  // the calling thread; for a front end's status line. Optional.
  std::function<void(const std::string&)> on_notice;
};

class Supervisor {
 public:
  explicit Supervisor(SupervisorOptions options);
  const DeviceInfo& device() const { return options_.device; }
  // As Runner::run: throws rl::Error when the spec is invalid or the first worker cannot start
  // (with its reason). Setting *cancel kills the worker at once; the finished points are kept
  // and the session says cancelled.
  Session run(const ExperimentSpec& spec, const RunCallbacks& callbacks,
              const std::atomic<bool>* cancel = nullptr, const Session* resume = nullptr);
  // Workers started by the last run() (tests).
  int workers_started() const { return workers_started_; }

 private:
  SupervisorOptions options_;
  int workers_started_ = 0;
};

// Where an installed tree keeps the worker, relative to the install prefix (bin/'s sibling).
inline constexpr const char* kWorkerInstallDir = "libexec/reductionlab";

// The worker executable: $REDUCTIONLAB_WORKER when set (tests), else reductionlab-worker beside
// this program (/proc/self/exe), else in kWorkerInstallDir next to this program's bin/. "" when
// there is none; *looked_at (when given) then says where it was looked for.
std::string find_worker(std::string* looked_at = nullptr);

}  // namespace rl
