#include "animation/timeline_text.h"

#include <QStringList>

#include <cmath>

#include "engine/experiment/grammar.h"
#include "engine/report/counters_text.h"
#include "format.h"

namespace rl::gui::timeline_text {

QString duration(double ns) {
  return qstr(rl::format_time_ms(ns / 1e6));
}

QString exact_ns(double ns) {
  return QString::number(ns, 'f', 1) + " ns";
}

double nice_step(double at_least) {
  if (!(at_least > 0)) return 1;
  double decade = std::pow(10.0, std::floor(std::log10(at_least)));
  for (;; decade *= 10)
    for (double f : {1.0, 2.0, 5.0})
      if (f * decade >= at_least * (1 - 1e-9)) return f * decade;
}

QString tick(double ns, double step) {
  if (std::abs(ns) < step * 1e-6) return "0";
  // Units from the step, so every label of a ruler reads in one unit with the same decimals.
  const bool micro = step >= 1000 || std::abs(ns) >= 1e6;
  const double unit = micro ? 1000.0 : 1.0;
  const double in_unit = step / unit;
  const int decimals = in_unit >= 1 ? 0 : int(std::ceil(-std::log10(in_unit) - 1e-9));
  return QString::number(ns / unit, 'f', decimals) + (micro ? " µs" : " ns");
}

QString title(const MeasuredTimeline& t) {
  const QString name = t.label.empty() ? qstr(t.variant) : qstr(t.label);
  QStringList parts{
      name, QString("B=%1 U=%2").arg(t.block_size).arg(t.unroll),
      QString("N=%1 %2").arg(qstr(rl::format_size(t.size)), qstr(std::string(to_string(t.type))))};
  if (!t.device.empty()) parts << qstr(t.device);
  if (!t.recorded_utc.empty()) parts << qstr(t.recorded_utc);
  return parts.join(" · ");
}

QString band(const MeasuredTimeline& t, unsigned slot) {
  if (slot >= t.blocks.size()) return {};
  const BlockTimeline& b = t.blocks[slot];
  return QString("block %1 · SM %2").arg(b.block).arg(b.sm);
}

namespace {

QString phase_words(const TimelineSpan& s) {
  if (s.phase.empty()) return "before its first phase mark";
  QString text = "phase " + qstr(s.phase);
  if (s.phase == "tree" || s.phase == "last warp")
    text += QString(", stride %1").arg(s.index);
  else if (s.index != 0 && s.phase != "load" && s.phase != "write")  // theirs say nothing here
    text += QString(", index %1").arg(s.index);
  return text;
}

QString stamps(const TimelineSpan& s) {
  return QString("%1 → %2 (%3)\nclock %4 → %5 (%6 cycles)")
      .arg(exact_ns(s.start_ns), exact_ns(s.end_ns), exact_ns(s.end_ns - s.start_ns))
      .arg(s.start_clock)
      .arg(s.end_clock)
      .arg(s.end_clock - s.start_clock);
}

}  // namespace

QString span_tooltip(const MeasuredTimeline& t, const TimelineSpan& s, const BarrierTiming* b) {
  QString head = QString("%1 · %2 · warp %3")
                     .arg(t.label.empty() ? qstr(t.variant) : qstr(t.label), band(t, s.block_slot))
                     .arg(s.warp);
  if (s.kind == TimelineSpan::Kind::Work) return head + "\n" + phase_words(s) + "\n" + stamps(s);
  QString text = head +
                 QString(
                     "\nwaiting at __syncthreads() #%1: idle from its arrival to its "
                     "release, waited %2\n")
                     .arg(s.index)
                     .arg(exact_ns(s.end_ns - s.start_ns)) +
                 stamps(s);
  if (b) {
    text += b->slowest_warp == s.warp
                ? QString(
                      "\nthe slowest warp here: the last of %1 to arrive, every other warp "
                      "waited for it")
                      .arg(b->warps)
                : QString("\nthe slowest warp here: warp %1, arrived at %2")
                      .arg(b->slowest_warp)
                      .arg(exact_ns(b->last_arrival_ns));
  }
  return text;
}

std::optional<double> counter_barrier_stall(const Session& s, const MeasuredTimeline& t) {
  for (const PointResult& r : s.results) {
    const PointSpec& p = r.point;
    if (p.variant != t.variant || p.block_size != t.block_size || p.unroll != t.unroll ||
        p.workspace != t.workspace || p.type != t.type || p.size != t.size)
      continue;
    if (const std::optional<double> stall = rl::barrier_stall(r)) return stall;
  }
  return std::nullopt;
}

QString summary_line(const MeasuredTimeline& t, const TimelineSummary& s,
                     std::optional<double> counter_stall_pct) {
  const QString name = t.label.empty() ? qstr(t.variant) : qstr(t.label);
  QStringList parts;
  parts << QString("SM clock %1").arg(qstr(rl::format_si(s.cycles_per_ns * 1e9, "Hz")));
  QString block = QString("block %1 (median of %2 marked")
                      .arg(duration(s.block_median_ns))
                      .arg(t.blocks.size());
  if (s.twin_block_share_ns > 0)
    block += QString("; %1 by the twin's kernel time").arg(duration(s.twin_block_share_ns));
  parts << block + ")";
  QString wait = QString("barrier wait %1, %2 of warp time")
                     .arg(duration(s.barrier_wait_sum_ns),
                          qstr(rl::format_fixed(100 * s.barrier_wait_share, 1)) + "%");
  if (counter_stall_pct)
    wait += QString(" (counter pass, same point: barrier stall %1)")
                .arg(qstr(rl::format_pct(*counter_stall_pct)));
  parts << wait;
  parts << (s.instrumentation_cost > 0
                ? QString("instrumentation: twin %1x the real kernel (medians of %2 runs)")
                      .arg(QString::number(s.instrumentation_cost, 'f', 2))
                      .arg(t.cost_runs)
                : QString("instrumentation cost not measured"));
  if (s.truncated_warps > 0)
    parts << QString("%1 warp%2 truncated (past %3 marks)")
                 .arg(s.truncated_warps)
                 .arg(s.truncated_warps == 1 ? "" : "s")
                 .arg(kTimelineMaxMarksPerWarp);
  return QString("%1 B=%2 U=%3: %4")
      .arg(name)
      .arg(t.block_size)
      .arg(t.unroll)
      .arg(parts.join(" · "));
}

}  // namespace rl::gui::timeline_text
