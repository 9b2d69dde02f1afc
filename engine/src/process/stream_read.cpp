// The run stream's reader (process/stream.h): checks the version first, then each event's fields
// with the session file's own readers (io/export_json_parts.h), and builds the session point by
// point.
#include <cctype>
#include <cstdio>

#include "engine/core/echo.h"
#include "engine/experiment/multi_spec.h"
#include "engine/io/export.h"
#include "engine/process/stream.h"
#include "io/export_json_parts.h"
#include "io/json_bounded.h"
#include "io/json_read.h"

namespace rl {

namespace detail {
// One line of the stream as the reader's parts take it.
struct StreamLine {
  const nlohmann::ordered_json& json;
};
}  // namespace detail

namespace {

using detail::OrderedJson;

constexpr std::size_t kKeptIgnored = 5;
constexpr std::size_t kShownChars = 200;

std::string cut(std::string_view s, std::size_t n = kShownChars) {
  std::string out(s.substr(0, n));
  for (char& c : out)
    if (std::iscntrl(static_cast<unsigned char>(c))) c = ' ';
  return s.size() > n ? out + "..." : out;
}

[[noreturn]] void refuse(const std::string& what) {
  throw StreamError(what);
}

struct Version {
  int major = 0, minor = 0;
};

std::optional<Version> parse_version(const OrderedJson& v) {
  if (!v.is_string()) return std::nullopt;
  Version out;
  char rest = 0;
  if (std::sscanf(v.get<std::string>().c_str(), "%d.%d%c", &out.major, &out.minor, &rest) != 2)
    return std::nullopt;
  return out;
}

const OrderedJson& member(const OrderedJson& line, const char* key, const std::string& event) {
  const OrderedJson* v = json::find(line, key);
  if (!v) refuse("the " + event + " event has no \"" + key + "\"");
  return *v;
}

std::size_t count_of(const OrderedJson& line, const char* key, const std::string& event) {
  const OrderedJson& v = member(line, key, event);
  if (!v.is_number_unsigned()) refuse(event + "." + key + ": expected a count");
  return v.get<std::size_t>();
}

std::string text_of(const OrderedJson& line, const char* key, const std::string& event) {
  const OrderedJson& v = member(line, key, event);
  if (!v.is_string()) refuse(event + "." + key + ": expected a string");
  return v.get<std::string>();
}

double seconds_of(const OrderedJson& line, const char* key) {
  auto it = line.find(key);
  return it != line.end() && it->is_number() ? it->get<double>() : -1;
}

// The version check a reader owes its user: a newer major version changed what fields mean.
void check_version(const OrderedJson& line, std::size_t number) {
  auto it = line.find("schema_version");
  if (it == line.end())
    refuse("line " + std::to_string(number) +
           " is JSON but not a ReductionLab stream line (no schema_version): " + cut(line.dump()));
  const auto v = parse_version(*it);
  if (!v)
    refuse("line " + std::to_string(number) + ": schema_version " + cut(it->dump()) +
           " is not MAJOR.MINOR");
  const std::string have = std::to_string(v->major) + "." + std::to_string(v->minor);
  const std::string reads = std::to_string(kStreamMajor) + ".x";
  if (v->major > kStreamMajor)
    refuse("the stream is schema version " + have + ", newer than this build reads (" + reads +
           "): update ReductionLab on this machine to the other side's version");
  if (v->major < kStreamMajor)
    refuse("the stream is schema version " + have + ", older than this build reads (" + reads +
           "): update reductionlab-cli on the other side");
}

}  // namespace

std::optional<std::string> stream_line_version(std::string_view line) {
  try {
    const OrderedJson j = parse_json_bounded(line);
    auto it = j.find("schema_version");
    if (it != j.end() && it->is_string()) return it->get<std::string>();
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::optional<StreamEvent> StreamReader::feed(std::string_view line) {
  ++lines_;
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.remove_suffix(1);
  std::size_t first = 0;
  while (first < line.size() && std::isspace(static_cast<unsigned char>(line[first]))) ++first;
  line.remove_prefix(first);
  if (line.empty()) return std::nullopt;
  // A login shell's greeting before the stream begins: not ours, not fatal.
  if (line.front() != '{' && !started_ && !discovery_) {
    if (ignored_.size() < kKeptIgnored) ignored_.push_back(cut(line));
    return std::nullopt;
  }
  if (line.front() != '{')
    refuse("line " + std::to_string(lines_) + " is not part of the stream: " + cut(line));
  OrderedJson j;
  try {
    j = parse_json_bounded(line);
  } catch (const std::exception& e) {  // a line cut short, or broken on the way
    refuse("line " + std::to_string(lines_) + " is not part of the stream (" + e.what() +
           "): " + cut(line));
  }
  if (!j.is_object())
    refuse("line " + std::to_string(lines_) + " is not part of the stream: " + cut(line));
  check_version(j, lines_);
  auto kind = j.find("event");
  if (kind == j.end() || !kind->is_string())
    refuse("line " + std::to_string(lines_) + " names no event (\"event\": a string)");
  const std::string event = kind->get<std::string>();
  try {
    if (event == "start") return read_start(detail::StreamLine{j});
    if (event == "progress") return read_progress(detail::StreamLine{j});
    if (event == "point") return read_point(detail::StreamLine{j});
    if (event == "end" && !(multi_ && !started_)) return read_end(detail::StreamLine{j});
    if (event == "devices") return read_devices(detail::StreamLine{j});
    if (event == "end") return read_multi_end(detail::StreamLine{j});
    if (event == "lost" || event == "next" || event == "counted" || event == "multi")
      return read_worker_event(event, detail::StreamLine{j});
  } catch (const StreamError&) {
    throw;
  } catch (const std::exception& e) {  // a field refused by the session's own reader
    refuse("the " + event + " event: " + e.what());
  }
  if (event == "notice" || event == "error") {
    message_ = text_of(j, "message", event);
    return event == "notice" ? StreamEvent::Notice : StreamEvent::Error;
  }
  // A newer minor version may add events: a reader of the same major skips them.
  const auto v = parse_version(j["schema_version"]);
  if (v && v->minor > kStreamMinor) return std::nullopt;
  refuse("line " + std::to_string(lines_) + ": unknown event " + echo(event));
}

void StreamReader::continue_after(const Session& known) {
  known_ = known;
}

StreamEvent StreamReader::read_start(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (started_) refuse("a second start event on line " + std::to_string(lines_));
  const OrderedJson& tool = member(j, "tool", "start");
  if (!tool.is_object()) refuse("start.tool: expected an object");
  Session s;
  s.tool_version = text_of(tool, "version", "start.tool");
  s.git_commit = text_of(tool, "git_commit", "start.tool");
  s.created_utc = text_of(j, "created_utc", "start");
  s.device = detail::device_from_json_value(member(j, "device", "start"), "start.device");
  s.spec = detail::spec_from_json_value(member(j, "spec", "start"), "start.spec");
  std::vector<PointSpec> points = expand(s.spec);
  const std::size_t said = count_of(j, "points", "start");
  if (said != points.size())
    refuse("the start event says " + std::to_string(said) + " points, but its spec has " +
           std::to_string(points.size()));
  if (known_) {  // a later worker of the same run: its points follow the known ones
    if (known_->results.size() > points.size())
      refuse("the start event's spec has " + std::to_string(points.size()) +
             " points, fewer than " + std::to_string(known_->results.size()) + " known");
    for (std::size_t i = 0; i < known_->results.size(); ++i)
      if (!(known_->results[i].point == points[i]))
        refuse("the start event's spec is not the run's: point " + std::to_string(i) + " is " +
               points[i].label() + ", not " + known_->results[i].point.label());
    s.results = known_->results;
    s.read_floors = known_->read_floors;
  }
  session_ = std::move(s);
  points_ = std::move(points);
  started_ = true;
  return StreamEvent::Start;
}

StreamEvent StreamReader::read_progress(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (!started_) refuse("a progress event before the start");
  Progress p;
  p.done = count_of(j, "done", "progress");
  p.total = count_of(j, "total", "progress");
  if (p.total != points_.size())
    refuse("progress.total " + std::to_string(p.total) + ": the run has " +
           std::to_string(points_.size()) + " points");
  if (p.done > p.total) refuse("progress.done " + std::to_string(p.done) + " past the total");
  if (p.total) p.current = points_[std::min(p.done, p.total - 1)];
  p.elapsed_s = seconds_of(j, "elapsed_s");
  p.eta_s = seconds_of(j, "eta_s");
  progress_ = p;
  return StreamEvent::Progress;
}

StreamEvent StreamReader::read_point(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (!started_) refuse("a point event before the start");
  if (ended_) refuse("a point event after the end");
  const std::size_t index = count_of(j, "index", "point");
  const std::size_t next = session_.results.size();
  if (index != next || next >= points_.size())
    refuse("point " + std::to_string(index) + " arrived where point " + std::to_string(next) +
           " was expected");
  PointResult r = detail::result_from_json_value(member(j, "result", "point"), "point.result");
  if (!(r.point == points_[next]))
    refuse("point " + std::to_string(index) + " is " + r.point.label() + ", not " +
           points_[next].label());
  std::vector<ReadFloor> floors;
  const OrderedJson& arr = member(j, "read_floors", "point");
  if (!arr.is_array()) refuse("point.read_floors: expected an array");
  for (std::size_t i = 0; i < arr.size(); ++i)
    floors.push_back(
        detail::read_floor_from_json_value(arr[i], "point.read_floors[" + std::to_string(i) + "]"));
  session_.read_floors = std::move(floors);
  if (const OrderedJson* d = json::find(j, "device"))  // since 1.2: as measured so far
    session_.device = detail::device_from_json_value(*d, "point.device");
  session_.results.push_back(std::move(r));
  compute_speedups(session_.results, session_.spec.baseline);
  return StreamEvent::Point;
}

StreamEvent StreamReader::read_end(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (!started_) refuse("an end event before the start");
  const OrderedJson& cancelled = member(j, "cancelled", "end");
  if (!cancelled.is_boolean()) refuse("end.cancelled: expected true or false");
  const OrderedJson& c = member(j, "counts", "end");
  if (!c.is_object()) refuse("end.counts: expected an object");
  StreamCounts counts;
  counts.points = count_of(c, "points", "end.counts");
  counts.ok = count_of(c, "ok", "end.counts");
  counts.wrong = count_of(c, "wrong", "end.counts");
  counts.failed = count_of(c, "failed", "end.counts");
  counts.skipped = count_of(c, "skipped", "end.counts");
  counts.noisy = count_of(c, "noisy", "end.counts");
  if (counts.finished() != session_.results.size())
    refuse("the end event counts " + std::to_string(counts.finished()) + " finished points, but " +
           std::to_string(session_.results.size()) + " arrived");
  session_.device = detail::device_from_json_value(member(j, "device", "end"), "end.device");
  session_.cancelled = cancelled.get<bool>();
  counts_ = counts;
  ended_ = true;
  return StreamEvent::End;
}

StreamEvent StreamReader::read_devices(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  Discovery d;
  const OrderedJson& gpus = member(j, "gpus", "devices");
  if (!gpus.is_array()) refuse("devices.gpus: expected an array");
  for (std::size_t i = 0; i < gpus.size(); ++i)
    d.gpus.push_back(
        detail::device_from_json_value(gpus[i], "devices.gpus[" + std::to_string(i) + "]"));
  d.no_gpu_reason = text_of(j, "no_gpu_reason", "devices");
  d.host = detail::device_from_json_value(member(j, "host", "devices"), "devices.host");
  if (auto links = j.find("links"); links != j.end()) {  // 1.1; a 1.0 CLI does not say
    if (!links->is_array()) refuse("devices.links: expected an array");
    for (std::size_t i = 0; i < links->size(); ++i)
      d.links.push_back(
          detail::link_from_json_value((*links)[i], "devices.links[" + std::to_string(i) + "]"));
  }
  discovery_ = std::move(d);
  return StreamEvent::Devices;
}

StreamEvent StreamReader::read_worker_event(const std::string& event,
                                            const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (event == "lost") {
    message_ = text_of(j, "message", event);
    return StreamEvent::Lost;
  }
  if (event == "next") {
    if (!started_ || session_.results.empty()) refuse("a next event before any point");
    return StreamEvent::Next;
  }
  if (event == "counted") {
    const OrderedJson& step = member(j, "step", event);
    if (!step.is_object()) refuse("counted.step: expected an object");
    counted_ = step.dump();
    return StreamEvent::Counted;
  }
  return read_multi(detail::StreamLine{j});
}

StreamEvent StreamReader::read_multi(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (started_) refuse("a multi event in a one-GPU run's stream");
  if (ended_) refuse("a multi event after the end");
  const OrderedJson& s = member(j, "session", "multi");
  if (!s.is_object()) refuse("multi.session: expected an object");
  MultiSession next = multi_session_from_json(s.dump());
  const std::size_t had = multi_ ? multi_->points.size() : 0;
  const std::size_t count = expand(next.spec).size();
  if (next.points.size() < had || next.points.size() > count)
    refuse("a multi-GPU session of " + std::to_string(next.points.size()) + " points after " +
           std::to_string(had) + ", of " + std::to_string(count));
  multi_ = std::move(next);
  return StreamEvent::Multi;
}

StreamEvent StreamReader::read_multi_end(const detail::StreamLine& line) {
  const OrderedJson& j = line.json;
  if (!multi_) refuse("an end event before the start");
  const OrderedJson& cancelled = member(j, "cancelled", "end");
  if (!cancelled.is_boolean()) refuse("end.cancelled: expected true or false");
  const OrderedJson& c = member(j, "counts", "end");
  if (!c.is_object()) refuse("end.counts: expected an object");
  const std::size_t said = count_of(c, "points", "end.counts");
  if (said != expand(multi_->spec).size())
    refuse("the end event counts " + std::to_string(said) + " points, but the spec has " +
           std::to_string(expand(multi_->spec).size()));
  multi_->cancelled = cancelled.get<bool>() || multi_->cancelled;
  ended_ = true;
  return StreamEvent::End;
}

}  // namespace rl
