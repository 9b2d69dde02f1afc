// Measured barrier stall against the unroll factor and the block size (the Unroll and Block-size
// pages), and the ladder's model barriers beside its measured barrier stall (the Ladder page).
// Which points form a line or a bar is the engine's rule (engine/views/counter_series.h); this
// file only draws it, and says the engine's reason when there is nothing to draw.
#include <algorithm>
#include <set>

#include "charts/chart_builders_internal.h"
#include "charts/chart_rung_bars.h"
#include "charts/palette.h"
#include "counters_text.h"
#include "engine/views/counter_series.h"
#include "format.h"

namespace rl::gui::detail {

using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;

namespace {

QString sentence(const std::string& text) {
  QString s = QString::fromStdString(text);
  if (!s.isEmpty()) s[0] = s[0].toUpper();
  return s.isEmpty() || !s.back().isLetterOrNumber() ? s : s + ".";
}

QString rung_name(const PointResult& r) {
  return QString("%1 (%2, %3)")
      .arg(variant_label(r.point.variant, r.point.unroll), variant_display_name(r.point.variant),
           ws_name(r.point.workspace));
}

// The series' names say only what differs between them.
QString sweep_series_name(const CounterSeries& cs, CounterAxis axis, bool ws_varies,
                          const QString& session) {
  QStringList name{short_label(cs.variant, cs.unroll, axis == CounterAxis::BlockSize)};
  if (ws_varies) name << ws_name(cs.workspace);
  if (!session.isEmpty()) name.prepend(session);
  return name.join(" · ");
}

}  // namespace

Chart counter_sweep_chart(const QString& id, const std::vector<ShownSession>& ss, bool by_unroll,
                          const std::optional<LadderSetting>& preferred) {
  const CounterAxis axis = by_unroll ? CounterAxis::Unroll : CounterAxis::BlockSize;
  Chart c;
  c.id = id;
  c.title = by_unroll ? "Barrier stall against unroll factor (measured)"
                      : "Barrier stall against block size (measured)";
  c.x.scale = AxisScale::Log2;
  c.x.title = by_unroll ? "unroll factor U (tiles each block adds first)" : "block size (threads)";
  c.y.scale = AxisScale::Linear;
  c.y.title = "barrier stall (% of a warp's cycles)";
  c.y.short_title = "barrier stall (%)";
  if (!has_results(ss)) {
    c.empty_hint = no_results_hint(ss);
    return c;
  }
  std::vector<CounterSweeps> sweeps;
  std::set<int> workspaces;
  for (const ShownSession& s : ss) {
    sweeps.push_back(counter_sweeps(*s.session, axis, preferred));
    for (const CounterSeries& cs : sweeps.back().series) workspaces.insert(int(cs.workspace));
  }
  const CounterSweeps& first = sweeps.front();
  if (first.series.empty()) {
    c.empty_hint = sentence(first.empty_reason);
    return c;
  }
  int color = 0;
  for (size_t si = 0; si < sweeps.size(); ++si)
    for (const CounterSeries& cs : sweeps[si].series) {
      Series line;
      line.name = sweep_series_name(cs, axis, workspaces.size() > 1,
                                    ss.size() > 1 ? ss[si].label : QString());
      line.color = charts::palette_color(color++);
      line.dashed = si > 0;
      for (const CounterSeriesPoint& p : cs.points) {
        Point pt;
        pt.x = p.x;
        pt.y = p.value;
        if (p.range) {  // drawn as a band: how far the profiled launches moved
          pt.lo = p.range->lo;
          pt.hi = p.range->hi;
        }
        pt.source = p.result->point;
        pt.tooltip = rung_name(*p.result) +
                     QString(" · B=%1 · N=%2\n")
                         .arg(block_size_text(p.result->point.block_size),
                              format_size(p.result->point.size)) +
                     counters_text(*p.result);
        line.points.append(pt);
      }
      c.series.append(line);
    }
  QStringList sub{device_part(ss), QString::fromStdString(first.label()),
                  "the first kernel (or the one launch) · CUPTI, ncu's metric"};
  if (first.other_settings > 0)
    sub << QString("%1 other setting(s) with a sweep: pick one with the Ladder's Setting")
               .arg(first.other_settings);
  c.subtitle = sub.join(" · ");
  return c;
}

// Two bar sets per rung on one axis, each as % of its largest rung: the block model's barriers
// (exact, the same on any GPU) and the barrier stall measured on the session's GPU. The labels
// carry the values themselves; the tooltips everything.
Chart ladder_barriers_stall_chart(const QString& id, const std::vector<ShownSession>& ss,
                                  const std::optional<LadderSetting>& setting) {
  Chart c =
      rung_chart(id, ss, "Ladder: fewer barriers (block model), less barrier stall (measured)",
                 "% of the largest rung (each bar set)", "% of largest");
  if (!c.empty_hint.isEmpty()) return c;
  const std::optional<LadderSetting> at = rung_setting(c, ss, setting);
  if (!at) return c;
  const BarriersBesideStall b = barriers_beside_stall(*ss.front().session, *at);
  if (b.rungs.empty()) {
    c.empty_hint = sentence(b.empty_reason);
    return c;
  }
  const QString device = device_part({ss.front()});
  Series barriers = bar_set("barriers per launch: block model (exact, any GPU)", 0);
  Series stall = bar_set("barrier stall: measured on " + device + " (CUPTI)", 1);
  for (int k = 0; k < int(b.rungs.size()); ++k) {
    const RungBarriers& r = b.rungs[size_t(k)];
    add_rung_category(c, r.result->point.variant, r.result->point.unroll);
    const QString what = rung_name(*r.result) + "\n";
    const std::uint64_t per_block = r.counts.grid ? r.barriers / r.counts.grid : 0;
    Point bp;
    bp.x = k;
    bp.y = r.barriers_pct;
    bp.label = short_count(r.barriers);
    bp.source = r.result->point;
    bp.tooltip =
        what + QString(
                   "block model: %1 __syncthreads() in the first kernel = %2 blocks "
                   "× %3 (exact, the same on any GPU)\n%4% of the most")
                   .arg(count_text(r.barriers), count_text(r.counts.grid), count_text(per_block))
                   .arg(r.barriers_pct, 0, 'f', 1);
    Point sp = bp;
    sp.y = r.stall_pct;
    sp.label = QString("%1%").arg(r.stall, 0, 'f', 1);
    sp.tooltip = what + QString(
                            "barrier stall %1% of a warp's cycles, measured on %2 (CUPTI)\n"
                            "%3% of the most")
                            .arg(r.stall, 0, 'f', 1)
                            .arg(device)
                            .arg(r.stall_pct, 0, 'f', 1);
    barriers.points.append(bp);
    stall.points.append(sp);
  }
  c.series << barriers << stall;
  QStringList sub{device, "N=" + format_size(at->size),
                  at->block ? QString("B=%1").arg(at->block) : QString("own block sizes"),
                  type_name(at->type),
                  "global workspace where the rung has one · labels: the values"};
  if (!b.left_out.empty()) sub << "not drawn: " + qstrs(b.left_out).join(", ");
  c.subtitle = sub.join(" · ");
  return c;
}

}  // namespace rl::gui::detail
