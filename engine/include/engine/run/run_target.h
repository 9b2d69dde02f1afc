// One way to run an experiment on this machine: a front end says which device, whether worker
// processes may be used, and what to read besides the times; the engine decides the rest, the
// same way for the CLI, the app and the tests:
//   - no device named: the first GPU, else the host backend (and a notice says why);
//   - a GPU: measured in reductionlab-worker processes (process/supervisor.h), so a GPU fault costs
//     one point; without the worker executable (or with in_process) in this process, and a
//     notice says what that costs;
//   - the host backend, or a backend made by a test's factory: in this process.
// A RunTarget is kept between runs (the app keeps one, for the device last run on): an in-process
// runner keeps its CUDA context and measured floors; worker runs hold no CUDA context here.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/experiment/spec.h"
#include "engine/measure/runner.h"
#include "engine/session/results.h"

namespace rl {

inline constexpr int kHostDevice = -1;  // the host backend (CPU emulation)
inline constexpr int kAutoDevice = -2;  // the first GPU, else the host

// What a run reads besides its times: hardware counters (ids of counters/counter_catalog.h),
// warp samples per line, or executed instructions per line. Never two of them
// (kCountersOrLineSamples); line counts need worker processes (kLineCountsNeedWorkers).
struct RunProfiling {
  std::vector<std::string> counters;
  bool line_samples = false;
  bool line_counts = false;
  bool operator==(const RunProfiling&) const = default;
};

// A device named that this machine does not have. The message names no flag or field: the
// front end that took the choice adds its own ("--device cuda:3: ...").
class DeviceChoiceError : public Error {
 public:
  using Error::Error;
};

struct RunTargetOptions {
  int device = kAutoDevice;  // a CUDA ordinal, kHostDevice or kAutoDevice
  bool in_process = false;   // never worker processes
  // The GPUs known to the front end (the app's discovery, with links); discovered here when
  // null and a GPU is asked for.
  const Discovery* discovery = nullptr;
  // Tests: the backend for a device, always in this process.
  std::function<std::unique_ptr<Backend>(int device)> backend;
  // What the run costs or falls back to, and what the supervisor says of lost workers: one line
  // each, for a status line or stderr. Optional.
  std::function<void(const std::string&)> on_notice;
};

class RunTarget {
 public:
  // Decides where runs happen. Throws DeviceChoiceError for a device this machine lacks
  // ("no such GPU; found 1 (cuda:0..cuda:0)", "no GPU: <why>"), rl::Error when the backend
  // cannot be made.
  explicit RunTarget(RunTargetOptions options);
  ~RunTarget();
  RunTarget(const RunTarget&) = delete;
  RunTarget& operator=(const RunTarget&) = delete;

  // The device runs are measured on: the discovered GPU until an in-process run has opened it
  // (the session holds the device as measured, with its floors).
  const DeviceInfo& device() const;
  int device_index() const { return index_; }  // the CUDA ordinal, or kHostDevice
  bool in_workers() const { return !worker_.empty(); }

  // Why this target cannot read what profiling asks for ("" when it can): two kinds at once
  // (kCountersOrLineSamples), or line counts in this process (kLineCountsNeedWorkers).
  std::string profiling_problem(const RunProfiling& profiling) const;

  // Validates, expands and runs spec (Runner::run's contract: the callbacks on this thread,
  // *cancel checked between samples, resume's finished points kept). Throws rl::Error for an
  // invalid spec or profiling_problem().
  Session run(const ExperimentSpec& spec, const RunProfiling& profiling,
              const RunCallbacks& callbacks, const std::atomic<bool>* cancel = nullptr,
              const Session* resume = nullptr);

 private:
  RunTargetOptions options_;
  int index_ = kHostDevice;
  std::string worker_;              // the worker executable, "" when runs happen in this process
  DeviceInfo gpu_;                  // the discovered GPU, for worker runs
  std::unique_ptr<Runner> runner_;  // in-process runs
};

// A GPU's roofs, measured in this process as a point's are (`reductionlab-cli devices
// --measure`): its copy bandwidth and its read floor from latency-bound to DRAM-bound sizes
// (256 KiB, 4 MiB, 64 MiB) and at its floor size (device_floor_bytes).
struct DeviceMeasurement {
  DeviceInfo device;  // with measured_copy_gbps
  std::vector<ReadFloor> floors;
};
DeviceMeasurement measure_device(int device);

}  // namespace rl
