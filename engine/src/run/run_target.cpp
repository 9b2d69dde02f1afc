#include "engine/run/run_target.h"

#include "engine/core/error.h"
#include "engine/process/supervisor.h"

namespace rl {

RunTarget::RunTarget(RunTargetOptions options) : options_(std::move(options)) {
  const auto notice = [this](const std::string& what) {
    if (options_.on_notice) options_.on_notice(what);
  };
  int device = options_.device;
  if (device < kAutoDevice) throw DeviceChoiceError("no such device " + std::to_string(device));
  if (options_.backend) {  // a test's backend: in this process, whatever the device
    index_ = device == kAutoDevice ? 0 : device;
    runner_ = std::make_unique<Runner>(options_.backend(index_));
    return;
  }
  if (device != kHostDevice) {
    Discovery found;
    if (!options_.discovery) found = discover_devices();
    const Discovery& d = options_.discovery ? *options_.discovery : found;
    if (d.gpus.empty()) {
      if (device != kAutoDevice) throw DeviceChoiceError("no GPU: " + d.no_gpu_reason);
      notice("no GPU (" + d.no_gpu_reason + "); running on the host backend");
      device = kHostDevice;
    } else {
      if (device == kAutoDevice) device = d.gpus.front().index;
      const DeviceInfo* gpu = nullptr;
      for (const DeviceInfo& g : d.gpus)
        if (g.index == device) gpu = &g;
      if (!gpu) throw DeviceChoiceError(no_such_gpu(int(d.gpus.size())));
      gpu_ = *gpu;
    }
  }
  index_ = device;
  if (index_ == kHostDevice) {
    runner_ = std::make_unique<Runner>(make_host_backend());
    return;
  }
  std::string looked_at;
  if (!options_.in_process) worker_ = find_worker(&looked_at);
  if (worker_.empty()) {
    if (!options_.in_process)
      notice("no GPU worker process (" + looked_at +
             " is missing): runs happen in this process, where a GPU fault leaves the GPU "
             "unusable until the program is started again");
  }
}

RunTarget::~RunTarget() = default;

const DeviceInfo& RunTarget::device() const {
  return runner_ ? runner_->device() : gpu_;
}

std::string RunTarget::profiling_problem(const RunProfiling& profiling) const {
  const int kinds =
      int(!profiling.counters.empty()) + int(profiling.line_samples) + int(profiling.line_counts);
  if (kinds > 1) return kCountersOrLineSamples;
  if (profiling.line_counts && worker_.empty()) return kLineCountsNeedWorkers;
  return {};
}

Session RunTarget::run(const ExperimentSpec& spec, const RunProfiling& profiling,
                       const RunCallbacks& callbacks, const std::atomic<bool>* cancel,
                       const Session* resume) {
  if (const std::string why = profiling_problem(profiling); !why.empty()) throw Error(why);
  // On the first run, on the thread that runs it (the CUDA backend calls cudaSetDevice there),
  // after the front end has checked its spec against the discovered device.
  if (worker_.empty() && !runner_) runner_ = std::make_unique<Runner>(make_cuda_backend(index_));
  if (runner_) {
    // The runner is kept between runs: this run's choice replaces the last one's (off first,
    // as the runner refuses two together).
    runner_->set_line_samples(false);
    runner_->set_counters(profiling.counters);
    runner_->set_line_samples(profiling.line_samples);
    return runner_->run(spec, callbacks, cancel, resume);
  }
  SupervisorOptions o;
  o.worker = worker_;
  o.device_index = index_;
  o.device = gpu_;
  o.counters = profiling.counters;
  o.line_samples = profiling.line_samples;
  o.line_counts = profiling.line_counts;
  o.on_notice = options_.on_notice;
  Supervisor supervisor(std::move(o));
  return supervisor.run(spec, callbacks, cancel, resume);
}

DeviceMeasurement measure_device(int device) {
  Runner runner(make_cuda_backend(device));
  DeviceMeasurement out;
  out.device = runner.device();
  const TimingOptions timing;
  bool cancelled = false;
  for (std::uint64_t bytes : {std::uint64_t(1) << 18, std::uint64_t(1) << 22,
                              std::uint64_t(1) << 26, device_floor_bytes(out.device)})
    out.floors.push_back(runner.measure_read_floor(bytes, timing, nullptr, &cancelled));
  runner.backend().release();
  return out;
}

}  // namespace rl
