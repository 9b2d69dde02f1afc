// The ladder in the block model's counts: one bar per rung (variant and unroll factor, in
// catalog order, at the ladder charts' setting) whose height is the __syncthreads() barriers
// every block of the first kernel executes, labelled with the count and the lane efficiency.
// Counts are the model's (engine/model_counts.h): exact and the same on every device, so the
// chart is the lesson where the times are CPU times (the host backend), and stands beside the
// times for a GPU session ("fewer barriers" next to "less time").
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "charts/chart_builders_internal.h"
#include "charts/chart_rung_bars.h"
#include "engine/catalog/catalog.h"
#include "engine/trace/model_counts.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Chart;
using charts::Point;
using charts::Series;

bool is_cpu(const DeviceInfo& d) {
  return d.backend != "cuda";
}

Cpu cpu_times(const std::vector<ShownSession>& ss) {
  int cpu = 0, all = 0;
  for (const ShownSession& s : ss)
    if (s.session) ++all, cpu += is_cpu(s.session->device) ? 1 : 0;
  return cpu == 0 ? Cpu::None : cpu == all ? Cpu::All : Cpu::Some;
}

namespace {

QString pct_text(double fraction) {
  return QString("%1%").arg(100.0 * fraction, 0, 'f', fraction < 0.1 ? 1 : 0);
}

// Everything the model counts for a point, for the bar's tooltip.
QString counts_tooltip(const PointResult& r, const ModelCounts& m) {
  const StepCounters& c = m.first_kernel;
  const std::uint64_t per_block = m.grid ? c.barriers / m.grid : 0;
  QStringList lines;
  lines << QString("%1 (%2)").arg(variant_label(r.point.variant, r.point.unroll),
                                  variant_display_name(r.point.variant));
  lines << QString("%1 · B=%2 · U=%3 · %4 · %5")
               .arg(ws_name(r.point.workspace), block_size_text(r.point.block_size))
               .arg(r.point.unroll)
               .arg(size_label(r.point), type_name(r.point.type));
  lines << "block model, every block of the first kernel (the same on every device):";
  lines << QString("  barriers (__syncthreads()): %1 = %2 blocks × %3")
               .arg(count_text(c.barriers), count_text(m.grid), count_text(per_block));
  lines << QString("  warp-steps issued: %1 (a warp issues a step when one of its lanes acts)")
               .arg(count_text(c.warp_steps()));
  lines << QString("  lane efficiency: %1 (active lanes %2 / (warp-steps × 32))")
               .arg(pct_text(c.lane_efficiency()), count_text(c.active_lanes));
  lines << QString("  divergent lanes %1 · idle warps %2 · exited warps %3")
               .arg(count_text(c.divergent_lanes), count_text(c.idle_warps),
                    count_text(c.exited_warps));
  if (c.warp_syncs || c.shuffles)
    lines << QString("  __syncwarp() %1 · shuffled lanes %2")
                 .arg(count_text(c.warp_syncs), count_text(c.shuffles));
  lines << QString("  loads %1 · stores %2 (elements)")
               .arg(count_text(c.loads), count_text(c.stores));
  lines << (m.launches == 2
                ? QString("launches: 2 (the finishing pass adds one block: %1 barriers)")
                      .arg(count_text(m.finish.barriers))
                : QString("launches: 1 (the last block to finish writes the total)"));
  return lines.join('\n');
}

// Analysis: the rungs with counts, in catalog order; bar sets: workspaces. The model's counts
// do not depend on the device, so overlaid sessions would only repeat them: the primary session
// is drawn.
struct CountedRungs {
  std::vector<std::pair<std::string, int>> rungs;  // (variant, unroll)
  std::set<int> sets;
  QStringList uncounted;  // the rungs without a block model
  std::map<const PointResult*, ModelCounts> counts;
};

CountedRungs counted_rungs(const Session& session, const LadderSetting& chosen) {
  std::set<std::tuple<int, std::string, int>> rungs;
  CountedRungs cr;
  for (const PointResult& r : session.results) {
    if (!chosen.holds(r)) continue;
    if (const std::optional<ModelCounts> m = counts_of(r)) {
      cr.counts.emplace(&r, *m);
      rungs.insert({catalog_index(r.point.variant), r.point.variant, r.point.unroll});
      cr.sets.insert(int(r.point.workspace));
    } else {
      const QString name = variant_label(r.point.variant, r.point.unroll);
      if (!cr.uncounted.contains(name)) cr.uncounted << name;
    }
  }
  for (const auto& [idx, v, u] : rungs) cr.rungs.push_back({v, u});
  return cr;
}

QString counts_subtitle(const std::vector<ShownSession>& ss, const LadderSetting& chosen) {
  QStringList sub{cpu_times(ss) == Cpu::All ? QString("host session: what a GPU would execute")
                                            : device_part(ss),
                  "N=" + format_size(chosen.size),
                  chosen.block ? QString("B=%1").arg(chosen.block)
                               : QString("block size picked by the variant"),
                  type_name(chosen.type)};
  sub << "block model: the first kernel, every block (exact, any device)";
  if (const QString note = other_settings_note(ss.front()); !note.isEmpty()) sub << note;
  return sub.join(" · ");
}

// One bar set: the exact count over the lane efficiency; several side by side (a GPU
// session's workspaces, `compact`): the count, short ("2.62M"), as a longer turned label would
// not fit a small chart; the lane efficiency is then in the tooltips, which have everything.
Series counts_series(const CountedRungs& cr, int ws, double unit, bool compact, int color) {
  // The same names as the ladder's time and speed-up charts.
  Series s = bar_set(bars_name(Workspace(ws)), color);
  for (size_t k = 0; k < cr.rungs.size(); ++k)
    for (const auto& [r, m] : cr.counts) {
      if (int(r->point.workspace) != ws || r->point.variant != cr.rungs[k].first ||
          r->point.unroll != cr.rungs[k].second)
        continue;
      Point pt;
      pt.x = double(k);
      pt.y = double(m.barriers()) / unit;
      pt.label = compact
                     ? short_count(m.barriers())
                     : count_text(m.barriers()) + "\n" + pct_text(m.lane_efficiency()) + " lanes";
      pt.tooltip = counts_tooltip(*r, m);
      pt.source = r->point;
      s.points.append(pt);
    }
  return s;
}

}  // namespace

Chart ladder_counts_chart(const QString& id, const std::vector<ShownSession>& ss,
                          const std::optional<LadderSetting>& setting) {
  Chart c = rung_chart(id, ss, "Ladder: barriers and lane efficiency per rung");
  if (!c.empty_hint.isEmpty()) return c;
  const std::optional<LadderSetting> chosen = rung_setting(c, ss, setting);
  if (!chosen) return c;
  const CountedRungs cr = counted_rungs(*ss.front().session, *chosen);
  c.subtitle = counts_subtitle(ss, *chosen);
  if (cr.rungs.empty()) {
    c.empty_hint =
        "No rung of this ladder has a block model (" + cr.uncounted.join(", ") + "): no counts.";
    return c;
  }
  for (const auto& [v, u] : cr.rungs) add_rung_category(c, v, u);
  std::uint64_t max_barriers = 0;
  for (const auto& [r, m] : cr.counts) max_barriers = std::max(max_barriers, m.barriers());
  // Short axis titles: a small chart elides longer ones.
  const double unit = max_barriers >= 1'000'000 ? 1e6 : max_barriers >= 10'000 ? 1e3 : 1;
  c.y.title = unit == 1e6 ? "barriers (M)" : unit == 1e3 ? "barriers (k)" : "barriers";
  const bool compact = cr.sets.size() > 1;
  for (int ws : cr.sets)
    c.series.append(counts_series(cr, ws, unit, compact, int(c.series.size())));
  if (compact) c.pointer_notes << "lane efficiency: hover a bar";
  if (!cr.uncounted.isEmpty())
    c.subtitle += QString(" · not drawn (no block model): %1").arg(cr.uncounted.join(", "));
  return c;
}

}  // namespace rl::gui::detail

namespace rl::gui {

std::vector<ChartKind> chart_kinds_for(const std::vector<ShownSession>& sessions, bool compare) {
  std::vector<ChartKind> kinds = chart_kinds();
  // The comparison needs a second session: without one it takes no room on the page.
  if (sessions.size() < 2 && !compare)
    kinds.erase(std::remove_if(kinds.begin(), kinds.end(),
                               [](const ChartKind& k) { return is_compare_chart(k.id); }),
                kinds.end());
  if (detail::cpu_times(sessions) != detail::Cpu::All) return kinds;
  auto counts = std::find_if(kinds.begin(), kinds.end(),
                             [](const ChartKind& k) { return k.id == "ladder_counts"; });
  auto first = std::find_if(kinds.begin(), kinds.end(),
                            [&](const ChartKind& k) { return k.group == counts->group; });
  std::rotate(first, counts, counts + 1);
  return kinds;
}

}  // namespace rl::gui
