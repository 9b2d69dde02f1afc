// Versioned JSON sessions: the reader. It checks every field it needs and names the first bad one
// ("results[3].block_size: expected an integer"), building the whole Session before returning
// it, so a caller never sees a partial one. The writer is export_json.cpp; a session's spec is
// read by spec_json_read.cpp.
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/io/session_checks.h"
#include "engine/io/session_file.h"
#include "io/counters_io.h"
#include "io/export_json_parts.h"
#include "io/json_bounded.h"
#include "io/json_read.h"
#include "io/model_counts_json.h"
#include "io/shapes_json.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

using json::as_bool;
using json::as_double;
using json::as_dtype;
using json::as_int;
using json::as_int64;
using json::as_string;
using json::as_uint64;
using json::as_workspace;
using json::expect_array;
using json::expect_object;
using json::fail;
using json::index;
using json::join;

const Json& field(const Json& obj, const std::string& parent, std::string_view key) {
  return json::member(obj, parent, key);
}

// Raw samples: up to a million per point, so the path is made only for an error.
std::vector<double> as_doubles(const Json& v, const std::string& path) {
  std::vector<double> out;
  out.reserve(expect_array(v, path).size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(v[i].is_number() ? v[i].get<double>() : as_double(v[i], index(path, i)));
  return out;
}

Summary read_summary(const Json& obj, const std::string& path) {
  expect_object(obj, path);
  Summary s;
  s.samples = as_int(field(obj, path, "samples"), join(path, "samples"));
  s.median_ms = as_double(field(obj, path, "median_ms"), join(path, "median_ms"));
  s.mean_ms = as_double(field(obj, path, "mean_ms"), join(path, "mean_ms"));
  s.min_ms = as_double(field(obj, path, "min_ms"), join(path, "min_ms"));
  s.max_ms = as_double(field(obj, path, "max_ms"), join(path, "max_ms"));
  s.stddev_ms = as_double(field(obj, path, "stddev_ms"), join(path, "stddev_ms"));
  s.noise = as_double(field(obj, path, "noise"), join(path, "noise"));
  return s;
}

DeviceInfo read_device(const Json& obj, const std::string& path) {
  expect_object(obj, path);
  auto get = [&](std::string_view key) -> std::pair<const Json&, std::string> {
    return {field(obj, path, key), join(path, key)};
  };
  auto get_int = [&](std::string_view key) {
    auto [v, p] = get(key);
    return as_int(v, p);
  };
  auto get_u64 = [&](std::string_view key) {
    auto [v, p] = get(key);
    return as_uint64(v, p);
  };
  auto get_dbl = [&](std::string_view key) {
    auto [v, p] = get(key);
    return as_double(v, p);
  };
  auto get_str = [&](std::string_view key) {
    auto [v, p] = get(key);
    return as_string(v, p);
  };
  DeviceInfo d;
  d.backend = get_str("backend");
  if (d.backend != "cuda" && d.backend != "host")
    fail(join(path, "backend"), "unknown backend " + echo(d.backend) + " (expected cuda or host)");
  d.index = get_int("index");
  d.name = get_str("name");
  d.cc_major = get_int("cc_major");
  d.cc_minor = get_int("cc_minor");
  d.sm_count = get_int("sm_count");
  d.l2_bytes = get_u64("l2_bytes");
  d.total_memory = get_u64("total_memory");
  d.free_memory = get_u64("free_memory");
  d.max_threads_per_block = get_int("max_threads_per_block");
  d.memory_clock_khz = get_int("memory_clock_khz");
  d.memory_bus_bits = get_int("memory_bus_bits");
  d.theoretical_gbps = get_dbl("theoretical_gbps");
  d.measured_copy_gbps = get_dbl("measured_copy_gbps");
  // The read floor came later in schema 1: sessions without it still open.
  if (obj.contains("measured_read_gbps")) {
    d.measured_read_gbps = get_dbl("measured_read_gbps");
    d.read_floor_bytes = get_u64("read_floor_bytes");
  }
  d.driver_version = get_int("driver_version");
  d.runtime_version = get_int("runtime_version");
  d.note = get_str("note");
  check_plausible(d, path);
  return d;
}

PointResult read_result(const Json& obj, const std::string& path) {
  expect_object(obj, path);
  auto get = [&](std::string_view key) -> const Json& { return field(obj, path, key); };
  auto at = [&](std::string_view key) { return join(path, key); };
  PointResult r;
  PointSpec& p = r.point;
  p.variant = as_string(get("variant"), at("variant"));
  if (!find_variant_by_id(p.variant))
    fail(at("variant"), "unknown variant " + echo(p.variant) + " (not in this build's catalog)");
  p.workspace = as_workspace(get("workspace"), at("workspace"));
  p.block_size = as_int(get("block_size"), at("block_size"));
  p.unroll = as_int(get("unroll"), at("unroll"));
  p.size = as_uint64(get("size"), at("size"));
  p.type = as_dtype(get("type"), at("type"));
  detail::point_shape_from_json(obj, path, p);  // a matrix point's rows and cols
  const std::string status = as_string(get("status"), at("status"));
  const auto parsed = parse_point_status(status);
  if (!parsed) fail(at("status"), "unknown status " + echo(status));
  r.status = *parsed;
  if (as_bool(get("correct"), at("correct")) != (r.status == PointStatus::Ok))
    fail(at("correct"), "disagrees with status " + echo(status));
  r.message = as_string(get("message"), at("message"));
  const std::int64_t grid = as_int64(get("grid"), at("grid"));
  if (grid < 0 || grid > std::int64_t(std::numeric_limits<unsigned>::max()))
    fail(at("grid"), "integer out of range");
  r.grid = unsigned(grid);
  r.first_kernel = read_summary(get("first_kernel"), at("first_kernel"));
  r.total = read_summary(get("total"), at("total"));
  r.first_samples_ms = as_doubles(get("first_samples_ms"), at("first_samples_ms"));
  r.total_samples_ms = as_doubles(get("total_samples_ms"), at("total_samples_ms"));
  // The timestamp floor and GPU time came later in schema 1: sessions without them still open.
  if (obj.contains("timestamp_floor")) {
    r.timestamp_floor = read_summary(get("timestamp_floor"), at("timestamp_floor"));
    r.floor_samples_ms = as_doubles(get("floor_samples_ms"), at("floor_samples_ms"));
    r.event_spans = as_int(get("event_spans"), at("event_spans"));
    if (r.event_spans < 0 || r.event_spans > 2) fail(at("event_spans"), "expected 0, 1 or 2");
    r.gpu_time = read_summary(get("gpu_time"), at("gpu_time"));
  }
  // first_gbps, total_gbps, pct_of_theoretical and pct_of_read_floor (pct_of_copy in older
  // files) are derived: not read, derived again from the times (session/metrics.h).
  if (obj.contains("noisy")) r.noisy = as_bool(get("noisy"), at("noisy"));
  // Later in schema 1: sessions without counts still open (model_counts.h: counts_of).
  if (auto c = obj.find("counts"); c != obj.end() && !c->is_null())
    r.counts = counts_from_json(*c, at("counts"));
  // Later in schema 1: sessions without counters still open.
  if (auto c = obj.find("counters"); c != obj.end() && !c->is_null())
    r.counters = counters_from_json(*c, at("counters"));
  if (auto c = obj.find("line_samples"); c != obj.end() && !c->is_null())
    r.line_samples = line_samples_from_json(*c, at("line_samples"));
  if (auto c = obj.find("occupancy"); c != obj.end() && !c->is_null())
    r.occupancy = detail::occupancy_from_json_value(*c, at("occupancy"));
  if (const Json& s = get("speedup"); !s.is_null()) r.speedup = as_double(s, at("speedup"));
  r.value = as_string(get("value"), at("value"));
  r.expected = as_string(get("expected"), at("expected"));
  r.abs_error = as_double(get("abs_error"), at("abs_error"));
  r.rel_error = as_double(get("rel_error"), at("rel_error"));
  check_plausible(r, path);  // session_checks.h: values that cannot be true
  return r;
}

ReadFloor read_floor(const Json& obj, const std::string& path) {
  expect_object(obj, path);
  auto get = [&](std::string_view key) -> const Json& { return field(obj, path, key); };
  auto at = [&](std::string_view key) { return join(path, key); };
  ReadFloor f;
  f.bytes = as_uint64(get("bytes"), at("bytes"));
  f.shape = as_string(get("shape"), at("shape"));
  f.time = read_summary(get("time"), at("time"));
  f.gpu_time = read_summary(get("gpu_time"), at("gpu_time"));
  f.noisy = as_bool(get("noisy"), at("noisy"));
  check_plausible(f, path);
  return f;
}

}  // namespace

namespace detail {
DeviceInfo device_from_json_value(const OrderedJson& v, const std::string& path) {
  return read_device(v, path);
}
Summary summary_from_json_value(const OrderedJson& v, const std::string& path) {
  return read_summary(v, path);
}
PointResult result_from_json_value(const OrderedJson& v, const std::string& path) {
  return read_result(v, path);
}
ReadFloor read_floor_from_json_value(const OrderedJson& v, const std::string& path) {
  return read_floor(v, path);
}
}  // namespace detail

namespace {

// What a session says of itself, checked before any of its points: not a multi-GPU session, a
// schema version this build reads.
int read_header(const Json& doc) {
  if (!doc.is_object()) throw Error("not a ReductionLab session: expected a JSON object");
  if (auto kind = doc.find("kind"); kind != doc.end() && *kind == "multi_gpu")
    throw Error("a multi-GPU session (written by run --devices), not a one-GPU session");
  auto it = doc.find("schema_version");
  if (it == doc.end()) throw Error("not a ReductionLab session: schema_version is missing");
  const int version = as_int(*it, "schema_version");
  if (version > Session::kSchemaVersion)
    throw Error("schema_version " + std::to_string(version) + " is newer than this build reads (" +
                std::to_string(Session::kSchemaVersion) + ")");
  if (version < 1) fail("schema_version", std::to_string(version) + " is not a valid version");
  return version;
}

// A session from a parse that streams its results (json_bounded.h): each result becomes a
// PointResult as soon as it is read, so the document never holds the results beside the values.
// The writer puts the header first, so a newer or foreign file is named as such, not by its
// first point.
template <typename Parse>
Session read_session(Parse parse) {
  Session s;
  bool first = true;
  bool old_noisy = false;  // a session from before the noisy flag
  const Json doc = parse([&](const Json& r, std::size_t i, const Json& root) {
    if (first && root.contains("schema_version")) read_header(root);
    // The points of a user kernel name it: its source (in the spec, written before the
    // results) is registered first.
    if (first && root.contains("spec") && root["spec"].is_object())
      if (const Json* user = json::find(root["spec"], "user_kernels"))
        detail::user_kernels_from_json_value(*user, "spec.user_kernels");
    if (first) old_noisy = !(r.is_object() && r.contains("noisy"));
    first = false;
    s.results.push_back(read_result(r, index("results", i)));
  });
  s.schema_version = read_header(doc);
  const Json& tool = field(doc, "", "tool");
  expect_object(tool, "tool");
  s.tool_version = as_string(field(tool, "tool", "version"), "tool.version");
  s.git_commit = as_string(field(tool, "tool", "git_commit"), "tool.git_commit");
  s.created_utc = as_string(field(doc, "", "created_utc"), "created_utc");
  s.cancelled = as_bool(field(doc, "", "cancelled"), "cancelled");
  s.device = read_device(field(doc, "", "device"), "device");
  s.spec = detail::spec_from_json_value(field(doc, "", "spec"), "spec");
  // A resumed run expands its spec: one past its bound is refused here, before any point.
  if (const std::uint64_t n = count_points(s.spec); n > s.spec.max_points)
    fail("spec", "expands to " + std::to_string(n) + " points; at most " +
                     std::to_string(s.spec.max_points) + " (the spec's max_points)");
  expect_array(field(doc, "", "results"), "results");
  // Sessions from before the noisy flag: the same rule, from what they recorded.
  if (old_noisy)
    for (PointResult& r : s.results)
      r.noisy = (r.status == PointStatus::Ok || r.status == PointStatus::Wrong) &&
                !r.total.empty() && r.total.noise >= s.spec.timing.noise;
  if (auto floors = doc.find("read_floors"); floors != doc.end()) {
    const Json& arr = expect_array(*floors, "read_floors");
    for (std::size_t i = 0; i < arr.size(); ++i)
      s.read_floors.push_back(read_floor(arr[i], index("read_floors", i)));
  }
  if (auto timelines = doc.find("timelines"); timelines != doc.end()) {
    const Json& arr = expect_array(*timelines, "timelines");
    if (arr.size() > kTimelineMaxPerSession)
      fail("timelines", std::to_string(arr.size()) + " timelines; at most " +
                            std::to_string(kTimelineMaxPerSession));
    for (std::size_t i = 0; i < arr.size(); ++i)
      s.timelines.push_back(detail::timeline_from_json_value(arr[i], index("timelines", i)));
  }
  check_session(s);  // session_checks.h: what no point alone shows
  return s;
}

}  // namespace

Session session_from_json(std::string_view text) {
  return read_session(
      [&](const JsonElementSink& sink) { return parse_json_bounded(text, "results", sink); });
}

Session session_from_json_file(const std::string& path) {
  return read_session([&](const JsonElementSink& sink) {
    return parse_json_file_bounded(path, kMaxSessionFileBytes, "results", sink);
  });
}

}  // namespace rl
