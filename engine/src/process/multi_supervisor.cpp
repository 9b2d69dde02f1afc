#include "engine/process/multi_supervisor.h"

#include <signal.h>

#include <chrono>
#include <exception>
#include <optional>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/process/stream.h"
#include "engine/process/supervisor.h"
#include "process/child_process.h"
#include "process/worker_channel.h"
#include "process/worker_protocol.h"

namespace rl {

namespace {

using namespace detail;

constexpr auto kGraceAfterTerm = std::chrono::seconds(2);

// The points the worker never reported, FAILED with what happened to it.
void fail_the_rest(MultiSession& s, const std::string& why) {
  const std::vector<MultiPointSpec> all = expand(s.spec);
  const std::size_t first = s.points.size();
  for (std::size_t i = first; i < all.size(); ++i) {
    MultiPoint p;
    p.point = all[i];
    for (int r = 0; r < all[i].gpu_count && r < int(s.spec.devices.size()); ++r)
      p.devices.push_back(s.spec.devices[std::size_t(r)]);
    p.status = PointStatus::Failed;
    p.message = i == first ? "running " + all[i].label() + ": " + why : "not run: " + why;
    s.points.push_back(std::move(p));
  }
}

}  // namespace

MultiSession run_multi_in_worker(const MultiSpec& spec, const MultiCallbacks& callbacks,
                                 const std::atomic<bool>* cancel, const std::string& worker) {
  MultiSession session;  // the worker's latest, or the spec alone
  session.spec = spec;
  if (cancel && cancel->load()) {  // cancelled while queued: nothing started
    session.cancelled = true;
    return session;
  }
  std::string error;
  bool ended = false, reported = false;
  const std::size_t count = expand(spec).size();
  StreamReader reader;
  const auto on_event = [&](StreamEvent event) {
    if (event == StreamEvent::Notice && callbacks.on_notice) callbacks.on_notice(reader.message());
    if (event == StreamEvent::Error) error = reader.message();
    if (event == StreamEvent::End) ended = true;
    if (event == StreamEvent::Start || event == StreamEvent::Point) {
      error =
          "the GPU worker process sent what this program cannot read: a one-GPU run's "
          "stream";
      return false;
    }
    if (event != StreamEvent::Multi) return true;
    const std::size_t before = session.points.size();
    session = *reader.multi();
    reported = true;
    for (std::size_t i = before; i < session.points.size(); ++i)
      if (callbacks.on_point) callbacks.on_point(session.points[i], i, count);
    if (callbacks.on_session && session.points.size() > before) callbacks.on_session(session);
    return true;
  };
  // A cancel: asked of the worker once (SIGTERM: it stops after the current sample and sends
  // the session whole), then killed by pump_child once the grace is over.
  std::atomic<bool> kill_now{false};
  std::optional<std::chrono::steady_clock::time_point> termed;
  auto on_poll = [&](ChildProcess& child) {
    if (cancel && cancel->load() && !termed) {
      child.signal(SIGTERM);
      termed = std::chrono::steady_clock::now();
    }
    if (termed && std::chrono::steady_clock::now() - *termed > kGraceAfterTerm) kill_now = true;
  };
  MultiSession in;
  in.spec = spec;
  WorkerChannelEnd end;
  try {
    end = pump_worker({worker, "--multi", "--input", kWorkerInputPath},
                      multi_session_to_json(in, -1), reader, &kill_now, on_event, on_poll);
  } catch (const std::exception& e) {
    throw Error(e.what());
  }
  if (!end.unreadable.empty()) error = end.unreadable;
  if (cancel && cancel->load()) session.cancelled = true;
  if (ended) return session;
  // Cancelled, and stopped by this side after the grace (it was loading an input or measuring a
  // floor, which a cancel does not cut short): the points it finished are the session.
  if (session.cancelled && error.empty() && end.cancelled) {
    if (callbacks.on_notice)
      callbacks.on_notice("cancelled: the GPU worker process did not stop within " +
                          std::to_string(kGraceAfterTerm.count()) +
                          " s of being asked, and was stopped; the finished points are kept");
    return session;
  }
  // No session and an error: the run could not start (a refused spec, no GPU), as run_multi
  // throws.
  if (!reported && !error.empty()) throw Error(error);
  std::string why = !error.empty() ? error : "the GPU worker process " + end.how;
  if (!end.stderr_tail.empty()) why += "; its last output: " + end.stderr_tail;
  if (!session.cancelled) fail_the_rest(session, why);
  if (callbacks.on_notice)
    callbacks.on_notice("the multi-GPU run's worker process was lost (" + why + ")");
  return session;
}

MultiSession run_multi_gpu(const MultiSpec& spec, const MultiCallbacks& callbacks,
                           const std::atomic<bool>* cancel, bool in_process) {
  std::string looked_at;
  const std::string worker = in_process ? "" : find_worker(&looked_at);
  if (worker.empty() && !in_process && callbacks.on_notice)
    callbacks.on_notice("no GPU worker process (" + looked_at +
                        " is missing): the run is measured in this process, and a GPU fault "
                        "ends it");
  return worker.empty() ? run_multi(spec, callbacks, cancel)
                        : run_multi_in_worker(spec, callbacks, cancel, worker);
}

}  // namespace rl
