// Measured warp timelines as JSON (io/timeline_json.h): the writer, the reader and the report
// trace --measured writes. Every array is bounded before its items are read (session/timeline.h),
// and a timeline read is checked whole (timeline_problems) before it is returned.
#include "engine/io/timeline_json.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "engine/session/timeline_analysis.h"
#include "io/export_json_parts.h"
#include "io/json_bounded.h"
#include "io/json_read.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

using json::as_bool;
using json::as_double;
using json::as_int;
using json::as_string;
using json::as_uint64;
using json::expect_array;
using json::expect_object;
using json::fail;
using json::index;
using json::join;

// Phase names per timeline: the built-in kernels use four, a user kernel names its own.
constexpr std::size_t kMaxPhaseNames = 256;
constexpr unsigned kMaxWarpsPerBlock = unsigned(kMaxBlockSize) / 32;

constexpr char kKindCodes[] = {'S', 'P', 'A', 'R', 'E'};  // by MarkKind

Json number(double d) {
  return detail::json_number(d);
}

Json warp_json(const WarpTimeline& w, std::vector<std::string>& phases) {
  Json marks = Json::array();
  for (const TimelineMark& m : w.marks) {
    int phase = -1;
    if (!m.phase.empty()) {
      auto it = std::find(phases.begin(), phases.end(), m.phase);
      phase = int(it - phases.begin());
      if (it == phases.end()) phases.push_back(m.phase);
    }
    marks.push_back(
        Json::array({std::string(1, kKindCodes[int(m.kind)]), phase, m.index, m.clock, m.ns}));
  }
  return Json{{"warp", w.warp}, {"truncated", w.truncated}, {"marks", std::move(marks)}};
}

// Each array's length is checked before its items are read.
const Json& bounded_array(const Json& v, const std::string& path, std::size_t most,
                          const char* what) {
  expect_array(v, path);
  if (v.size() > most)
    fail(path, std::to_string(v.size()) + " " + what + "; at most " + std::to_string(most));
  return v;
}

unsigned as_unsigned(const Json& v, const std::string& path) {
  const std::uint64_t u = as_uint64(v, path);
  if (u > std::numeric_limits<unsigned>::max()) fail(path, "integer out of range");
  return unsigned(u);
}

TimelineMark read_mark(const Json& v, const std::string& path,
                       const std::vector<std::string>& phases) {
  if (!v.is_array() || v.size() != 5)
    fail(path, "expected a mark: [kind, phase, index, clock, ns]");
  TimelineMark m;
  const std::string kind = as_string(v[0], index(path, 0));
  const char* code = kind.size() == 1 ? std::strchr(kKindCodes, kind[0]) : nullptr;
  if (!code || !*code)
    fail(index(path, 0), "unknown mark kind " + echo(kind) + " (expected S, P, A, R or E)");
  m.kind = MarkKind(code - kKindCodes);
  const std::int64_t phase = json::as_int64(v[1], index(path, 1));
  if (phase < -1 || phase >= std::int64_t(phases.size()))
    fail(index(path, 1), "phase " + std::to_string(phase) + " is not -1 (none) or one of the " +
                             std::to_string(phases.size()) + " names in phases");
  if (phase >= 0) m.phase = phases[std::size_t(phase)];
  m.index = as_unsigned(v[2], index(path, 2));
  m.clock = as_uint64(v[3], index(path, 3));
  m.ns = as_uint64(v[4], index(path, 4));
  return m;
}

WarpTimeline read_warp(const Json& obj, const std::string& path,
                       const std::vector<std::string>& phases) {
  expect_object(obj, path);
  WarpTimeline w;
  w.warp = as_unsigned(json::member(obj, path, "warp"), join(path, "warp"));
  w.truncated = as_bool(json::member(obj, path, "truncated"), join(path, "truncated"));
  const std::string at = join(path, "marks");
  const Json& marks =
      bounded_array(json::member(obj, path, "marks"), at, kTimelineMaxMarksPerWarp, "marks");
  for (std::size_t i = 0; i < marks.size(); ++i)
    w.marks.push_back(read_mark(marks[i], index(at, i), phases));
  return w;
}

BlockTimeline read_block(const Json& obj, const std::string& path,
                         const std::vector<std::string>& phases) {
  expect_object(obj, path);
  BlockTimeline b;
  b.block = as_unsigned(json::member(obj, path, "block"), join(path, "block"));
  b.sm = as_unsigned(json::member(obj, path, "sm"), join(path, "sm"));
  const std::string at = join(path, "warps");
  const Json& warps =
      bounded_array(json::member(obj, path, "warps"), at, kMaxWarpsPerBlock, "warps");
  for (std::size_t i = 0; i < warps.size(); ++i)
    b.warps.push_back(read_warp(warps[i], index(at, i), phases));
  return b;
}

std::vector<std::string> read_phases(const Json& v, const std::string& path) {
  bounded_array(v, path, kMaxPhaseNames, "phase names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    out.push_back(as_string(v[i], index(path, i)));
    if (out.back().empty()) fail(index(path, i), "an empty phase name");
  }
  return out;
}

Json summary_json(const TimelineSummary& s) {
  Json phases = Json::array();
  for (const auto& [name, ns] : s.phase_ns) phases.push_back({{"phase", name}, {"ns", number(ns)}});
  return Json{{"cycles_per_ns", number(s.cycles_per_ns)},
              {"span_ns", number(s.span_ns)},
              {"block_median_ns", number(s.block_median_ns)},
              {"warp_time_sum_ns", number(s.warp_time_sum_ns)},
              {"barrier_wait_sum_ns", number(s.barrier_wait_sum_ns)},
              {"barrier_wait_share", number(s.barrier_wait_share)},
              {"instrumentation_cost", number(s.instrumentation_cost)},
              {"twin_block_share_ns", number(s.twin_block_share_ns)},
              {"truncated_warps", s.truncated_warps},
              {"phase_ns", std::move(phases)}};
}

Json barrier_json(const MeasuredTimeline& t, const BarrierTiming& b) {
  return Json{{"block_slot", b.block_slot},
              {"block", t.blocks.at(b.block_slot).block},
              {"ordinal", b.ordinal},
              {"warps", b.warps},
              {"slowest_warp", b.slowest_warp},
              {"first_arrival_ns", number(b.first_arrival_ns)},
              {"last_arrival_ns", number(b.last_arrival_ns)},
              {"last_release_ns", number(b.last_release_ns)},
              {"wait_sum_ns", number(b.wait_sum_ns)}};
}

}  // namespace

namespace detail {

OrderedJson timeline_to_json_value(const MeasuredTimeline& t) {
  std::vector<std::string> phases;
  Json blocks = Json::array();
  for (const BlockTimeline& b : t.blocks) {
    Json warps = Json::array();
    for (const WarpTimeline& w : b.warps) warps.push_back(warp_json(w, phases));
    blocks.push_back(Json{{"block", b.block}, {"sm", b.sm}, {"warps", std::move(warps)}});
  }
  return Json{{"variant", t.variant},
              {"label", t.label},
              {"block_size", t.block_size},
              {"unroll", t.unroll},
              {"workspace", to_string(t.workspace)},
              {"type", to_string(t.type)},
              {"size", t.size},
              {"grid", t.grid},
              {"selection", t.selection},
              {"sm", t.sm},
              {"device", t.device},
              {"recorded_utc", t.recorded_utc},
              {"twin_median_ms", number(t.twin_median_ms)},
              {"real_median_ms", number(t.real_median_ms)},
              {"cost_runs", t.cost_runs},
              {"sm_count", t.sm_count},
              {"resident_blocks_per_sm", t.resident_blocks_per_sm},
              {"phases", phases},
              {"blocks", std::move(blocks)}};
}

MeasuredTimeline timeline_from_json_value(const OrderedJson& obj, const std::string& path) {
  expect_object(obj, path);
  auto get = [&](std::string_view key) -> const Json& { return json::member(obj, path, key); };
  auto at = [&](std::string_view key) { return join(path, key); };
  MeasuredTimeline t;
  t.variant = as_string(get("variant"), at("variant"));
  t.label = as_string(get("label"), at("label"));
  t.block_size = as_int(get("block_size"), at("block_size"));
  t.unroll = as_int(get("unroll"), at("unroll"));
  t.workspace = json::as_workspace(get("workspace"), at("workspace"));
  t.type = json::as_dtype(get("type"), at("type"));
  t.size = as_uint64(get("size"), at("size"));
  t.grid = as_uint64(get("grid"), at("grid"));
  t.selection = as_string(get("selection"), at("selection"));
  t.sm = as_unsigned(get("sm"), at("sm"));
  t.device = as_string(get("device"), at("device"));
  t.recorded_utc = as_string(get("recorded_utc"), at("recorded_utc"));
  t.twin_median_ms = as_double(get("twin_median_ms"), at("twin_median_ms"));
  t.real_median_ms = as_double(get("real_median_ms"), at("real_median_ms"));
  t.cost_runs = as_int(get("cost_runs"), at("cost_runs"));
  // Kept since the block share is shown; older timelines have neither.
  if (const Json* v = json::find(obj, "sm_count")) t.sm_count = as_int(*v, at("sm_count"));
  if (const Json* v = json::find(obj, "resident_blocks_per_sm"))
    t.resident_blocks_per_sm = as_int(*v, at("resident_blocks_per_sm"));
  const std::vector<std::string> phases = read_phases(get("phases"), at("phases"));
  const Json& blocks = bounded_array(get("blocks"), at("blocks"), kTimelineMaxBlocks, "blocks");
  for (std::size_t i = 0; i < blocks.size(); ++i)
    t.blocks.push_back(read_block(blocks[i], index(at("blocks"), i), phases));
  if (const auto problems = timeline_problems(t); !problems.empty()) {
    std::string what = problems.front();
    if (problems.size() > 1)
      what += " (and " + std::to_string(problems.size() - 1) + " more problems)";
    fail(path, what);
  }
  return t;
}

}  // namespace detail

std::string timeline_to_json(const MeasuredTimeline& t, int indent) {
  return detail::timeline_to_json_value(t).dump(indent);
}

MeasuredTimeline timeline_from_json(std::string_view text) {
  const Json doc = parse_json_bounded(text);
  if (!doc.is_object()) throw Error("not a measured timeline: expected a JSON object");
  if (const Json* inner = json::find(doc, "timeline"))
    return detail::timeline_from_json_value(*inner, "timeline");
  return detail::timeline_from_json_value(doc, "");
}

std::string timeline_report_json(const MeasuredTimeline& t, int indent) {
  Json barriers = Json::array();
  for (const BarrierTiming& b : barrier_timings(t)) barriers.push_back(barrier_json(t, b));
  const Json doc{{"timeline", detail::timeline_to_json_value(t)},
                 {"summary", summary_json(summarize_timeline(t))},
                 {"barriers", std::move(barriers)}};
  return doc.dump(indent);
}

}  // namespace rl
