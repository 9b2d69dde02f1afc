// What a worker process (process/worker.h) writes on its stdout for its supervisor
// (process/supervisor.h): one line per event, a tag, a space and its payload. Results travel as
// sessions in the engine's own JSON format (io/export.h, compact: one line), never as a format
// of their own.
//   progress <i>           point i (of the expanded spec) starts
//   session <json>         point i finished: a session holding that one result, the device and
//                          every read floor measured so far
//   lost <reason>          the device was lost to the point just reported; the worker exits
//                          kWorkerExitDeviceLost and a fresh process can go on
//   next                   the point just reported was this process's last by design (a line-count
//                          run: the supervisor counts it in processes of its own,
//                          counters/line_count_pass.h); exit 0, a fresh process goes on
//   counted <json>         the reply of a --count-point worker: one launch step counted
//                          (counted_step_to_json); exit 0
//   error <message>        the run could not start (bad input, no device); exit kWorkerExitError
//   end <0|1>              the run is over (1: cancelled); exit 0
// A --multi worker (engine/process/multi_supervisor.h) sends instead:
//   notice <text>          something for a status line ("measuring read floors")
//   multi <json>           after each point: the multi-GPU session so far (io/export.h, compact)
//   error <message>, end <0|1>  as above
#pragma once

#include <string_view>

namespace rl::detail {

inline constexpr std::string_view kTagProgress = "progress";
inline constexpr std::string_view kTagSession = "session";
inline constexpr std::string_view kTagLost = "lost";
inline constexpr std::string_view kTagError = "error";
inline constexpr std::string_view kTagEnd = "end";
inline constexpr std::string_view kTagNext = "next";
inline constexpr std::string_view kTagCounted = "counted";
inline constexpr std::string_view kTagNotice = "notice";
inline constexpr std::string_view kTagMulti = "multi";

// A line's tag and payload (the payload "" where there is no space).
struct ProtocolLine {
  std::string_view tag, payload;
};
inline ProtocolLine split_protocol_line(std::string_view line) {
  const std::size_t space = line.find(' ');
  return {line.substr(0, space),
          space == std::string_view::npos ? std::string_view() : line.substr(space + 1)};
}

inline constexpr int kWorkerExitError = 2;
inline constexpr int kWorkerExitDeviceLost = 3;

// The fd the supervisor hands the worker its input on (a memfd), and the path it passes.
inline constexpr int kWorkerInputFd = 3;
inline constexpr const char* kWorkerInputPath = "/proc/self/fd/3";

}  // namespace rl::detail
