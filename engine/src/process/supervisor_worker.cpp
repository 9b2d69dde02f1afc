// One worker process of a supervised run (process/worker_channel.h: its stdout is the run stream)
// and what this run makes of each event it sends.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <thread>

#include "engine/core/error.h"
#include "engine/counters/counter_pass.h"
#include "engine/io/export.h"
#include "engine/io/resume.h"
#include "engine/user/user_kernel.h"
#include "process/child_process.h"
#include "process/supervisor_run.h"
#include "process/worker_channel.h"
#include "process/worker_protocol.h"

namespace rl::detail {

namespace {

bool is_set(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}

}  // namespace

Session SupervisedRun::worker_input(bool continuing) const {
  if (!continuing) {
    Session in = resume_ ? *resume_ : Session{};
    in.spec = spec_;
    return in;
  }
  // This run so far (its failed points kept: the point that faulted does not run again), and the
  // resumed session's points further on.
  Session in = session_;
  if (resume_) {
    const FinishedPoints have(&session_, /*keep_failed=*/true);
    for (const PointResult& r : resume_->results)
      if (r.status != PointStatus::Failed && !have.find(r.point)) in.results.push_back(r);
  }
  return in;
}

WorkerEnd SupervisedRun::run_worker(bool continuing) {
  WorkerEnd end;
  in_flight_.reset();
  std::vector<std::string> argv = {options_.worker,
                                   "--device",
                                   std::to_string(options_.device_index),
                                   "--input",
                                   kWorkerInputPath,
                                   "--from",
                                   std::to_string(continuing ? session_.results.size() : 0)};
  if (continuing) argv.push_back("--continue");
  if (!options_.counters.empty()) {
    std::string ids;
    for (const std::string& id : options_.counters) ids += (ids.empty() ? "" : ",") + id;
    argv.insert(argv.end(), {"--counters", ids});
  }
  if (options_.line_samples) argv.push_back("--line-samples");
  if (options_.line_counts) argv.push_back("--line-counts");
  // A kernel the user wrote may never finish (an endless loop): while one of its points is in
  // flight and the worker says nothing for the limit, the worker is killed and the point fails.
  auto last_line = std::chrono::steady_clock::now();
  std::atomic<bool> kill{false};
  std::string stopped;
  const auto watch = [&](ChildProcess&) {
    if (is_set(cancel_)) kill = true;
    const double limit = spec_.timing.user_kernel_limit_s;  // the spec's: it travels with it
    if (kill || !in_flight_ || limit <= 0 || !is_user_variant(points_[*in_flight_].variant)) return;
    const double quiet =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - last_line).count();
    if (quiet < limit) return;
    char text[32];
    std::snprintf(text, sizeof text, "%g", limit);
    stopped = "stopped after " + std::string(text) + " s without finishing (the limit for a " +
              "kernel you wrote; an endless loop?)";
    kill = true;
  };
  StreamReader reader;
  if (continuing) reader.continue_after(session_);
  WorkerChannelEnd ce;
  try {
    ce = pump_worker(
        argv, session_to_json(worker_input(continuing), -1), reader, &kill,
        [&](StreamEvent event) {
          last_line = std::chrono::steady_clock::now();
          on_event(event, reader, &end);
          return !end.garbled;  // it sent what cannot be read: it is of no further use
        },
        watch);
  } catch (const std::exception& e) {
    end.error = e.what();
    return end;
  }
  if (!ce.unreadable.empty()) {
    end.garbled = true;
    end.error = ce.unreadable;
  }
  if (ce.cancelled && !stopped.empty()) {
    end.error = stopped;
    return end;
  }
  if (ce.cancelled) {
    end.cancelled = true;
    return end;
  }
  end.how = ce.how;
  end.stderr_tail = ce.stderr_tail;
  // A run that ended, then was cut short by a cancel, is cancelled all the same.
  if (end.ended && is_set(cancel_)) session_.cancelled = true;
  return end;
}

void SupervisedRun::count_lines(PointResult& r, std::size_t index) {
  PointLineSamples& ls = r.line_samples ? *r.line_samples : r.line_samples.emplace();
  if (!counts_unavailable_.empty()) {  // asked once: every step would say the same
    ls.count_note = counts_unavailable_;
    return;
  }
  int steps = 0;  // known from the first step's reply
  for (int step = 0; step < std::max(steps, 1); ++step) {
    CountedStep c;
    std::string why;
    if (!count_step(index, step, &c, &why)) {
      const std::string which = steps == 0 ? "the first launch step" : counter_role(step, steps);
      ls.count_note += (ls.count_note.empty() ? "" : "; ") + std::string("no line counts for ") +
                       which + ": " + why;
      return;
    }
    steps = std::max(1, c.steps);
    // CUPTI missing, or profiling refused: the same for every later step and point.
    if (c.functions.empty() && c.note.rfind("no line counts: ", 0) == 0)
      counts_unavailable_ = c.note;
    merge_counted_step(ls, c);
  }
}

bool SupervisedRun::count_step(std::size_t index, int step, CountedStep* out, std::string* why) {
  const std::vector<std::string> argv = {options_.worker,
                                         "--device",
                                         std::to_string(options_.device_index),
                                         "--input",
                                         kWorkerInputPath,
                                         "--count-point",
                                         std::to_string(index),
                                         "--count-step",
                                         std::to_string(step)};
  Session in;
  in.spec = spec_;
  StreamReader reader;
  bool counted = false;
  const auto on_reply = [&](StreamEvent event) {
    if (event == StreamEvent::Error) {
      *why = reader.message();
      return false;
    }
    try {
      if (event != StreamEvent::Counted || counted)
        throw Error(counted ? "a line after its reply" : "an event other than its reply");
      *out = counted_step_from_json(reader.counted_json());
      counted = true;
      return true;
    } catch (const std::exception& e) {
      *why = std::string("the line-count worker sent what this program cannot read: ") + e.what();
      counted = false;
      return false;
    }
  };
  WorkerChannelEnd ce;
  try {
    ce = pump_worker(argv, session_to_json(in, -1), reader, cancel_, on_reply);
  } catch (const std::exception& e) {
    *why = std::string("cannot start the line-count worker process: ") + e.what();
    return false;
  }
  if (!ce.unreadable.empty()) *why = ce.unreadable;
  if (ce.cancelled) {
    *why = "cancelled";
    return false;
  }
  if (counted) return true;
  if (why->empty()) {
    *why = "the line-count worker process " + ce.how;
    if (!ce.stderr_tail.empty()) *why += "; its last output: " + ce.stderr_tail;
  }
  return false;
}

// The reader checks each line for itself; what it cannot check is that the worker goes on where
// this run is.
void SupervisedRun::on_event(StreamEvent event, const StreamReader& reader, WorkerEnd* end) {
  const std::size_t next = reader.session().results.size();
  std::string refused;
  if (event == StreamEvent::Progress && reader.progress().done != next)
    refused = "progress on point " + std::to_string(reader.progress().done) + ", expected " +
              std::to_string(next);
  else if (event == StreamEvent::Next && !options_.line_counts)
    refused = "a next event in a run without line counts";
  else if (event == StreamEvent::Counted || event == StreamEvent::Multi ||
           event == StreamEvent::Devices)
    refused = "an event of another kind of run";
  if (!refused.empty()) {
    end->garbled = true;
    end->error = "the GPU worker process sent what this program cannot read: " + refused;
    return;
  }
  switch (event) {
    case StreamEvent::Progress:
      on_progress(next);
      break;
    case StreamEvent::Point:
      on_point(reader.session(), end);
      break;
    case StreamEvent::Lost:
      end->lost = reader.message();
      break;
    case StreamEvent::Error:
      end->error = reader.message();
      break;
    case StreamEvent::Next:
      end->next = true;
      break;
    case StreamEvent::End:
      end->ended = true;
      end->cancelled = reader.session().cancelled;
      flush_pending("");
      break;
    default:  // start, notice: nothing for this run
      break;
  }
}

void SupervisedRun::on_progress(std::size_t index) {
  flush_pending("");
  in_flight_ = index;
  Progress p;
  p.total = points_.size();
  p.done = index;
  p.current = points_[index];
  p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  p.eta_s = index ? p.elapsed_s / double(index) * double(p.total - index) : -1;
  if (cb_.on_progress) cb_.on_progress(p);
}

void SupervisedRun::on_point(const Session& worker, WorkerEnd* end) {
  flush_pending("");
  const std::size_t index = session_.results.size();
  if (!device_reported_) {  // the worker's device: with its measured copy and read floor
    session_.device = worker.device;
    session_.created_utc = worker.created_utc;
    device_reported_ = true;
  }
  session_.read_floors = worker.read_floors;
  in_flight_.reset();
  const PointResult& r = worker.results.back();
  if (r.status == PointStatus::Failed) {
    pending_ = r;  // a fault may follow ("lost"): its message then says what became of the rest
    in_flight_ = index;
    return;
  }
  end->finished_point = true;
  // A resumed point keeps what its file holds: it is not timed or counted again (a FAILED one
  // in the file runs again, as the runner does, and is counted).
  const bool kept = resume_ && FinishedPoints(resume_).find(r.point);
  if (!options_.line_counts || kept) {
    append(r);
    return;
  }
  awaiting_ = r;
  awaiting_index_ = index;
}

void SupervisedRun::count_awaiting(bool cancelled) {
  if (!awaiting_) return;
  PointResult r = std::move(*awaiting_);
  awaiting_.reset();
  if (cancelled) {
    PointLineSamples& ls = r.line_samples ? *r.line_samples : r.line_samples.emplace();
    ls.count_note = "not counted: the run was cancelled";
  } else {
    count_lines(r, awaiting_index_);
  }
  append(std::move(r));
}

void SupervisedRun::flush_pending(const std::string& note) {
  if (!pending_) return;
  PointResult r = std::move(*pending_);
  pending_.reset();
  r.message += note;
  append(std::move(r));
}

void SupervisedRun::append(PointResult r) {
  session_.results.push_back(std::move(r));
  compute_speedups(session_.results, spec_.baseline);
  if (cb_.on_result) cb_.on_result(session_.results.back());
  if (cb_.on_session) cb_.on_session(session_);
}

}  // namespace rl::detail
