// The ladder in measured hardware counters: one bar per rung (variant and unroll factor, in
// catalog order, at the ladder charts' setting) whose height is the first kernel's barrier stall
// (CUPTI: smsp__warp_issue_stalled_barrier_per_warp_active.pct, the classic ladder's metric), one
// bar set per shown session and workspace. Beside ladder_counts (the model's barriers), it is the
// classic ladder's argument in one picture: fewer barriers, less barrier stall, less time.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "charts/chart_builders_internal.h"
#include "charts/chart_rung_bars.h"
#include "counters_text.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Chart;
using charts::Point;
using charts::Series;

namespace {

// Analysis: the rungs with a barrier stall in any shown session, at each session's ladder
// setting, and the bar sets (session, workspace) that have one.
struct StallRungs {
  std::vector<std::pair<std::string, int>> rungs;  // (variant, unroll), in catalog order
  std::set<std::pair<int, int>> sets;              // (session, workspace)
  std::map<std::tuple<int, std::string, int, int>, const PointResult*> found;
};

StallRungs stall_rungs(const std::vector<ShownSession>& ss,
                       const std::optional<LadderSetting>& setting) {
  std::set<std::tuple<int, std::string, int>> rungs;
  StallRungs sr;
  for (int si = 0; si < int(ss.size()); ++si) {
    if (!ss[si].session) continue;
    const std::optional<LadderSetting> chosen =
        drawn_ladder_setting(*ladder_settings_of(ss[si]), setting);
    if (!chosen) continue;
    for (const PointResult& r : ss[si].session->results) {
      if (!chosen->holds(r) || !barrier_stall(r)) continue;
      rungs.insert({catalog_index(r.point.variant), r.point.variant, r.point.unroll});
      sr.sets.insert({si, int(r.point.workspace)});
      sr.found[{si, r.point.variant, r.point.unroll, int(r.point.workspace)}] = &r;
    }
  }
  for (const auto& [idx, v, u] : rungs) sr.rungs.push_back({v, u});
  return sr;
}

Series stall_series(const StallRungs& sr, int si, int ws, const std::vector<ShownSession>& ss,
                    int color) {
  Series s = bar_set(bars_name(Workspace(ws)), color);
  if (ss.size() > 1 && !ss[si].label.isEmpty()) s.name = ss[si].label + ": " + s.name;
  for (size_t k = 0; k < sr.rungs.size(); ++k) {
    const auto it = sr.found.find({si, sr.rungs[k].first, sr.rungs[k].second, ws});
    if (it == sr.found.end()) continue;
    const PointResult& r = *it->second;
    const double stall = *barrier_stall(r);
    Point pt;
    pt.x = double(k);
    pt.y = stall;
    // "~": the profiled launches differ by more than 2 points (the subtitle says so).
    pt.label = QString("%1%%2").arg(stall, 0, 'f', 1).arg(barrier_stall_steady(r) ? "" : "~");
    pt.source = r.point;
    pt.tooltip = QString("%1 (%2)\n")
                     .arg(variant_label(r.point.variant, r.point.unroll),
                          variant_display_name(r.point.variant)) +
                 counters_text(r);
    s.points.append(pt);
  }
  return s;
}

}  // namespace

Chart ladder_barrier_stall_chart(const QString& id, const std::vector<ShownSession>& ss,
                                 const std::optional<LadderSetting>& setting) {
  Chart c = rung_chart(id, ss, "Ladder: barrier stall per rung (measured)", "barrier stall (%)");
  if (!c.empty_hint.isEmpty()) return c;
  const StallRungs sr = stall_rungs(ss, setting);
  c.subtitle = device_part(ss) + " · the first kernel (or the one launch) · CUPTI, ncu's metric";
  if (sr.rungs.empty()) {
    c.empty_hint = kNoCounters;
    return c;
  }
  for (const auto& [v, u] : sr.rungs) add_rung_category(c, v, u);
  for (const auto& [si, ws] : sr.sets)
    c.series.append(stall_series(sr, si, ws, ss, int(c.series.size())));
  const bool any_unsteady = std::any_of(sr.found.begin(), sr.found.end(), [](const auto& f) {
    return !barrier_stall_steady(*f.second);
  });
  if (any_unsteady) c.subtitle += " · ~ unsteady: its profiled launches differ by over 2 points";
  return c;
}

}  // namespace rl::gui::detail
