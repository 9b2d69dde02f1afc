// Versioned JSON sessions and spec files: the writer. Keys keep a fixed, readable order
// (schema_version first); numbers are written so they read back to the same double, and NaN and
// infinity, which JSON lacks, as the strings "nan", "inf" and "-inf". The readers are
// export_json_read.cpp (sessions) and spec_json_read.cpp (spec files and a session's spec).
#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/catalog/catalog.h"
#include "engine/io/export.h"
#include "engine/session/metrics.h"
#include "io/counters_io.h"
#include "io/export_json_parts.h"
#include "io/model_counts_json.h"
#include "io/shapes_json.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

Json number(double d) {
  return detail::json_number(d);
}

Json summary_json(const Summary& s) {
  return Json{{"samples", s.samples},         {"median_ms", number(s.median_ms)},
              {"mean_ms", number(s.mean_ms)}, {"min_ms", number(s.min_ms)},
              {"max_ms", number(s.max_ms)},   {"stddev_ms", number(s.stddev_ms)},
              {"noise", number(s.noise)}};
}

Json device_json(const DeviceInfo& d) {
  return Json{{"backend", d.backend},
              {"index", d.index},
              {"name", d.name},
              {"cc_major", d.cc_major},
              {"cc_minor", d.cc_minor},
              {"sm_count", d.sm_count},
              {"l2_bytes", std::uint64_t(d.l2_bytes)},
              {"total_memory", std::uint64_t(d.total_memory)},
              {"free_memory", std::uint64_t(d.free_memory)},
              {"max_threads_per_block", d.max_threads_per_block},
              {"memory_clock_khz", d.memory_clock_khz},
              {"memory_bus_bits", d.memory_bus_bits},
              {"theoretical_gbps", number(d.theoretical_gbps)},
              {"measured_copy_gbps", number(d.measured_copy_gbps)},
              {"measured_read_gbps", number(d.measured_read_gbps)},
              {"read_floor_bytes", d.read_floor_bytes},
              {"driver_version", d.driver_version},
              {"runtime_version", d.runtime_version},
              {"note", d.note}};
}

Json spec_json(const ExperimentSpec& s) {
  Json workspaces = Json::array(), types = Json::array();
  for (Workspace w : s.workspaces) workspaces.push_back(to_string(w));
  for (DType t : s.types) types.push_back(to_string(t));
  const TimingOptions& t = s.timing;
  Json j{{"variants", s.variants},
         {"workspaces", workspaces},
         {"block_sizes", s.block_sizes},
         {"unroll_factors", s.unroll_factors},
         {"sizes", s.sizes},
         {"types", types},
         {"timing", detail::timing_to_json_value(t)},
         {"baseline", s.baseline}};
  detail::shapes_to_json(s, j);  // only where there are matrices: files without read as before
  // Said only where raised (or lowered) on purpose: files of the usual bound read as before.
  if (s.max_points != kDefaultMaxPoints) j["max_points"] = s.max_points;
  if (!s.user_kernels.empty()) {
    Json user = Json::array();
    for (const UserKernelSource& k : s.user_kernels) {
      Json o{{"name", k.name}, {"source", k.source}};
      if (!k.file.empty()) o["file"] = k.file;
      if (!k.started_from.empty()) o["started_from"] = k.started_from;
      user.push_back(o);
    }
    j["user_kernels"] = user;
  }
  return j;
}

Json result_json(const PointResult& r, const PointRates& rates) {
  const PointSpec& p = r.point;
  const VariantInfo* info = find_variant_by_id(p.variant);
  Json speedup = r.speedup ? number(*r.speedup) : Json(nullptr);
  Json j{{"variant", p.variant},
         // For people and scripts reading the file; the reader ignores it.
         {"seed_name", info ? info->seed_label(p.unroll) : p.variant},
         {"workspace", to_string(p.workspace)},
         {"block_size", p.block_size},
         {"unroll", p.unroll},
         {"size", p.size},
         {"type", to_string(p.type)},
         {"status", to_string(r.status)},
         {"correct", r.status == PointStatus::Ok},
         {"message", r.message},
         {"grid", r.grid},
         {"first_kernel", summary_json(r.first_kernel)},
         {"total", summary_json(r.total)},
         {"first_samples_ms", detail::json_numbers(r.first_samples_ms)},
         {"total_samples_ms", detail::json_numbers(r.total_samples_ms)},
         {"timestamp_floor", summary_json(r.timestamp_floor)},
         {"floor_samples_ms", detail::json_numbers(r.floor_samples_ms)},
         {"event_spans", r.event_spans},
         {"gpu_time", summary_json(r.gpu_time)},
         // Derived (session/metrics.h), for people and scripts reading the file; the reader
         // derives them again.
         {"first_gbps", number(rates.first_gbps)},
         {"total_gbps", number(rates.total_gbps)},
         {"pct_of_theoretical", number(rates.pct_of_theoretical)},
         {"pct_of_read_floor", number(rates.pct_of_read_floor)},
         {"noisy", r.noisy},
         {"counts", r.counts ? counts_to_json(*r.counts) : Json(nullptr)},
         {"counters", r.counters ? counters_to_json(*r.counters) : Json(nullptr)},
         {"speedup", speedup},
         {"value", r.value},
         {"expected", r.expected},
         {"abs_error", number(r.abs_error)},
         {"rel_error", number(r.rel_error)}};
  detail::point_shape_to_json(p, j);
  // Later in schema 1, and only where taken: most sessions have none.
  if (r.line_samples) j["line_samples"] = line_samples_to_json(*r.line_samples);
  if (!r.occupancy.empty()) j["occupancy"] = detail::occupancy_to_json_value(r.occupancy);
  return j;
}

Json read_floor_json(const ReadFloor& f) {
  return Json{{"bytes", f.bytes},
              {"shape", f.shape},
              {"time", summary_json(f.time)},
              {"gpu_time", summary_json(f.gpu_time)},
              {"noisy", f.noisy},
              // For people and scripts reading the file; the reader ignores it.
              {"gbps", number(f.gbps())}};
}

}  // namespace

namespace detail {
OrderedJson json_number(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return d;
}
OrderedJson json_numbers(const std::vector<double>& values) {
  OrderedJson out = OrderedJson::array();
  for (double v : values) out.push_back(json_number(v));
  return out;
}
OrderedJson device_to_json_value(const DeviceInfo& d) {
  return device_json(d);
}
OrderedJson summary_to_json_value(const Summary& s) {
  return summary_json(s);
}
OrderedJson timing_to_json_value(const TimingOptions& t) {
  Json j{{"noise", number(t.noise)},     {"budget_ms", number(t.budget_ms)},
         {"warmup", t.warmup},           {"min_samples", t.min_samples},
         {"max_samples", t.max_samples}, {"cold_l2", t.cold_l2}};
  // Said only where set: files at the usual limit read as before.
  if (t.user_kernel_limit_s != kDefaultUserKernelLimitS)
    j["user_kernel_limit_s"] = number(t.user_kernel_limit_s);
  return j;
}
OrderedJson spec_to_json_value(const ExperimentSpec& s) {
  return spec_json(s);
}
OrderedJson result_to_json_value(const Session& s, std::size_t i) {
  return result_json(s.results.at(i), point_rates(s.results.at(i), s.device, s.read_floors));
}
OrderedJson read_floor_to_json_value(const ReadFloor& f) {
  return read_floor_json(f);
}
}  // namespace detail

std::string session_to_json(const Session& s, int indent) {
  Json results = Json::array();
  for (const PointResult& r : s.results)
    results.push_back(result_json(r, point_rates(r, s.device, s.read_floors)));
  Json floors = Json::array();
  for (const ReadFloor& f : s.read_floors) floors.push_back(read_floor_json(f));
  Json doc{{"schema_version", s.schema_version},
           {"tool",
            {{"name", "ReductionLab"}, {"version", s.tool_version}, {"git_commit", s.git_commit}}},
           {"created_utc", s.created_utc},
           {"cancelled", s.cancelled},
           {"device", device_json(s.device)},
           {"spec", spec_json(s.spec)},
           {"results", results},
           {"read_floors", floors}};
  // Only where recorded: sessions without timelines read as before.
  if (!s.timelines.empty()) {
    Json timelines = Json::array();
    for (const MeasuredTimeline& t : s.timelines)
      timelines.push_back(detail::timeline_to_json_value(t));
    doc["timelines"] = std::move(timelines);
  }
  return doc.dump(indent) + "\n";
}

std::string spec_to_json(const ExperimentSpec& spec, int indent) {
  return spec_json(spec).dump(indent) + "\n";
}

}  // namespace rl
