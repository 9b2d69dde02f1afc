#include "engine/process/supervisor.h"
#include "engine/core/build_info.h"
#include "engine/core/utc_time.h"

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <thread>
#include <utility>

#include "engine/core/error.h"
#include "engine/trace/model_counts.h"
#include "process/supervisor_run.h"

namespace rl {

namespace {

bool is_set(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}

}  // namespace

Supervisor::Supervisor(SupervisorOptions options) : options_(std::move(options)) {}

Session Supervisor::run(const ExperimentSpec& spec, const RunCallbacks& callbacks,
                        const std::atomic<bool>* cancel, const Session* resume) {
  const int profilers =
      int(!options_.counters.empty()) + int(options_.line_samples) + int(options_.line_counts);
  if (profilers > 1) throw Error(kCountersOrLineSamples);
  const auto errors = validate(spec, &options_.device);
  if (!errors.empty()) {
    std::string msg = errors.front();
    for (std::size_t i = 1; i < errors.size(); ++i) msg += "; " + errors[i];
    throw Error(msg);
  }
  workers_started_ = 0;
  detail::SupervisedRun run(options_, spec, callbacks, cancel, resume);
  return run.run(&workers_started_);
}

std::string find_worker(std::string* looked_at) {
  if (const char* env = std::getenv("REDUCTIONLAB_WORKER"); env && *env) {
    if (looked_at) *looked_at = env;
    return access(env, X_OK) == 0 ? std::string(env) : "";
  }
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    if (looked_at) *looked_at = "beside this program (/proc/self/exe unreadable)";
    return "";
  }
  std::string dir(exe, std::size_t(n));
  dir.erase(dir.rfind('/') + 1);
  // The build tree puts the worker beside each program; an installed tree (cmake --install, the
  // .deb) keeps it out of PATH, in libexec/ beside bin/.
  const std::string candidates[] = {dir + "reductionlab-worker",
                                    dir + "../" + kWorkerInstallDir + "/reductionlab-worker"};
  std::string tried;
  for (const std::string& path : candidates) {
    if (access(path.c_str(), X_OK) == 0) {
      if (looked_at) *looked_at = path;
      return path;
    }
    tried += (tried.empty() ? "" : " and ") + path;
  }
  if (looked_at) *looked_at = tried;
  return "";
}

namespace detail {

SupervisedRun::SupervisedRun(const SupervisorOptions& options, const ExperimentSpec& spec,
                             const RunCallbacks& callbacks, const std::atomic<bool>* cancel,
                             const Session* resume)
    : options_(options),
      spec_(spec),
      cb_(callbacks),
      cancel_(cancel),
      resume_(resume),
      points_(expand(spec)),
      start_(std::chrono::steady_clock::now()) {
  session_.tool_version = rl::tool_version();
  session_.git_commit = rl::git_commit();
  session_.created_utc = utc_now();
  session_.device = options.device;
  session_.spec = spec;
  if (resume) {
    session_.read_floors = resume->read_floors;
    session_.timelines = resume->timelines;  // recorded apart from the points: kept as they are
  }
}

Session SupervisedRun::run(int* workers_started) {
  int failures = 0;  // workers in a row that ended on a fault or a crash
  for (bool continuing = false; session_.results.size() < points_.size(); continuing = true) {
    // A moment for the driver to finish with the lost process's context, longer after each
    // failure in a row; a cancel cuts it short.
    for (int i = 0; i < failures * 10 && !is_set(cancel_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (is_set(cancel_)) {
      session_.cancelled = true;
      break;
    }
    ++*workers_started;
    WorkerEnd end = run_worker(continuing);
    count_awaiting(end.cancelled || is_set(cancel_));
    if (end.cancelled || end.ended) {
      flush_pending("");
      session_.cancelled = end.cancelled || session_.cancelled;
      break;
    }
    // A worker that ends after a point by design (line counts: one point per process): the next
    // one goes on, with no notice and no failure counted.
    if (end.next && end.finished_point && end.error.empty() && end.lost.empty() && !end.garbled) {
      flush_pending("");
      failures = 0;
      continue;
    }
    // The first worker could not start at all (no device, a refused spec): as Runner::run throws.
    if (!continuing && !end.error.empty() && session_.results.empty() && !pending_ && !in_flight_)
      throw Error(end.error);
    failures = end.finished_point ? 1 : failures + 1;
    const bool restarting = failures < options_.max_consecutive_failures;
    worker_lost(end, restarting);
    if (restarting) continue;
    // The restarts are spent: the rest fail, saying why.
    const std::string reason = "not run: the GPU worker process failed " +
                               std::to_string(failures) + " times in a row (the last: " + why(end) +
                               "); no new worker was started";
    while (session_.results.size() < points_.size()) {
      PointResult r;
      r.point = points_[session_.results.size()];
      r.counts = model_counts(r.point);
      r.status = PointStatus::Failed;
      r.message = reason;
      append(std::move(r));
    }
  }
  Progress p;
  p.total = points_.size();
  p.done = session_.results.size();
  if (!points_.empty()) p.current = points_[std::min(p.done, p.total - 1)];
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  p.eta_s = 0;
  if (cb_.on_progress) cb_.on_progress(p);
  return session_;
}

std::string SupervisedRun::why(const WorkerEnd& end) const {
  if (!end.lost.empty()) return "the device was lost: " + end.lost;
  if (!end.error.empty()) return end.error;
  std::string s = "the worker process " + end.how;
  if (!end.stderr_tail.empty()) s += "; its last output: " + end.stderr_tail;
  return s;
}

void SupervisedRun::worker_lost(const WorkerEnd& end, bool restarting) {
  const std::string next = restarting ? "; the points after it run in a fresh worker process"
                                      : "; the GPU worker failed too often: the points after "
                                        "it are not run";
  std::string where = "between points";
  if (pending_) {  // the point that lost the device, reported with its CUDA error
    where = "at " + pending_->point.label();
    flush_pending(next);
  } else if (in_flight_ && *in_flight_ == session_.results.size()) {  // it died running a point
    PointResult r;
    r.point = points_[*in_flight_];
    r.counts = model_counts(r.point);
    r.status = PointStatus::Failed;
    r.message = "running " + r.point.label() + ": " + why(end) + next;
    where = "at " + r.point.label();
    append(std::move(r));
  }
  if (!options_.on_notice) return;
  const std::size_t left = points_.size() - session_.results.size();
  std::string notice = "the GPU worker process was lost " + where + " (" + why(end) + ")";
  if (left == 0)
    notice += "; no points were left";
  else if (restarting)
    notice += "; a fresh one runs the remaining " + std::to_string(left) + " point(s)";
  else
    notice +=
        "; it failed too often: the remaining " + std::to_string(left) + " point(s) are not run";
  options_.on_notice(notice);
}

}  // namespace detail

}  // namespace rl
