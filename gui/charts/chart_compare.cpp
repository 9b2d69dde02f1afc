// Two sessions at the ladder's setting, point by point (issue 12, item 5): B's speed-up over A
// per matched point (variant, workspace, block size, unroll), coloured by the engine's verdict
// (engine/report/compare.h: faster / slower / same within the noisier measurement). The summary
// and what could not be compared are said, never dropped.
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

}  // namespace

Chart compare_chart(const QString& id, const std::vector<ShownSession>& ss, TimeBasis basis,
                    const std::optional<LadderSetting>& setting) {
  Chart c;
  c.id = id;
  c.title = "B against A: speed-up per point (ladder setting)";
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  c.y.title = "speed-up of B over A (×)";
  c.y.short_title = "B over A (×)";
  c.stacked = true;  // one bar per point, in its verdict's colour
  if (ss.size() < 2 || !ss[0].session || !ss[1].session) {
    c.empty_hint =
        "Overlay a second session (File > Overlay session...) to compare it with this one point "
        "by point: faster, slower or the same within the measured noise.";
    return c;
  }
  const std::optional<LadderSetting> chosen = drawn_ladder_setting(*ss[0].session, setting);
  if (!chosen) {
    c.empty_hint = "No measured points in the first session.";
    return c;
  }
  const SessionComparison cmp = compare_sessions(at_setting(*ss[0].session, *chosen),
                                                 at_setting(*ss[1].session, *chosen), basis);
  Series faster = verdict_series("B faster", "#2e7d32");
  Series slower = verdict_series("B slower", "#c62828");
  Series same = verdict_series("same within the noise", "#9e9e9e");
  QStringList not_comparable;
  for (const PointComparison& p : cmp.points) {
    const QString name = short_label(p.point.variant, p.point.unroll) + "\n" +
                         QString::fromStdString(std::string(to_string(p.point.workspace)));
    if (p.verdict == Verdict::NotComparable) {
      not_comparable << short_label(p.point.variant, p.point.unroll) + " (" +
                            QString::fromStdString(p.why) + ")";
      continue;
    }
    Point pt;
    pt.x = double(c.x.categories.size());
    pt.y = p.a_ms / p.b_ms;
    pt.source = p.point;
    pt.tooltip = QString("%1 %2\nA: %3 · B: %4 · B/A ×%5 · noise %6%\n%7")
                     .arg(variant_label(p.point.variant, p.point.unroll),
                          QString::fromStdString(std::string(to_string(p.point.workspace))),
                          format_time_ms(p.a_ms), format_time_ms(p.b_ms))
                     .arg(p.ratio, 0, 'f', 3)
                     .arg(100 * p.noise, 0, 'f', 1)
                     .arg(QString::fromStdString(std::string(to_string(p.verdict))));
    c.x.categories << name;
    (p.verdict == Verdict::Faster   ? faster
     : p.verdict == Verdict::Slower ? slower
                                    : same)
        .points.append(pt);
  }
  c.series = {faster, slower, same};
  // The summary names the time: "1 faster, 3 slower, 0 same (B against A, whole reduction)".
  c.subtitle =
      QString("B = %1 against A = %2 · N=%3 · %4 · %5")
          .arg(ss[1].label.isEmpty() ? QString("overlay") : ss[1].label,
               ss[0].label.isEmpty() ? QString("primary") : ss[0].label, format_size(chosen->size),
               type_name(chosen->type), QString::fromStdString(cmp.summary()));
  if (!not_comparable.isEmpty()) c.warnings << "not comparable: " + not_comparable.join(", ");
  if (c.x.categories.isEmpty())
    c.empty_hint = "No point of the first session at " + QString::fromStdString(chosen->label()) +
                   " was measured in the second.";
  return c;
}

}  // namespace rl::gui::detail
