// One run of the supervisor (engine/process/supervisor.h): the session being built, what each
// worker process sends, and what becomes of the points when a worker is lost. Private to the
// engine.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/counters/line_count_pass.h"
#include "engine/measure/runner.h"
#include "engine/process/stream.h"
#include "engine/process/supervisor.h"
#include "process/child_process.h"

namespace rl::detail {

// How one worker process ended.
struct WorkerEnd {
  bool ended = false;           // sent "end": the run is over
  bool cancelled = false;       // killed because *cancel was set
  std::string lost, error;      // sent "lost" / "error", or could not be read or started
  bool garbled = false;         // sent a line that cannot be read (error says what)
  std::string how;              // "exited with code 3", "was killed by signal 11 (...)"
  std::string stderr_tail;      // the last of what it wrote on stderr
  bool finished_point = false;  // finished at least one point that did not fail
  bool next = false;            // sent "next": a fresh process goes on, by design
};

class SupervisedRun {
 public:
  SupervisedRun(const SupervisorOptions& options, const ExperimentSpec& spec,
                const RunCallbacks& callbacks, const std::atomic<bool>* cancel,
                const Session* resume);
  // Runs workers until every point has a result, the run is cancelled, or the restarts are
  // spent. Throws rl::Error when the first worker cannot start.
  Session run(int* workers_started);

 private:
  WorkerEnd run_worker(bool continuing);
  Session worker_input(bool continuing) const;
  void on_event(StreamEvent event, const StreamReader& reader, WorkerEnd* end);
  // reader.session().results.back() finished (the worker's session so far).
  void on_point(const Session& worker, WorkerEnd* end);
  // A line-count run: the point the worker just finished, counted once that worker has ended
  // (so no count runs beside it and its GPU memory is free), then appended. cancelled: appended
  // with a note instead.
  void count_awaiting(bool cancelled);
  // A line-count run: counts each launch step of point `index` in a worker of its own and
  // merges the counts (or why there are none) into r.line_samples.
  void count_lines(PointResult& r, std::size_t index);
  // One step's worker; false with *why where it gave no counted reply.
  bool count_step(std::size_t index, int step, CountedStep* out, std::string* why);
  void on_progress(std::size_t index);
  void append(PointResult r);
  void flush_pending(const std::string& note);
  // After a worker ended without finishing: what the point in flight becomes, and the note.
  void worker_lost(const WorkerEnd& end, bool restarting);
  std::string why(const WorkerEnd& end) const;

  const SupervisorOptions& options_;
  const ExperimentSpec& spec_;
  const RunCallbacks& cb_;
  const std::atomic<bool>* cancel_;
  const Session* resume_;
  std::vector<PointSpec> points_;
  std::chrono::steady_clock::time_point start_;
  Session session_;
  bool device_reported_ = false;
  std::optional<PointResult> pending_;   // a FAILED point, held until the worker says what follows
  std::optional<PointResult> awaiting_;  // a finished point of a line-count run, to be counted
  std::size_t awaiting_index_ = 0;
  std::string counts_unavailable_;  // why no step can be counted here (no CUPTI, not permitted)
  std::optional<std::size_t> in_flight_;
};

}  // namespace rl::detail
