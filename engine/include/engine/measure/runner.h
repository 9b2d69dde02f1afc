// Walks an experiment point by point on one backend: warm-up, samples until quiet or out of
// budget, verification against the host block model, progress, cancellation between samples.
// Call run() from any thread (the GUI's worker, the CLI's main thread); callbacks run on that
// thread.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "engine/backend/backend.h"
#include "engine/counters/counter_pass.h"
#include "engine/counters/line_sample_pass.h"
#include "engine/session/results.h"

namespace rl {

struct Progress {
  std::size_t done = 0, total = 0;
  PointSpec current;  // the point now running
  double elapsed_s = 0;
  double eta_s = -1;  // estimate of the time left; -1 until one point finished
};

struct RunCallbacks {
  std::function<void(const Progress&)> on_progress;   // before each point, and after the last
  std::function<void(const PointResult&)> on_result;  // each point as it finishes
  // The session so far, after each point (a checkpoint: resume.h); not yet cancelled or done.
  std::function<void(const Session&)> on_session;
};

// The size of the device's read floor (DeviceInfo::measured_read_gbps): 1 GiB, or a quarter of
// the free memory where that is less.
std::uint64_t device_floor_bytes(const DeviceInfo& d);

// CUPTI's range profiler (counters) and its PC sampling (line samples) cannot share a context:
// with PC sampling enabled the profiler refuses its first call (CUPTI_ERROR_INVALID_PARAMETER,
// measured on the H200), and a profiler used first leaves later kernels without
// PCs. Its SASS metrics (line counts) patch the kernels' code with instrumentation: PC samples
// would land on patched code and the profiler would count the instrumentation's instructions
// too (line_count_pass.h). So a run takes one of the three. Line counts are never taken by a
// Runner: each launch step is counted in a fresh process (the supervisor's, process/supervisor.h).
inline constexpr const char* kCountersOrLineSamples =
    "hardware counters, line samples and line counts need runs of their own: CUPTI's profiler, "
    "its PC sampling and its SASS metrics (which patch the kernels' code) cannot share a GPU "
    "context (take each in a run of its own)";

// Why a Runner cannot take line counts (counters/line_count_pass.h): said where a run in one
// process, or on the host, is asked for them.
inline constexpr const char* kLineCountsNeedWorkers =
    "executed instructions are counted on a GPU, each launch step in a worker process of its "
    "own (CUPTI's SASS metrics count only the first kernel a process launches): not on the host "
    "backend, nor in one process (--in-process, or reductionlab-worker missing)";

class Runner {
 public:
  explicit Runner(std::unique_ptr<Backend> backend);
  ~Runner();
  const DeviceInfo& device() const;
  Backend& backend();
  // Reads these hardware counters (counter ids: engine/counters/counter_catalog.h) for every point
  // run after its timed samples, in a pass of its own; empty: none (the default).
  void set_counters(const std::vector<std::string>& ids);
  // Samples warp states per instruction (counters/line_sample_pass.h) for every point, after
  // its samples, in a pass of its own; off by default. Not with counters or line counts: throws
  // rl::Error (kCountersOrLineSamples) when both are asked for.
  void set_line_samples(bool on);
  // The resume session given to run() is this same run continued in a fresh process (a worker
  // after a fault: process/supervisor.h): its failed points are kept too (the point that faulted is
  // not run again) and its device's read floor is reused instead of measured again.
  void set_continuing(bool continuing) { continuing_ = continuing; }
  // Why the device was lost to a fault that could not be recovered in this process ("" while it
  // is usable): every later point fails saying so (recover_device).
  const std::string& device_lost() const { return device_lost_; }

  // Validates, expands and runs. Throws rl::Error with every validation message when the spec
  // is invalid. Setting *cancel stops between samples; finished points are kept and the
  // session says cancelled.
  // On a GPU the session also holds the read floor (results.h: ReadFloor) of every size it ran
  // and, in its device, the floor at a large size (device_floor_bytes).
  // With `resume` (a saved session of the same spec and device: resume.h), its finished points
  // are kept as they are, not run again, and its read floors reused.
  // A point that leaves the device unusable (a GPU fault) fails with the CUDA error named; the
  // backend resets the device and the remaining points run.
  Session run(const ExperimentSpec& spec, const RunCallbacks& callbacks,
              const std::atomic<bool>* cancel = nullptr, const Session* resume = nullptr);

  // The streaming-read floor over `bytes`: every shape the backend has, sampled as a point is,
  // the best median kept. Empty (no shapes) off a GPU. Sets *cancelled when *cancel is set.
  ReadFloor measure_read_floor(std::uint64_t bytes, const TimingOptions& t,
                               const std::atomic<bool>* cancel, bool* cancelled);

 private:
  PointResult run_point(const PointSpec& p, const TimingOptions& t, std::vector<ReadFloor>& floors,
                        const std::atomic<bool>* cancel, bool* cancelled);
  // floors' entry for bytes, measured first when missing; nullptr off a GPU or when cancelled.
  const ReadFloor* read_floor_for(std::uint64_t bytes, const TimingOptions& t,
                                  std::vector<ReadFloor>& floors, const std::atomic<bool>* cancel,
                                  bool* cancelled);
  // After a failed point: Backend::recover(), what it did added to the point's message; when the
  // device cannot be brought back, every later point fails saying so (finished ones are kept).
  void recover_device(PointResult* r);
  // For a user kernel's point on a GPU: "" when it passed the awkward-size check (run once per
  // source and shape), else what was wrong.
  std::string check_user_kernel_first(const PointSpec& p, const std::atomic<bool>* cancel);
  std::unique_ptr<Backend> backend_;
  std::string device_lost_;
  // User kernels already checked on awkward sizes, per variant, source, block size, unroll and
  // type: "" when right, else what was wrong (measure/user_check.h).
  std::map<std::string, std::string> user_checked_;
  bool continuing_ = false;
  struct InputCache;
  std::unique_ptr<InputCache> inputs_;
  std::unique_ptr<CounterPass> counters_;
  std::unique_ptr<LineSamplePass> line_samples_;
};

}  // namespace rl
