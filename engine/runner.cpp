#include "runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "block_model.h"
#include "catalog.h"
#include "error.h"
#include "verify.h"

#ifndef RL_VERSION
#define RL_VERSION "dev"
#endif
#ifndef RL_GIT_COMMIT
#define RL_GIT_COMMIT "unknown"
#endif

namespace rl {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool is_cancelled(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}
}  // namespace

// Keeps the input of the current (size, type): points are ordered so that it changes rarely.
struct Runner::InputCache {
  InputData data;
  bool valid = false;
  const InputData& get(std::uint64_t n, DType t) {
    if (!valid || data.size() != n || data.type != t) {
      data = InputData{};  // free the old one first: at 2^28 each is 1 GB
      data = make_input(n, t);
      valid = true;
    }
    return data;
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

Session Runner::run(const ExperimentSpec& spec, const RunCallbacks& cb,
                    const std::atomic<bool>* cancel) {
  const auto errors = validate(spec, &backend_->device());
  if (!errors.empty()) {
    std::string msg = errors.front();
    for (std::size_t i = 1; i < errors.size(); ++i) msg += "; " + errors[i];
    throw Error(msg);
  }
  Session session;
  session.tool_version = RL_VERSION;
  session.git_commit = RL_GIT_COMMIT;
  session.created_utc = utc_now();
  session.device = backend_->device();
  session.spec = spec;
  const std::vector<PointSpec> points = expand(spec);
  const auto start = Clock::now();
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
    PointResult r = run_point(points[i], spec.timing, cancel, &cancelled);
    if (cancelled) {  // a point cut short is not a result
      session.cancelled = true;
      break;
    }
    session.results.push_back(std::move(r));
    compute_speedups(session.results, spec.baseline);
    if (cb.on_result) cb.on_result(session.results.back());
  }
  backend_->release();
  progress.done = session.results.size();
  progress.elapsed_s = seconds_since(start);
  progress.eta_s = 0;
  if (cb.on_progress) cb.on_progress(progress);
  return session;
}

PointResult Runner::run_point(const PointSpec& p, const TimingOptions& t,
                              const std::atomic<bool>* cancel, bool* cancelled) {
  PointResult r;
  r.point = p;
  const std::string why = backend_->unsupported_reason(p);
  if (!why.empty()) {
    r.status = PointStatus::Skipped;
    r.message = why;
    return r;
  }
  try {
    const InputData& input = inputs_->get(p.size, p.type);
    backend_->prepare(p, input);
    r.grid = backend_->grid();
    for (int w = 0; w < t.warmup; ++w) {
      if (is_cancelled(cancel)) return *cancelled = true, r;
      backend_->run_sample(t.cold_l2);
    }
    const auto begin = Clock::now();
    while (true) {
      if (is_cancelled(cancel)) return *cancelled = true, r;
      const SampleTimes s = backend_->run_sample(t.cold_l2);
      if (s.first_ms) r.first_samples_ms.push_back(*s.first_ms);
      r.total_samples_ms.push_back(s.total_ms);
      r.event_spans = s.spans;
      if (const auto floor = backend_->timestamp_floor_sample(t.cold_l2))
        r.floor_samples_ms.push_back(*floor);
      const int n = static_cast<int>(r.total_samples_ms.size());
      if (n >= t.max_samples) break;
      if (n >= t.min_samples) {
        if (seconds_since(begin) * 1e3 >= t.budget_ms) break;
        if (summarize(r.total_samples_ms).noise < t.noise) break;
      }
    }
    r.first_kernel = summarize(r.first_samples_ms);
    r.total = summarize(r.total_samples_ms);
    r.timestamp_floor = summarize(r.floor_samples_ms);
    r.gpu_time = gpu_time_of(r.total_samples_ms, r.timestamp_floor, r.event_spans);
    if (r.timestamp_floor.empty()) r.event_spans = 0;
    const ReductionOutput out = backend_->read_output();
    verify_point(p, input, out, backend_->is_gpu(), &r);
    const double bytes = double(p.size) * double(kernels::dtype_size(p.type));
    if (r.total.median_ms > 0) r.total_gbps = bytes / (r.total.median_ms * 1e-3) / 1e9;
    if (r.first_kernel.median_ms > 0)
      r.first_gbps = bytes / (r.first_kernel.median_ms * 1e-3) / 1e9;
    const DeviceInfo& d = backend_->device();
    if (d.theoretical_gbps > 0) r.pct_of_theoretical = 100.0 * r.total_gbps / d.theoretical_gbps;
    if (d.measured_copy_gbps > 0) r.pct_of_copy = 100.0 * r.total_gbps / d.measured_copy_gbps;
  } catch (const std::exception& e) {
    r.status = PointStatus::Failed;
    r.message = e.what();
  }
  return r;
}

}  // namespace rl
