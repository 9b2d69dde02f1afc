// The run stream's writer (process/stream.h). Every part of a session is written by the session
// file's own functions (io/export_json_parts.h); a line is compact JSON, one object, '\n'.
#include "engine/process/stream.h"
#include "engine/core/build_info.h"
#include "engine/core/utc_time.h"

#include <ctime>

#include "engine/experiment/multi_spec.h"
#include "engine/io/export.h"
#include "io/export_json_parts.h"

namespace rl {

namespace {

using detail::OrderedJson;

OrderedJson line_of(std::string_view event) {
  return OrderedJson{{"schema_version", stream_version()}, {"event", event}};
}

std::string dump(const OrderedJson& line) {
  // Invalid UTF-8 in a message (a path, a driver's text) is replaced, never a throw mid-run.
  return line.dump(-1, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

}  // namespace

std::string stream_version() {
  return std::to_string(kStreamMajor) + "." + std::to_string(kStreamMinor);
}

namespace {

// Both kinds of point (PointResult, MultiPoint) say their status and noisiness alike.
template <class Point>
StreamCounts count_statuses(const std::vector<Point>& done, std::size_t points) {
  StreamCounts c;
  c.points = points;
  for (const Point& r : done) {
    switch (r.status) {
      case PointStatus::Ok:
        ++c.ok;
        break;
      case PointStatus::Wrong:
        ++c.wrong;
        break;
      case PointStatus::Failed:
        ++c.failed;
        break;
      case PointStatus::Skipped:
        ++c.skipped;
        break;
    }
    if (r.noisy) ++c.noisy;
  }
  return c;
}

OrderedJson counts_json(const StreamCounts& c) {
  return {{"points", c.points}, {"ok", c.ok},           {"wrong", c.wrong},
          {"failed", c.failed}, {"skipped", c.skipped}, {"noisy", c.noisy}};
}

}  // namespace

StreamCounts count_points(const Session& s, std::size_t points) {
  return count_statuses(s.results, points);
}

std::string stream_start_line(const DeviceInfo& device, const ExperimentSpec& spec,
                              std::size_t points) {
  OrderedJson line = line_of("start");
  line["tool"] = {
      {"name", "ReductionLab"}, {"version", tool_version()}, {"git_commit", git_commit()}};
  line["created_utc"] = utc_now();
  line["points"] = points;
  line["device"] = detail::device_to_json_value(device);
  line["spec"] = detail::spec_to_json_value(spec);
  return dump(line);
}

std::string stream_progress_line(const Progress& p) {
  OrderedJson line = line_of("progress");
  line["done"] = p.done;
  line["total"] = p.total;
  line["point"] = p.done < p.total ? p.current.label() : "";  // for people; the reader expands
  line["elapsed_s"] = p.elapsed_s;
  line["eta_s"] = p.eta_s;
  return dump(line);
}

std::string stream_point_line(const Session& s) {
  OrderedJson line = line_of("point");
  line["index"] = s.results.empty() ? 0 : s.results.size() - 1;
  line["result"] = s.results.empty() ? OrderedJson(nullptr)
                                     : detail::result_to_json_value(s, s.results.size() - 1);
  OrderedJson floors = OrderedJson::array();
  for (const ReadFloor& f : s.read_floors) floors.push_back(detail::read_floor_to_json_value(f));
  line["read_floors"] = floors;
  line["device"] = detail::device_to_json_value(s.device);  // since 1.2
  return dump(line);
}

std::string stream_notice_line(const std::string& message) {
  OrderedJson line = line_of("notice");
  line["message"] = message;
  return dump(line);
}

std::string stream_error_line(const std::string& message) {
  OrderedJson line = line_of("error");
  line["message"] = message;
  return dump(line);
}

std::string stream_end_line(const Session& s, std::size_t points) {
  const StreamCounts c = count_points(s, points);
  OrderedJson line = line_of("end");
  line["cancelled"] = s.cancelled;
  line["device"] = detail::device_to_json_value(s.device);
  line["counts"] = counts_json(c);
  return dump(line);
}

std::string stream_devices_line(const Discovery& d) {
  OrderedJson line = line_of("devices");
  OrderedJson gpus = OrderedJson::array();
  for (const DeviceInfo& g : d.gpus) gpus.push_back(detail::device_to_json_value(g));
  line["gpus"] = gpus;
  line["no_gpu_reason"] = d.no_gpu_reason;
  line["host"] = detail::device_to_json_value(d.host);
  OrderedJson links = OrderedJson::array();  // since 1.1
  for (const PeerLink& l : d.links) links.push_back(detail::link_to_json_value(l));
  line["links"] = links;
  return dump(line);
}

std::string stream_lost_line(const std::string& message) {
  OrderedJson line = line_of("lost");
  line["message"] = message;
  return dump(line);
}

std::string stream_next_line() {
  return dump(line_of("next"));
}

std::string stream_counted_line(const std::string& counted_json) {
  OrderedJson line = line_of("counted");
  line["step"] = OrderedJson::parse(counted_json);
  return dump(line);
}

std::string stream_multi_line(const MultiSession& s) {
  OrderedJson line = line_of("multi");
  line["session"] = OrderedJson::parse(multi_session_to_json(s, -1));
  return dump(line);
}

std::string stream_multi_end_line(const MultiSession& s) {
  OrderedJson line = line_of("end");
  line["cancelled"] = s.cancelled;
  line["counts"] = counts_json(count_statuses(s.points, expand(s.spec).size()));
  return dump(line);
}

}  // namespace rl
