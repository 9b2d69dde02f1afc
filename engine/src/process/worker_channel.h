// One worker process as every supervisor in the engine talks to it (process/supervisor.h for one
// GPU, process/multi_supervisor.h for several): started with its input on a memfd, its stdout read
// as the run stream (process/stream.h) by pump_child (process/child_process.h), so that a cancel is
// seen at once and its stderr's tail is kept for the message when it dies. Private to the engine.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/process/stream.h"
#include "process/child_process.h"

namespace rl::detail {

// How the worker ended.
struct WorkerChannelEnd : ChildEnd {
  // It sent a line the reader refused (why, for people); it was then stopped.
  std::string unreadable;
};

// Starts argv (the worker and its arguments; the input is at kWorkerInputPath) with `input` on
// kWorkerInputFd, feeds each line it writes to `reader`, and each event the reader returns to
// on_event, which returns false when the worker is of no further use (it is then killed). A line
// the reader refuses kills it too. *kill and on_poll as pump_child's (on_poll is handed the
// worker, e.g. to ask it to stop with SIGTERM before *kill is set). Throws rl::Error ("cannot
// start the GPU worker process: ...") when it cannot start.
WorkerChannelEnd pump_worker(const std::vector<std::string>& argv, const std::string& input,
                             StreamReader& reader, const std::atomic<bool>* kill,
                             const std::function<bool(StreamEvent)>& on_event,
                             const std::function<void(ChildProcess&)>& on_poll = {});

}  // namespace rl::detail
