// The run stream: what `reductionlab-cli run --stream jsonl` writes on stdout while it runs and
// `devices --json` writes once, read back by the app to run on a GPU it reaches only through a
// launcher (ssh, srun, docker exec: docs/remote.md). One JSON object per line, each carrying
// the stream's schema version ("schema_version": "1.0") and its event:
//   start     the device and the spec the run uses, the number of points, the tool's version
//   progress  point `done` of `total` starts (its label for people), elapsed and remaining time
//   point     point `index` finished: "result" as a session file holds it (io/export.h), and
//             every read floor measured so far
//   notice    something a person should know (a GPU worker process lost and restarted)
//   end       the run is over: cancelled or not, the device as measured, the counts
//   error     the run could not start or go on (a bad spec, no such GPU): the reason
//   devices   `devices --json`: every GPU, or why there is none, the host, and (since 1.1) the
//             links between the GPUs (P2P access, NVLinks as NVML says, or why unknown)
// It is also what a GPU worker process (process/worker.h) tells its supervisor, with four events of
// its own (since 1.2; a reader of an older minor version skips them):
//   lost      the device was lost to the point just sent; the worker exits and a fresh one goes on
//   next      the point just sent was this process's last by design (a line-count run:
//             counters/line_count_pass.h); a fresh worker goes on
//   counted   a --count-point worker's reply: one launch step counted ("step", as
//             counted_step_to_json writes it)
//   multi     a multi-GPU run (multi/multi_run.h), which has no start or point events: the
//             session so far, after each point; its end then counts those points
// and (since 1.2) a point event carries the device as measured so far (its read floor).
// The version is MAJOR.MINOR: a minor step only adds fields a reader may ignore; a major step
// changes what a field means, so a reader refuses a newer major version with the reason, as it
// refuses an older one.
// Everything here is the one home of the format: the CLI writes with these functions, the app
// reads with StreamReader.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/measure/runner.h"
#include "engine/session/multi_results.h"
#include "engine/session/results.h"

namespace rl {

inline constexpr int kStreamMajor = 1;
inline constexpr int kStreamMinor = 2;  // 1.1: devices carries links; 1.2: the worker's events
// "1.2": the version every line of this build carries.
std::string stream_version();

// How many points of a session ended each way (the end event's counts).
struct StreamCounts {
  std::size_t points = 0;  // in the experiment
  std::size_t ok = 0, wrong = 0, failed = 0, skipped = 0, noisy = 0;
  std::size_t finished() const { return ok + wrong + failed + skipped; }
};
StreamCounts count_points(const Session& s, std::size_t points);

// The writer: each returns one line, '\n' included. The start names this build (version,
// commit) and the time now.
std::string stream_start_line(const DeviceInfo& device, const ExperimentSpec& spec,
                              std::size_t points);
std::string stream_progress_line(const Progress& p);
// s.results.back(), finished as point s.results.size() - 1, with s.read_floors.
std::string stream_point_line(const Session& s);
std::string stream_notice_line(const std::string& message);
std::string stream_end_line(const Session& s, std::size_t points);
std::string stream_error_line(const std::string& message);
std::string stream_devices_line(const Discovery& d);
// A worker's own events (1.2). counted: counted_step_to_json's text.
std::string stream_lost_line(const std::string& message);
std::string stream_next_line();
std::string stream_counted_line(const std::string& counted_json);
std::string stream_multi_line(const MultiSession& s);
std::string stream_multi_end_line(const MultiSession& s);

enum class StreamEvent {
  Start,
  Progress,
  Point,
  Notice,
  End,
  Error,
  Devices,
  Lost,
  Next,
  Counted,
  Multi
};

// The reader: one object per run (or per `devices --json`), fed line by line. It keeps the
// session the stream has built so far (speed-ups recomputed after each point, as a local run's),
// so a run that stops early, whatever the reason, still has its finished points.
// Every refusal throws StreamError with one line a person can act on.
namespace detail {
struct StreamLine;  // a line read, for the reader's parts (stream_read.cpp)
}  // namespace detail

class StreamError : public Error {
 public:
  using Error::Error;
};

class StreamReader {
 public:
  // Reads one line (without its '\n'). Lines before the start that are not JSON at all are
  // taken for what a login shell may print (a greeting, a notice) and kept aside
  // (ignored_lines()); any other line that is not the stream throws StreamError: not JSON, no
  // schema version, a newer (or older) major version, an unknown event, a bad field, a point out
  // of order. After a throw the reader keeps what it had.
  // nullopt: a blank or skipped line.
  std::optional<StreamEvent> feed(std::string_view line);
  // A worker started after others of the same run: the points `known` holds are the
  // supervisor's already, and this stream's first point is the one after them. Before the first
  // line.
  void continue_after(const Session& known);

  bool started() const { return started_; }
  bool ended() const { return ended_; }
  const Session& session() const { return session_; }
  std::size_t total_points() const { return points_.size(); }
  const std::vector<PointSpec>& points() const { return points_; }
  // The last progress event, the last notice or error message, the end's counts.
  const Progress& progress() const { return progress_; }
  const std::string& message() const { return message_; }
  const StreamCounts& counts() const { return counts_; }
  // devices --json's answer.
  const std::optional<Discovery>& discovery() const { return discovery_; }
  // The last counted event's step (counted_step_from_json reads it), the last multi event's
  // session.
  const std::string& counted_json() const { return counted_; }
  const std::optional<MultiSession>& multi() const { return multi_; }
  // What was skipped before the start (at most a few lines kept, each cut to 200 characters).
  const std::vector<std::string>& ignored_lines() const { return ignored_; }
  std::size_t lines_read() const { return lines_; }

 private:
  StreamEvent read_start(const detail::StreamLine& line);
  StreamEvent read_progress(const detail::StreamLine& line);
  StreamEvent read_point(const detail::StreamLine& line);
  StreamEvent read_end(const detail::StreamLine& line);
  StreamEvent read_devices(const detail::StreamLine& line);
  StreamEvent read_worker_event(const std::string& event, const detail::StreamLine& line);
  StreamEvent read_multi(const detail::StreamLine& line);
  StreamEvent read_multi_end(const detail::StreamLine& line);

  std::size_t lines_ = 0;
  bool started_ = false, ended_ = false;
  Session session_;
  std::vector<PointSpec> points_;
  Progress progress_;
  std::string message_;
  StreamCounts counts_;
  std::optional<Discovery> discovery_;
  std::vector<std::string> ignored_;
  std::optional<Session> known_;  // continue_after's
  std::string counted_;
  std::optional<MultiSession> multi_;
};

// The version a line carries, or nullopt when it has none; for messages ("the remote CLI speaks
// stream 2.0"). Never throws.
std::optional<std::string> stream_line_version(std::string_view line);

}  // namespace rl
