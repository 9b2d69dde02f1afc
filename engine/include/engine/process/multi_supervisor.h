// Runs a multi-GPU experiment (multi_run.h) in a worker process (process/worker.h, `--multi`), as
// the supervisor does for one GPU (process/supervisor.h): a GPU fault, an NCCL abort or a crash
// ends the worker, not the CLI or the app. The worker sends the session so far after every point;
// what it finished is kept, and the points it never reported fail saying how the worker ended. The
// supervisor itself never touches CUDA or NCCL.
#pragma once

#include <atomic>
#include <string>

#include "engine/multi/multi_run.h"

namespace rl {

// As run_multi: validates in the worker (throws rl::Error with its messages when the spec is
// refused or the worker cannot start), then the same callbacks, called on this thread as the
// worker reports. Setting *cancel asks the worker to stop after the current sample (SIGTERM);
// one that has not ended within two seconds is killed. `worker` is find_worker()'s.
MultiSession run_multi_in_worker(const MultiSpec& spec, const MultiCallbacks& callbacks,
                                 const std::atomic<bool>* cancel, const std::string& worker);

// The one way front ends run across GPUs, as RunTarget decides for one GPU (run/run_target.h): in
// a worker process where the executable is (find_worker), else, or with in_process, in this
// process, and callbacks.on_notice says what that costs.
MultiSession run_multi_gpu(const MultiSpec& spec, const MultiCallbacks& callbacks,
                           const std::atomic<bool>* cancel, bool in_process = false);

}  // namespace rl
