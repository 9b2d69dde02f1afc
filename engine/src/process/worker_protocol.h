// How a worker process (process/worker.h) and its supervisor (process/supervisor.h,
// process/multi_supervisor.h) agree besides what the worker writes on its stdout, which is the run
// stream (process/stream.h, with the worker's own events: lost, next, counted, multi), read through
// process/worker_channel.h: its exit codes, and where its input comes in.
#pragma once

namespace rl::detail {

inline constexpr int kWorkerExitError = 2;
inline constexpr int kWorkerExitDeviceLost = 3;

// The fd the supervisor hands the worker its input on (a memfd), and the path it passes.
inline constexpr int kWorkerInputFd = 3;
inline constexpr const char* kWorkerInputPath = "/proc/self/fd/3";

}  // namespace rl::detail
