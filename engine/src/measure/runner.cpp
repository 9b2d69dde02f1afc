#include "engine/measure/runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "engine/catalog/catalog.h"
#include "engine/core/build_info.h"
#include "engine/core/error.h"
#include "engine/core/utc_time.h"
#include "engine/io/resume.h"
#include "engine/measure/verify.h"
#include "engine/model/block_model.h"
#include "engine/session/metrics.h"
#include "engine/trace/model_counts.h"
#include "engine/user/user_kernel.h"
#include "measure/sampling.h"
#include "measure/user_check.h"

namespace rl {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

bool is_cancelled(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}

}  // namespace

// Keeps the input of the current (size, type): points are ordered so that it changes rarely.
struct Runner::InputCache {
  InputData data;
  bool valid = false;
  // nullptr when *cancel was set while the input was made.
  const InputData* get(std::uint64_t n, DType t, const std::atomic<bool>* cancel) {
    if (!valid || data.size() != n || data.type != t) {
      data = InputData{};  // free the old one first: at 2^28 each is 1 GB
      valid = false;
      data = make_input(n, t, 0x5EED, cancel);
      if (data.size() != n) return nullptr;
      valid = true;
    }
    return &data;
  }
};

Runner::Runner(std::unique_ptr<Backend> backend)
    : backend_(std::move(backend)), inputs_(std::make_unique<InputCache>()) {}
Runner::~Runner() = default;
const DeviceInfo& Runner::device() const {
  return backend_->device();
}
Backend& Runner::backend() {
  return *backend_;
}
void Runner::set_counters(const std::vector<std::string>& ids) {
  if (!ids.empty() && line_samples_) throw Error(kCountersOrLineSamples);
  counters_ = ids.empty() ? nullptr : std::make_unique<CounterPass>(ids);
}
void Runner::set_line_samples(bool on) {
  if (on && counters_) throw Error(kCountersOrLineSamples);
  line_samples_.reset();  // a sampler of this device is disabled before another is enabled
  if (on) line_samples_ = std::make_unique<LineSamplePass>(backend_->device().index);
}

Session Runner::run(const ExperimentSpec& spec, const RunCallbacks& cb,
                    const std::atomic<bool>* cancel, const Session* resume) {
  const auto errors = validate(spec, &backend_->device());
  if (!errors.empty()) {
    std::string msg = errors.front();
    for (std::size_t i = 1; i < errors.size(); ++i) msg += "; " + errors[i];
    throw Error(msg);
  }
  Session session;
  session.tool_version = rl::tool_version();
  session.git_commit = rl::git_commit();
  session.created_utc = utc_now();
  session.device = backend_->device();
  session.spec = spec;
  const FinishedPoints finished(resume, continuing_);  // resume.h: kept, not run again
  if (resume) {
    session.read_floors = resume->read_floors;
    session.timelines = resume->timelines;  // recorded apart from the points: kept as they are
  }
  const std::vector<PointSpec> points = expand(spec);
  const auto start = Clock::now();
  const bool floor_known = continuing_ && resume && resume->device.measured_read_gbps > 0;
  if (floor_known) {
    session.device.measured_read_gbps = resume->device.measured_read_gbps;
    session.device.read_floor_bytes = resume->device.read_floor_bytes;
  }
  // A device lost to a fault (recover_device) is not touched again: its points fail, saying why.
  if (!floor_known && device_lost_.empty() && backend_->read_floor_shapes() > 0 &&
      !points.empty()) {
    bool cancelled = false;
    const ReadFloor f =
        measure_read_floor(device_floor_bytes(session.device), spec.timing, cancel, &cancelled);
    backend_->release();  // the floor's own buffer, before the points need the memory
    if (cancelled) {
      session.cancelled = true;
      return session;
    }
    session.device.measured_read_gbps = f.gbps();
    session.device.read_floor_bytes = f.bytes;
  }
  Progress progress;
  progress.total = points.size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (is_cancelled(cancel)) {
      session.cancelled = true;
      break;
    }
    progress.done = i;
    progress.current = points[i];
    progress.elapsed_s = seconds_since(start);
    progress.eta_s = i ? progress.elapsed_s / double(i) * double(points.size() - i) : -1;
    if (cb.on_progress) cb.on_progress(progress);
    bool cancelled = false;
    const PointResult* kept = finished.find(points[i]);
    PointResult r =
        kept ? *kept : run_point(points[i], spec.timing, session.read_floors, cancel, &cancelled);
    if (cancelled) {  // a point cut short is not a result
      session.cancelled = true;
      break;
    }
    session.results.push_back(std::move(r));
    compute_speedups(session.results, spec.baseline);
    if (cb.on_result) cb.on_result(session.results.back());
    if (cb.on_session) cb.on_session(session);
  }
  backend_->release();
  progress.done = session.results.size();
  progress.elapsed_s = seconds_since(start);
  progress.eta_s = 0;
  if (cb.on_progress) cb.on_progress(progress);
  return session;
}

std::uint64_t device_floor_bytes(const DeviceInfo& d) {
  const std::uint64_t gib = std::uint64_t(1) << 30;
  const std::uint64_t quarter = d.free_memory / 4 / 16 * 16;
  return quarter > 0 && quarter < gib ? quarter : gib;
}

ReadFloor Runner::measure_read_floor(std::uint64_t bytes, const TimingOptions& t,
                                     const std::atomic<bool>* cancel, bool* cancelled) {
  ReadFloor best;
  best.bytes = bytes;
  for (int shape = 0; shape < backend_->read_floor_shapes(); ++shape) {
    for (int w = 0; w < std::max(t.warmup, 1); ++w)
      backend_->read_floor_sample(bytes, shape, t.cold_l2);
    std::vector<double> samples, floor_samples;
    const bool quiet = sample_until_quiet(t, cancel, cancelled, samples, [&] {
      const double ms = backend_->read_floor_sample(bytes, shape, t.cold_l2);
      if (const auto floor = backend_->timestamp_floor_sample(t.cold_l2))
        floor_samples.push_back(*floor);
      return ms;
    });
    if (*cancelled) return best;
    const Summary time = summarize(samples);
    if (best.time.empty() || time.median_ms < best.time.median_ms) {
      best.shape = backend_->read_floor_shape_label(shape, bytes);
      best.time = time;
      best.gpu_time = gpu_time_of(samples, summarize(floor_samples), 1);
      best.noisy = !quiet;
    }
  }
  return best;
}

const ReadFloor* Runner::read_floor_for(std::uint64_t bytes, const TimingOptions& t,
                                        std::vector<ReadFloor>& floors,
                                        const std::atomic<bool>* cancel, bool* cancelled) {
  if (backend_->read_floor_shapes() == 0) return nullptr;
  if (const ReadFloor* known = find_read_floor(floors, bytes)) return known;
  ReadFloor f = measure_read_floor(bytes, t, cancel, cancelled);
  if (*cancelled) return nullptr;
  floors.push_back(std::move(f));
  return &floors.back();
}

PointResult Runner::run_point(const PointSpec& p, const TimingOptions& t,
                              std::vector<ReadFloor>& floors, const std::atomic<bool>* cancel,
                              bool* cancelled) {
  PointResult r;
  r.point = p;
  // What the point's launch does on a GPU, from the block model: arithmetic, no timing.
  r.counts = model_counts(p);
  if (!device_lost_.empty()) {
    r.status = PointStatus::Failed;
    r.message =
        "not run: the device was lost (" + device_lost_ +
        "); CUDA cannot go on in this process after such an error: restart the program to use "
        "the GPU again";
    return r;
  }
  const std::string why = backend_->unsupported_reason(p);
  if (!why.empty()) {
    r.status = PointStatus::Skipped;
    r.message = why;
    return r;
  }
  try {
    if (const std::string wrong = check_user_kernel_first(p, cancel); !wrong.empty()) {
      r.status = PointStatus::Wrong;  // never timed: it has no bar and no speed-up
      r.message = wrong;
      return r;
    }
    if (is_cancelled(cancel)) return *cancelled = true, r;
    const InputData* made = inputs_->get(p.size, p.type, cancel);
    if (made == nullptr) return *cancelled = true, r;
    const InputData& input = *made;
    backend_->prepare(p, input);
    r.grid = backend_->grid();
    // Measured over this point's own input, before its samples, once per size; kept in floors.
    read_floor_for(input_bytes(p), t, floors, cancel, cancelled);
    if (*cancelled) return r;
    for (int w = 0; w < t.warmup; ++w) {
      if (is_cancelled(cancel)) return *cancelled = true, r;
      backend_->run_sample(t.cold_l2);
    }
    const bool quiet = sample_until_quiet(t, cancel, cancelled, r.total_samples_ms, [&] {
      const SampleTimes s = backend_->run_sample(t.cold_l2);
      if (s.first_ms) r.first_samples_ms.push_back(*s.first_ms);
      r.event_spans = s.spans;
      if (const auto floor = backend_->timestamp_floor_sample(t.cold_l2))
        r.floor_samples_ms.push_back(*floor);
      return s.total_ms;
    });
    if (*cancelled) return r;
    r.noisy = !quiet;
    // Variants that size their own grid tell it once a sample ran (the host's models past the
    // classic ladder).
    if (r.grid == 0) r.grid = backend_->grid();
    r.first_kernel = summarize(r.first_samples_ms);
    r.total = summarize(r.total_samples_ms);
    r.timestamp_floor = summarize(r.floor_samples_ms);
    r.gpu_time = gpu_time_of(r.total_samples_ms, r.timestamp_floor, r.event_spans);
    if (r.timestamp_floor.empty()) r.event_spans = 0;
    const ReductionOutput out = backend_->read_output();
    verify_point(p, input, out, backend_->is_gpu(), &r);
    // Asked of the runtime, nothing run; a point is measured without it if it cannot be had.
    try {
      r.occupancy = backend_->occupancy();
    } catch (const std::exception&) {
      r.occupancy.clear();
    }
    // After the samples, never among them: profiling replays kernels and perturbs time.
    if (counters_) r.counters = counters_->measure(*backend_, p);
    if (line_samples_) r.line_samples = line_samples_->measure(*backend_, p);
  } catch (const std::exception& e) {
    r.status = PointStatus::Failed;
    r.message = e.what();
    recover_device(&r);
  }
  return r;
}

std::string Runner::check_user_kernel_first(const PointSpec& p, const std::atomic<bool>* cancel) {
  if (!backend_->is_gpu() || !is_user_variant(p.variant)) return {};
  const std::optional<UserKernelSource> k = user_variant_source(p.variant);
  const std::string key = p.variant + '\0' + (k ? k->source : std::string()) + '\0' +
                          std::to_string(p.block_size) + ' ' + std::to_string(p.unroll) + ' ' +
                          std::string(to_string(p.type));
  if (auto it = user_checked_.find(key); it != user_checked_.end()) return it->second;
  std::string wrong = check_user_point(*backend_, p, cancel);
  if (!is_cancelled(cancel)) user_checked_[key] = wrong;
  return wrong;
}

void Runner::recover_device(PointResult* r) {
  try {
    const std::string done = backend_->recover();
    if (done.empty()) return;
    r->message += "; " + done;
    // The profiler's state belonged to the old context.
    if (counters_) counters_ = std::make_unique<CounterPass>(counters_->metrics());
    if (line_samples_) set_line_samples(true);
  } catch (const std::exception& e) {
    device_lost_ = e.what();
    r->message += "; the device could not be recovered: " + device_lost_;
  }
}

}  // namespace rl
