// The trace as JSON: {"variant", "block_size", "unroll", "workspace",
// "source", "steps": [{"barrier", "masks", "values", "ops", "caption", "counters"}...],
// "totals": {...}}. int32 workspaces print as integers, float32 as numbers.
#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/trace/trace.h"

namespace rl {

namespace {

nlohmann::json counters_json(const StepCounters& c) {
  nlohmann::json j = nlohmann::json::object();
  StepCounters::each(c, [&j](const char* name, std::uint64_t v) { j[name] = v; });
  return j;
}

nlohmann::json values_json(const std::vector<double>& v, DType type) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) {
    if (type == DType::Int32)
      a.push_back(static_cast<std::int64_t>(x));
    else
      a.push_back(static_cast<float>(x));
  }
  return a;
}

nlohmann::json to_json(const Trace& t) {
  nlohmann::json steps = nlohmann::json::array();
  for (const TraceStep& s : t.steps) {
    nlohmann::json ops = nlohmann::json::array();
    for (auto [d, src] : s.ops) ops.push_back({d, src});
    steps.push_back({{"kind", s.kind},
                     {"stride", s.stride},
                     {"barrier", s.barrier},
                     {"masks", s.masks},
                     {"exited", s.exited},
                     {"ops", ops},
                     {"threads", s.threads},
                     {"values", values_json(s.values, t.type)},
                     {"caption", s.caption},
                     {"counters", counters_json(s.counters)}});
  }
  nlohmann::json totals = counters_json(t.launch_totals);
  totals["blocks"] = t.grid;
  totals["size"] = t.size;
  nlohmann::json j = {
      {"variant", t.variant},
      {"label", t.label},
      {"display_name", t.display_name},
      {"block_size", t.block_size},
      {"unroll", t.unroll},
      {"workspace", std::string(to_string(t.workspace))},
      {"type", std::string(to_string(t.type))},
      {"size", t.size},
      {"grid", t.grid},
      {"block_index", t.block_index},
      {"warps", t.warps()},
      {"volatile_last_warp", t.volatile_last_warp},
      {"source", t.source},
      {"lane_states",
       "masks: bit l of warp w set = lane l acts in the step; exited: bit set = "
       "the lane has no work left and no barrier ahead; neither = masked off"},
      {"barrier_rule",
       "one per __syncthreads() a block executes after writing the workspace: "
       "after the load phase when it writes the workspace (shared, or global "
       "with U > 1) and after every tree step, if-chain steps that do nothing "
       "included"},
      {"initial_values", values_json(t.initial_values, t.type)},
      {"steps", steps},
      {"partial", t.type == DType::Int32 ? nlohmann::json(static_cast<std::int64_t>(t.partial))
                                         : nlohmann::json(static_cast<float>(t.partial))},
      {"block_totals", counters_json(t.block_totals)},
      {"totals", totals}};
  if (!t.source_device.empty()) j["source_device"] = t.source_device;
  if (t.rows != 0) {  // a matrix variant: its shape and the sums the traced block writes
    j["rows"] = t.rows;
    j["cols"] = t.cols;
    j["first_row"] = t.first_row;
    j["row_sums"] = values_json(t.row_sums, t.type);
  }
  return j;
}

}  // namespace

std::string trace_json_text(const Trace& t, int indent) {
  return to_json(t).dump(indent);
}

std::string trace_json_text(const TraceRequest& r, int indent) {
  return trace_json_text(make_trace(r), indent);
}

}  // namespace rl
