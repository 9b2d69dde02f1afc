#include "engine/views/counter_series.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "engine/catalog/catalog.h"
#include "engine/core/types.h"
#include "engine/counters/counter_catalog.h"
#include "engine/experiment/grammar.h"
#include "engine/trace/model_counts.h"

namespace rl {

namespace {

int catalog_index(const std::string& id) {
  const auto& cat = catalog();
  for (std::size_t i = 0; i < cat.size(); ++i)
    if (cat[i].id == id) return int(i);
  return int(cat.size());
}

bool measured(const PointResult& r) {
  return r.status == PointStatus::Ok || r.status == PointStatus::Wrong;
}

std::optional<double> metric_of(const PointResult& r, std::string_view metric) {
  const KernelCounters* k = r.counters ? r.counters->headline() : nullptr;
  return k ? k->value(metric) : std::nullopt;
}

// (size, type, block): the setting of a sweep; block 0 on the block-size axis.
using Setting = std::tuple<std::uint64_t, int, int>;
// (catalog index, variant, workspace, unroll or block): one line within a setting.
using Line = std::tuple<int, std::string, int, int>;
using Lines = std::map<Line, std::map<int, CounterSeriesPoint>>;  // by x

// The command on a line of its own: a narrow chart wraps text at its dashes.
std::string run_hint(CounterAxis axis) {
  return axis == CounterAxis::Unroll
             ? "a run with --counters on a GPU gives them:\nreductionlab-cli run --preset unroll "
               "--counters\n"
               "(in the app: the preset \"Unroll 1/2/4/8\", \"Hardware counters (CUPTI)\" "
               "ticked)"
             : "a run with --counters on a GPU gives them:\nreductionlab-cli run --preset "
               "block-sizes "
               "--counters\n(in the app: the preset \"Block-size sweep\", \"Hardware counters "
               "(CUPTI)\" ticked)";
}

// How well a setting fits: the preferred one first, then the most lines, the ladder's default,
// the largest N and block size.
auto rank(const Setting& k, std::size_t lines, const std::optional<LadderSetting>& preferred,
          const std::optional<LadderSetting>& fallback, CounterAxis axis) {
  auto is = [&](const std::optional<LadderSetting>& l) {
    return l && std::get<0>(k) == l->size && std::get<1>(k) == int(l->type) &&
           (axis == CounterAxis::BlockSize || std::get<2>(k) == l->block);
  };
  return std::make_tuple(is(preferred), lines, is(fallback), std::get<0>(k), std::get<2>(k));
}

}  // namespace

std::string_view barrier_stall_metric() {
  return find_counter("barrier_stall")->metric;
}

std::string CounterSweeps::label() const {
  std::string out = "N=" + format_size(size);
  if (axis == CounterAxis::Unroll) out += " · B=" + std::to_string(block);
  return out + " · " + std::string(to_string(type));
}

CounterSweeps counter_sweeps(const Session& s, CounterAxis axis,
                             const std::optional<LadderSetting>& preferred,
                             std::string_view metric) {
  CounterSweeps out;
  out.axis = axis;
  const bool by_unroll = axis == CounterAxis::Unroll;
  std::map<Setting, Lines> settings;
  bool any_counter = false;
  for (const PointResult& r : s.results) {
    if (!measured(r)) continue;
    const std::optional<double> v = metric_of(r, metric);
    if (!v) continue;
    any_counter = true;
    const PointSpec& p = r.point;
    if (!by_unroll && p.block_size <= 0) continue;  // the variant picks its own
    const Setting key{p.size, int(p.type), by_unroll ? p.block_size : 0};
    const Line line{catalog_index(p.variant), p.variant, int(p.workspace),
                    by_unroll ? 0 : p.unroll};
    const int x = by_unroll ? p.unroll : p.block_size;
    const KernelCounters* k = r.counters->headline();
    settings[key][line].emplace(x, CounterSeriesPoint{&r, x, *v, k->range(metric)});
  }
  // Only lines of two or more values are sweeps.
  for (auto& [key, lines] : settings)
    std::erase_if(lines, [](const auto& l) { return l.second.size() < 2; });
  std::erase_if(settings, [](const auto& e) { return e.second.empty(); });
  if (settings.empty()) {
    const std::string values = by_unroll ? "unroll factors" : "block sizes";
    out.empty_reason =
        (any_counter ? "no variant in this session has counters at two or more " + values + "; "
                     : std::string("no hardware counters in this session; ")) +
        run_hint(axis);
    return out;
  }
  const std::optional<LadderSetting> fallback = default_ladder_setting(s);
  auto best = settings.begin();
  for (auto it = settings.begin(); it != settings.end(); ++it)
    if (rank(it->first, it->second.size(), preferred, fallback, axis) >
        rank(best->first, best->second.size(), preferred, fallback, axis))
      best = it;
  const auto& [size, type, block] = best->first;
  out.size = size;
  out.type = DType(type);
  out.block = block;
  out.other_settings = int(settings.size()) - 1;
  for (const auto& [line, points] : best->second) {
    CounterSeries cs;
    cs.variant = std::get<1>(line);
    cs.workspace = Workspace(std::get<2>(line));
    cs.unroll = std::get<3>(line);
    cs.block = block;
    for (const auto& [x, pt] : points) cs.points.push_back(pt);
    out.series.push_back(std::move(cs));
  }
  return out;
}

BarriersBesideStall barriers_beside_stall(const Session& s, const LadderSetting& at) {
  BarriersBesideStall out;
  // One point per rung: the global workspace's where the rung has one (the classic ladder's
  // set-up).
  std::map<std::tuple<int, std::string, int>, const PointResult*> by_rung;
  for (const PointResult& r : s.results) {
    if (!at.holds(r)) continue;
    const PointResult*& slot =
        by_rung[{catalog_index(r.point.variant), r.point.variant, r.point.unroll}];
    if (!slot ||
        (r.point.workspace == Workspace::Global && slot->point.workspace != Workspace::Global))
      slot = &r;
  }
  bool any_stall = false;
  for (const auto& [key, r] : by_rung) {
    const std::string name =
        r->point.variant +
        (r->point.unroll > 1 ? " U=" + std::to_string(r->point.unroll) : std::string());
    const std::optional<double> stall = metric_of(*r, barrier_stall_metric());
    const std::optional<ModelCounts> counts = counts_of(*r);
    any_stall = any_stall || stall.has_value();
    if (!counts || !stall) {
      out.left_out.push_back(name + ": " +
                             (!counts && !stall ? "no block model, no counters"
                              : !counts         ? "no block model"
                                                : "no counters"));
      continue;
    }
    RungBarriers rb;
    rb.result = r;
    rb.counts = *counts;
    rb.barriers = counts->barriers();
    rb.stall = *stall;
    out.rungs.push_back(rb);
  }
  double most_barriers = 0, most_stall = 0;
  for (const RungBarriers& r : out.rungs) {
    most_barriers = std::max(most_barriers, double(r.barriers));
    most_stall = std::max(most_stall, r.stall);
  }
  if (out.rungs.empty() || most_barriers <= 0 || most_stall <= 0) {
    out.rungs.clear();
    out.empty_reason =
        any_stall
            ? "no rung at " + at.label() + " has both a block model and a barrier stall"
            : "no hardware counters at " + at.label() +
                  "; a run with --counters on a GPU gives them:\nreductionlab-cli run --preset "
                  "ladder --counters\n(in the app: \"Hardware counters (CUPTI)\" ticked)";
    return out;
  }
  for (RungBarriers& r : out.rungs) {
    r.barriers_pct = 100.0 * double(r.barriers) / most_barriers;
    r.stall_pct = 100.0 * r.stall / most_stall;
  }
  return out;
}

}  // namespace rl
