// One worker process of a supervised run: started with its input on a memfd, read line by line
// (process/worker_protocol.h) by pump_child (process/child_process.h), so that a cancel is seen at
// once and its stderr's tail is kept for the message when it dies.

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
  std::optional<ChildProcess> child;
  try {
    const UniqueFd input =
        memory_file("reductionlab-worker-input", session_to_json(worker_input(continuing), -1));
    child.emplace(argv, input.get());
  } catch (const std::exception& e) {
    end.error = std::string("cannot start the GPU worker process: ") + e.what();
    return end;
  }
  // A kernel the user wrote may never finish (an endless loop): while one of its points is in
  // flight and the worker says nothing for the limit, the worker is killed and the point fails.
  auto last_line = std::chrono::steady_clock::now();
  std::atomic<bool> kill{false};
  std::string stopped;
  const auto watch = [&] {
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
  const ChildEnd ce = pump_child(
      *child, &kill,
      [&](std::string_view line) {
        last_line = std::chrono::steady_clock::now();
        on_line(line, &end);
        return !end.garbled;  // it sent what cannot be read: it is of no further use
      },
      watch);
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
  std::optional<ChildProcess> child;
  try {
    Session in;
    in.spec = spec_;
    const UniqueFd input = memory_file("reductionlab-count-input", session_to_json(in, -1));
    child.emplace(argv, input.get());
  } catch (const std::exception& e) {
    *why = std::string("cannot start the line-count worker process: ") + e.what();
    return false;
  }
  bool counted = false;
  const ChildEnd ce = pump_child(*child, cancel_, [&](std::string_view line) {
    const auto [tag, view] = split_protocol_line(line);
    const std::string payload(view);
    try {
      if (counted) throw Error("a line after its reply");
      if (tag == kTagCounted) {
        *out = counted_step_from_json(payload);
        counted = true;
        return true;
      }
      if (tag == kTagError) {
        *why = payload;
        return false;
      }
      throw Error("an unexpected line '" + std::string(line.substr(0, 40)) + "'");
    } catch (const std::exception& e) {
      *why = std::string("the line-count worker sent what this program cannot read: ") + e.what();
      counted = false;
      return false;
    }
  });
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

void SupervisedRun::on_line(std::string_view line, WorkerEnd* end) {
  const auto [tag, payload] = split_protocol_line(line);
  // Read and checked first; the callbacks run outside, so what they throw is not taken for a
  // garbled line.
  std::optional<std::size_t> progress;
  std::optional<Session> point;
  try {
    const std::size_t next = session_.results.size() + (pending_ ? 1 : 0) + (awaiting_ ? 1 : 0);
    if (tag == kTagProgress) {
      progress = std::stoul(std::string(payload));
      if (*progress != next || *progress >= points_.size())
        throw Error("progress on point " + std::to_string(*progress) + ", expected " +
                    std::to_string(next));
    } else if (tag == kTagSession) {
      point = session_from_json(payload);
      if (point->results.size() != 1 || next >= points_.size() ||
          !(point->results.front().point == points_[next]))
        throw Error("a result that is not point " + std::to_string(next) + "'s");
    } else if (tag == kTagLost) {
      end->lost = payload;
    } else if (tag == kTagError) {
      end->error = payload;
    } else if (tag == kTagNext) {
      if (!options_.line_counts) throw Error("a 'next' in a run without line counts");
      end->next = true;
    } else if (tag == kTagEnd) {
      end->ended = true;
      end->cancelled = payload == "1";
    } else {
      throw Error("an unknown line '" + std::string(line.substr(0, 40)) + "'");
    }
  } catch (const std::exception& e) {
    end->garbled = true;
    end->error =
        std::string("the GPU worker process sent what this program cannot read: ") + e.what();
    return;
  }
  if (progress) on_progress(*progress);
  if (point) on_point(*point, end);
  if (end->ended) flush_pending("");
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

void SupervisedRun::on_point(const Session& one, WorkerEnd* end) {
  flush_pending("");
  const std::size_t index = session_.results.size();
  if (!device_reported_) {  // the worker's device: with its measured copy and read floor
    session_.device = one.device;
    session_.created_utc = one.created_utc;
    device_reported_ = true;
  }
  session_.read_floors = one.read_floors;
  in_flight_.reset();
  const PointResult& r = one.results.front();
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
