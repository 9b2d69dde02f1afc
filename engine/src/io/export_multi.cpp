// Multi-GPU sessions out: JSON (the whole session) and CSV (summary rows per point and per GPU,
// raw samples). The reader is export_multi_read.cpp.
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/io/export.h"
#include "io/csv_cells.h"
#include "io/export_json_parts.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

using detail::json_numbers;
Json number(double d) {
  return detail::json_number(d);
}

Json phases_json(const PhaseTimes& t, const std::vector<double>& local,
                 const std::vector<double>& exchange, const std::vector<double>& total) {
  return Json{{"phases",
               {{"local", detail::summary_to_json_value(t.local)},
                {"exchange", detail::summary_to_json_value(t.exchange)},
                {"total", detail::summary_to_json_value(t.total)}}},
              {"samples",
               {{"local", json_numbers(local)},
                {"exchange", json_numbers(exchange)},
                {"total", json_numbers(total)}}}};
}

Json spec_json(const MultiSpec& s) {
  Json exchanges = Json::array(), types = Json::array();
  for (Exchange e : s.exchanges) exchanges.push_back(to_string(e));
  for (DType t : s.types) types.push_back(to_string(t));
  return Json{{"devices", s.devices},
              {"gpu_counts", s.gpu_counts},
              {"exchanges", exchanges},
              {"variant", s.variant},
              {"workspace", to_string(s.workspace)},
              {"block_size", s.block_size},
              {"unroll", s.unroll},
              {"sizes", s.sizes},
              {"types", types},
              {"timing", detail::timing_to_json_value(s.timing)}};
}

Json point_json(const MultiPoint& p) {
  Json j{{"exchange", to_string(p.point.exchange)},
         {"gpu_count", p.point.gpu_count},
         {"size", p.point.size},
         {"type", to_string(p.point.type)},
         {"devices", p.devices},
         {"status", to_string(p.status)},
         {"message", p.message},
         {"value", p.value},
         {"expected", p.expected},
         {"rel_error", number(p.rel_error)},
         {"noisy", p.noisy},
         {"total_gbps", number(p.total_gbps())},
         {"read_roof_gbps", number(p.read_roof_gbps)}};
  j.update(phases_json(p.times, p.local_samples_ms, p.exchange_samples_ms, p.total_samples_ms));
  Json gpus = Json::array();
  for (const GpuShare& g : p.gpus) {
    Json gj{{"device", g.device},
            {"elements", g.elements},
            {"partial", g.partial},
            {"expected_partial", g.expected_partial}};
    gj.update(phases_json(g.times, g.local_samples_ms, g.exchange_samples_ms, g.total_samples_ms));
    gpus.push_back(gj);
  }
  j["gpus"] = gpus;
  return j;
}

using csv::quote;

std::string cell(double d) {
  return csv::number(d);
}

std::string device_list(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) out += (out.empty() ? "cuda:" : ";cuda:") + std::to_string(d);
  return out;
}

// The columns every row starts with: which point, which scope.
std::string point_cells(const MultiSession& s, const MultiPoint& p, const std::string& scope) {
  return std::string(to_string(p.point.exchange)) + "," + std::to_string(p.point.gpu_count) + "," +
         quote(device_list(p.devices)) + "," + quote(s.spec.variant) + "," +
         std::string(to_string(s.spec.workspace)) + "," + std::to_string(s.spec.block_size) + "," +
         std::to_string(s.spec.unroll) + "," + std::to_string(p.point.size) + "," +
         std::string(to_string(p.point.type)) + "," + scope;
}

std::string phase_cells(const PhaseTimes& t) {
  std::string out;
  for (const Summary* s : {&t.local, &t.exchange, &t.total})
    out += "," + cell(s->median_ms) + "," + cell(s->mean_ms) + "," + cell(s->min_ms) + "," +
           cell(s->max_ms) + "," + cell(s->stddev_ms);
  return out + "," + std::to_string(t.total.samples) + "," + cell(t.total.noise);
}

}  // namespace

std::string multi_session_to_json(const MultiSession& s, int indent) {
  Json devices = Json::array(), links = Json::array(), floors = Json::array(),
       points = Json::array();
  for (const DeviceInfo& d : s.devices) devices.push_back(detail::device_to_json_value(d));
  for (const PeerLink& l : s.links) links.push_back(detail::link_to_json_value(l));
  for (const ShardFloor& f : s.read_floors)
    floors.push_back(
        Json{{"device", f.device}, {"bytes", f.bytes}, {"median_ms", number(f.median_ms)}});
  for (const MultiPoint& p : s.points) points.push_back(point_json(p));
  const Json doc{{"schema_version", s.schema_version},
                 {"kind", MultiSession::kKind},
                 {"tool", {{"version", s.tool_version}, {"git_commit", s.git_commit}}},
                 {"created_utc", s.created_utc},
                 {"cancelled", s.cancelled},
                 {"devices", devices},
                 {"links", links},
                 {"nccl", {{"available", s.nccl_available}, {"text", s.nccl}}},
                 {"spec", spec_json(s.spec)},
                 {"read_floors", floors},
                 {"points", points}};
  return doc.dump(indent) + "\n";
}

std::string multi_summary_csv(const MultiSession& s) {
  std::string out =
      "exchange,gpu_count,devices,variant,workspace,block_size,unroll,size,type,scope,elements,"
      "status";
  for (const char* phase : {"local", "exchange", "total"})
    for (const char* stat : {"median_ms", "mean_ms", "min_ms", "max_ms", "stddev_ms"})
      out += std::string(",") + phase + "_" + stat;
  out += ",samples,noise,noisy,total_gbps,read_roof_gbps,value,expected,message\n";
  for (const MultiPoint& p : s.points) {
    out += point_cells(s, p, "all") + "," + std::to_string(p.point.size) + "," +
           std::string(to_string(p.status)) + phase_cells(p.times) + "," +
           (p.noisy ? "true" : "false") + "," + cell(p.total_gbps()) + "," +
           cell(p.read_roof_gbps) + "," + quote(p.value) + "," + quote(p.expected) + "," +
           quote(p.message) + "\n";
    for (const GpuShare& g : p.gpus)
      out += point_cells(s, p, "cuda:" + std::to_string(g.device)) + "," +
             std::to_string(g.elements) + "," + std::string(to_string(p.status)) +
             phase_cells(g.times) + ",,,," + quote(g.partial) + "," + quote(g.expected_partial) +
             ",\n";
  }
  return out;
}

std::string multi_samples_csv(const MultiSession& s) {
  std::string out =
      "exchange,gpu_count,devices,variant,workspace,block_size,unroll,size,type,scope,sample,"
      "local_ms,exchange_ms,total_ms\n";
  auto rows = [&](const MultiPoint& p, const std::string& scope, const std::vector<double>& l,
                  const std::vector<double>& e, const std::vector<double>& t) {
    for (std::size_t i = 0; i < t.size() && i < l.size() && i < e.size(); ++i)
      out += point_cells(s, p, scope) + "," + std::to_string(i) + "," + cell(l[i]) + "," +
             cell(e[i]) + "," + cell(t[i]) + "\n";
  };
  for (const MultiPoint& p : s.points) {
    rows(p, "all", p.local_samples_ms, p.exchange_samples_ms, p.total_samples_ms);
    for (const GpuShare& g : p.gpus)
      rows(p, "cuda:" + std::to_string(g.device), g.local_samples_ms, g.exchange_samples_ms,
           g.total_samples_ms);
  }
  return out;
}

}  // namespace rl
