// Two sessions at the ladder's setting, point by point: B's speed-up over A
// per matched point (variant, workspace, block size, unroll), or the difference B - A in µs,
// coloured by the engine's verdict (engine/report/compare.h: faster / slower / same within the
// noisier measurement). The title names both sessions and the setting; the summary, the points
// that could not be compared and those in one session only are said, never dropped.
#include "charts/chart_builders_internal.h"
#include "engine/report/compare.h"
#include "format.h"

namespace rl::gui::detail {

using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

namespace {

Session at_setting(const Session& s, const LadderSetting& at) {
  Session out;
  out.device = s.device;
  for (const PointResult& r : s.results)
    if (at.matches(r.point)) out.results.push_back(r);
  return out;
}

Series verdict_series(const char* name, const char* color) {
  Series s;
  s.kind = SeriesKind::Bars;
  s.name = name;
  s.color = QColor(color);
  return s;
}

// "Unroll8 global B=1024, ... and 4 more": a list a chart can hold; the CLI's `compare` and the
// Sessions list give them all.
QString listed(const std::vector<PointSpec>& points) {
  constexpr size_t kShown = 4;
  QStringList names;
  for (size_t i = 0; i < points.size() && i < kShown; ++i)
    names << short_label(points[i].variant, points[i].unroll) + " " + ws_name(points[i].workspace);
  if (points.size() > kShown) names << QString("and %1 more").arg(points.size() - kShown);
  return names.join(", ");
}

Point verdict_point(const PointComparison& p, double x, bool difference) {
  Point pt;
  pt.x = x;
  // Speed-up of B over A, or how many µs more B takes (negative: B is faster).
  pt.y = difference ? (p.b_ms - p.a_ms) * 1000 : p.a_ms / p.b_ms;
  pt.source = p.point;
  pt.label = difference ? QString("%1%2").arg(pt.y > 0 ? "+" : "").arg(pt.y, 0, 'g', 3)
                        : QString("×%1").arg(pt.y, 0, 'f', 2);
  pt.tooltip = QString("%1 %2 " + size_label(p.point) +
                       "\nA: %3 · B: %4 · B - A: %5 µs · B/A ×%6 · noise %7%\n%8")
                   .arg(variant_label(p.point.variant, p.point.unroll), ws_name(p.point.workspace),
                        format_time_ms(p.a_ms), format_time_ms(p.b_ms))
                   .arg((p.b_ms - p.a_ms) * 1000, 0, 'g', 4)
                   .arg(p.ratio, 0, 'f', 3)
                   .arg(100 * p.noise, 0, 'f', 1)
                   .arg(QString::fromStdString(std::string(to_string(p.verdict))));
  return pt;
}

void name_axes(Chart& c, const QString& a, const QString& b, bool difference) {
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  c.title = difference ? QString("%1 minus %2: time difference per point").arg(b, a)
                       : QString("%1 against %2: speed-up per point").arg(b, a);
  c.y.title =
      difference ? QString("B - A (µs; below 0: B faster)") : QString("speed-up of B over A (×)");
  c.y.short_title = difference ? "B - A (µs)" : "B over A (×)";
}

}  // namespace

Chart compare_chart(const QString& id, const std::vector<ShownSession>& ss, TimeBasis basis,
                    const std::optional<LadderSetting>& setting, bool difference) {
  Chart c;
  c.id = id;
  const bool two = ss.size() >= 2 && ss[0].session && ss[1].session;
  const QString a = two && !ss[0].label.isEmpty() ? ss[0].label : QString("A");
  const QString b = two && !ss[1].label.isEmpty() ? ss[1].label : QString("B");
  name_axes(c, "A", "B", difference);
  c.stacked = true;  // one bar per point, in its verdict's colour
  if (!two) {
    c.empty_hint =
        "Overlay a second session (File > Overlay session...) or run an experiment to compare two "
        "sessions point by point: faster, slower or the same within the measured noise.";
    return c;
  }
  const std::optional<LadderSetting> chosen =
      drawn_ladder_setting(*ladder_settings_of(ss[0]), setting);
  if (!chosen) {
    c.empty_hint = "No measured points in A (" + a + ").";
    return c;
  }
  name_axes(c, a, b, difference);
  const SessionComparison cmp = compare_sessions(at_setting(*ss[0].session, *chosen),
                                                 at_setting(*ss[1].session, *chosen), basis);
  // CPU times of the host emulation against a GPU's (only when the person chose the pair): the
  // ratios are drawn in one neutral colour, never as "faster" or "slower", and the chart says
  // that these are different kinds of time.
  const bool other_kinds = !cmp.kinds_of_time.empty();
  Series faster = verdict_series(other_kinds ? "B's time against A's" : "B faster",
                                 other_kinds ? "#757575" : "#2e7d32");
  Series slower = verdict_series("B slower", "#c62828");
  Series same = verdict_series("same within the noise", "#757575");
  std::vector<PointSpec> not_comparable;
  for (const PointComparison& p : cmp.points) {
    if (p.verdict == Verdict::NotComparable) {
      not_comparable.push_back(p.point);
      continue;
    }
    c.x.categories << short_label(p.point.variant, p.point.unroll) + " " +
                          ws_name(p.point.workspace) +
                          (p.point.is_matrix() ? " " + size_text(p.point) : QString());
    (other_kinds                    ? faster
     : p.verdict == Verdict::Faster ? faster
     : p.verdict == Verdict::Slower ? slower
                                    : same)
        .points.append(verdict_point(p, double(c.x.categories.size() - 1), difference));
  }
  c.series = {faster, slower, same};
  if (other_kinds) {
    c.series = {faster};
    c.title = difference
                  ? QString("%1 minus %2: different kinds of time").arg(b, a)
                  : QString("%1 against %2: different kinds of time, not a speed-up").arg(b, a);
    c.y.title = difference ? QString("B - A (µs; CPU and GPU times)")
                           : QString("A's time / B's time (×; CPU and GPU times)");
    c.y.short_title = difference ? "B - A (µs)" : "A / B (×)";
    c.warnings << QString::fromStdString(cmp.kinds_of_time);
  }
  // What is drawn, exactly: both sessions, the setting, the time, then the verdicts.
  c.subtitle = QString("A = %1 · B = %2 · %3 · %4")
                   .arg(a, b, QString::fromStdString(chosen->label()),
                        QString::fromStdString(cmp.summary()));
  if (!not_comparable.empty()) c.warnings << "not comparable: " + listed(not_comparable);
  if (!cmp.only_a.empty()) c.warnings << "only in A, not drawn: " + listed(cmp.only_a);
  if (!cmp.only_b.empty()) c.warnings << "only in B, not drawn: " + listed(cmp.only_b);
  if (c.x.categories.isEmpty())
    c.empty_hint = "No point of A (" + a + ") at " + QString::fromStdString(chosen->label()) +
                   " was measured in B (" + b + ").";
  return c;
}

}  // namespace rl::gui::detail
