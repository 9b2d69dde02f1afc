// Walks an experiment point by point on one backend: warm-up, samples until quiet or out of
// budget, verification against the host block model, progress, cancellation between samples.
// Call run() from any thread (the GUI's worker, the CLI's main thread); callbacks run on that
// thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include "backend.h"
#include "results.h"

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
};

class Runner {
 public:
  explicit Runner(std::unique_ptr<Backend> backend);
  ~Runner();
  const DeviceInfo& device() const;
  Backend& backend();

  // Validates, expands and runs. Throws rl::Error with every validation message when the spec
  // is invalid. Setting *cancel stops between samples; finished points are kept and the
  // session says cancelled.
  Session run(const ExperimentSpec& spec, const RunCallbacks& callbacks,
              const std::atomic<bool>* cancel = nullptr);

 private:
  PointResult run_point(const PointSpec& p, const TimingOptions& t, const std::atomic<bool>* cancel,
                        bool* cancelled);
  std::unique_ptr<Backend> backend_;
  struct InputCache;
  std::unique_ptr<InputCache> inputs_;
};

}  // namespace rl
