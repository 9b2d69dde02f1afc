// The GPU worker process (reductionlab-worker; docs/architecture.md, "Processes"): runs the
// points of one experiment with the normal Runner and streams each finished point back to its
// supervisor (process/supervisor.h) on stdout, as the run stream (process/stream.h). A GPU fault
// that CUDA cannot recover from in a process (cudaErrorIllegalAddress and the other sticky errors)
// ends the worker after that point is reported; the supervisor starts a fresh one for the rest.
#pragma once

#include <functional>
#include <memory>

#include "engine/backend/backend.h"
#include "engine/counters/line_count_pass.h"

namespace rl {

// Makes the backend for a device ordinal (-1: the host emulation).
using WorkerBackendFactory = std::function<std::unique_ptr<Backend>(int device)>;

// The CUDA backend for device >= 0, the host backend for -1.
std::unique_ptr<Backend> make_worker_backend(int device);

// Counts one launch step of a point (`--count-point`): counters/line_count_pass.h.
using WorkerStepCounter =
    std::function<CountedStep(int device, const PointSpec& p, const InputData& input, int step)>;
// count_launch_step on a GPU; on the host (-1) no counts, saying why.
CountedStep count_step_in_worker(int device, const PointSpec& p, const InputData& input, int step);

// The worker's main(). Arguments:
//   --device N       the CUDA ordinal (-1: the host backend)
//   --input PATH     a session (io/export.h): the spec to run, the points to keep (resume.h),
//                    the read floors known
//   --continue       the input is this run continued after a fault (Runner::set_continuing):
//                    its failed points are kept too, not run again
//   --from K         the points before K are the supervisor's already: not reported again
//   --counters IDS   hardware counters, comma-separated (Runner::set_counters)
//   --line-samples   warp-state samples per instruction (Runner::set_line_samples)
//   --line-counts    one point per process: a next event after each (the supervisor counts it)
//   --count-point I --count-step K
//                    time nothing: count launch step K of point I of the input's spec with
//                    count_step, before anything else runs here, and reply with a counted event
//   --multi          the input is a multi-GPU session's spec (multi/multi_run.h): run it, with a
//                    multi event after each point
// Returns the exit code (0: the run ended; worker_protocol.h lists the others). Dies with its
// parent (PR_SET_PDEATHSIG).
int worker_main(int argc, char** argv, const WorkerBackendFactory& make_backend,
                const WorkerStepCounter& count_step = count_step_in_worker);

}  // namespace rl
