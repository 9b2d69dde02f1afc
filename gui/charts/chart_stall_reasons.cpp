// Where the warps' cycles go, rung by rung: the first kernel's stall reasons (CUPTI, the
// smsp__warp_issue_stalled_*_per_warp_active.pct metrics) stacked per rung of the ladder, at the
// ladder charts' setting of the primary session. The barrier layer shrinking as the classic ladder
// unrolls, and what takes its place (waiting on memory), in one picture.
#include <map>

#include "charts/chart_builders_internal.h"
#include "charts/chart_rung_bars.h"
#include "counters_text.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Chart;
using charts::Point;
using charts::Series;

namespace {

// The layers, bottom up: the classic ladder's metric first.
struct Reason {
  const char* metric;
  const char* name;
};
constexpr Reason kReasons[] = {
    {"smsp__warp_issue_stalled_barrier_per_warp_active.pct", "barrier (__syncthreads)"},
    {"smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", "long scoreboard (memory)"},
    {"smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
     "short scoreboard (shared memory, shuffles)"},
    {"smsp__warp_issue_stalled_membar_per_warp_active.pct", "memory barrier (fence)"},
    {"smsp__warp_issue_stalled_wait_per_warp_active.pct", "fixed-latency wait"},
    {"smsp__warp_issue_stalled_not_selected_per_warp_active.pct", "not selected (eligible)"},
};

// One point per rung: the global workspace's where the rung has one (the classic ladder's set-up),
// else the first workspace measured (registers, past the classic ladder).
std::vector<const PointResult*> rung_points(const Session& s, const LadderSetting& at) {
  std::map<std::pair<int, int>, const PointResult*> by_rung;  // (catalog index, unroll)
  for (const PointResult& r : s.results) {
    if (!at.holds(r) || !r.counters || !r.counters->headline()) continue;
    const PointResult*& slot = by_rung[{catalog_index(r.point.variant), r.point.unroll}];
    if (!slot ||
        (r.point.workspace == Workspace::Global && slot->point.workspace != Workspace::Global))
      slot = &r;
  }
  std::vector<const PointResult*> out;
  for (const auto& [key, r] : by_rung) out.push_back(r);
  return out;
}

}  // namespace

Chart ladder_stall_reasons_chart(const QString& id, const std::vector<ShownSession>& ss,
                                 const std::optional<LadderSetting>& setting) {
  Chart c = rung_chart(id, ss, "Ladder: where the warps wait (measured stall reasons)",
                       "share of a warp's cycles (%)", "cycles (%)");
  c.stacked = true;
  if (!c.empty_hint.isEmpty()) return c;
  // Not rung_setting: a session without a measured point gets kNoCounters here, as one without
  // counters does.
  const Session& session = *ss.front().session;
  const std::optional<LadderSetting> chosen =
      drawn_ladder_setting(*ladder_settings_of(ss.front()), setting);
  const std::vector<const PointResult*> points =
      chosen ? rung_points(session, *chosen) : std::vector<const PointResult*>{};
  if (points.empty()) {
    c.empty_hint = kNoCounters;
    return c;
  }
  c.subtitle = device_part({ss.front()}) + " · N=" + format_size(chosen->size) + " · " +
               type_name(chosen->type) +
               " · the first kernel (or the one launch) · global workspace where the rung has "
               "one · CUPTI, ncu's metrics";
  for (const PointResult* r : points) add_rung_category(c, r->point.variant, r->point.unroll);
  for (int k = 0; k < int(std::size(kReasons)); ++k) {
    Series s = bar_set(kReasons[k].name, k);
    for (int i = 0; i < int(points.size()); ++i) {
      const std::optional<double> v =
          points[size_t(i)]->counters->headline()->value(kReasons[k].metric);
      if (!v) continue;
      Point pt;
      pt.x = double(i);
      pt.y = *v;
      pt.source = points[size_t(i)]->point;
      pt.tooltip =
          QString("%1 (%2, %3)\n%4: %5%")
              .arg(variant_label(points[size_t(i)]->point.variant, points[size_t(i)]->point.unroll),
                   variant_display_name(points[size_t(i)]->point.variant),
                   QString::fromStdString(
                       std::string(to_string(points[size_t(i)]->point.workspace))),
                   s.name)
              .arg(*v, 0, 'f', 1);
      s.points.append(pt);
    }
    c.series.append(s);
  }
  return c;
}

}  // namespace rl::gui::detail
