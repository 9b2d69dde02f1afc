// The ladder: one bar per step (variant and unroll factor, in catalog order) at the setting
// with the most steps, cumulative speed-up with the step speed-up over it, or the time. The
// analysis (which points per bar, the baseline) is chart_ladder_rungs.cpp.
#include "charts/chart_builders_internal.h"
#include "charts/chart_ladder_rungs.h"
#include "charts/chart_rung_bars.h"
#include "engine/catalog/catalog.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Axis;
using charts::Chart;
using charts::Point;
using charts::Series;

namespace {

// On the host backend the times are CPU times of an emulation: their ratios are no GPU
// speed-ups (they even invert the classic ladder's lesson), so the chart says what they are.
QString ladder_title(bool speedup, Cpu cpu) {
  return speedup ? (cpu == Cpu::All ? "The ladder on the host: CPU-time ratios, not GPU "
                                      "speed-ups"
                                    : "The ladder: what each step buys")
                 : (cpu == Cpu::All ? "The ladder on the host: CPU time of each kernel's "
                                      "emulation"
                                    : "The ladder: time of each kernel");
}

// A lab's variants are not rungs of one ladder: each is compared with the baseline, with no
// "step" from its neighbour.
bool labs_only(const std::vector<ShownSession>& ss) {
  for (const ShownSession& s : ss)
    for (const PointResult& r : s.session->results)
      if (const VariantInfo* v = find_variant_by_id(r.point.variant); !v || !is_lab(v->family))
        return false;
  return true;
}

void y_axis(Chart& c, bool speedup, Cpu cpu, TimeBasis basis, bool micro) {
  c.y.title = speedup ? (cpu == Cpu::All    ? QString("CPU ratio (×)")
                         : cpu == Cpu::Some ? QString("cumulative speed-up (×); CPU: time ratio")
                                            : QString("cumulative speed-up (×)"))
                      : (cpu == Cpu::All ? "CPU " : "") +
                            qtext::time_axis_title(basis, micro ? "µs" : "ms");
  // The subtitle names the time and the baseline; a short plot says only the quantity.
  c.y.short_title = speedup ? (cpu == Cpu::All ? QString("ratio (×)") : QString("speed-up (×)"))
                            : QString("time (%1)").arg(micro ? "µs" : "ms");
}

// The inputs of the bars' drawing, and what they count.
struct LadderStyle {
  bool speedup;
  const std::string& baseline;
  TimeBasis basis;
  bool micro;
  bool step_labels;  // few enough bar sets to say each step's speed-up on the bar
  int wrong = 0, noisy = 0;
};

Series ladder_series(const Ladder& l, const LadderBars& b, const std::vector<ShownSession>& ss,
                     int color, LadderStyle& st) {
  auto ms = [&](const PointResult& r) { return basis_time(r, st.basis)->median_ms; };
  const Session& session = *ss[b.session].session;
  Series s = bar_set(bars_name(Workspace(b.workspace)), color);
  if (ss.size() > 1) s.name = ss[b.session].label + " · " + s.name;
  const PointResult* prev = nullptr;
  for (size_t k = 0; k < l.rungs.size(); ++k) {
    const PointResult* r = b.at[k];
    if (!r) continue;
    Point pt;
    pt.x = double(k);
    pt.tooltip = qtext::point_details(*r, session, st.baseline);
    pt.source = r->point;
    if (st.basis != TimeBasis::Whole) pt.tooltip += "\n" + qtext::charted_details(*r, st.basis);
    if (r->status == PointStatus::Wrong) {
      ++st.wrong;
      pt.wrong = true;
      pt.label = "wrong";
      s.points.append(pt);
      continue;
    }
    pt.noisy = r->noisy;
    st.noisy += r->noisy ? 1 : 0;
    const double cum = b.ref ? ms(*b.ref) / ms(*r) : 1;
    const double step = prev ? ms(*prev) / ms(*r) : 1;
    pt.tooltip += QString(is_cpu(session.device)
                              ? "\nCPU-time ratio (host emulation, not a GPU speed-up): step "
                                "×%1 · cumulative: ×%2"
                              : "\nstep speed-up: ×%1 · cumulative: ×%2")
                      .arg(step, 0, 'f', 2)
                      .arg(cum, 0, 'f', 2);
    if (st.speedup) {
      pt.y = cum;
      pt.label = QString("×%1").arg(cum, 0, 'f', cum < 10 ? 2 : 1);
      if (prev && st.step_labels) pt.label += QString("\nstep ×%1").arg(step, 0, 'f', 2);
    } else {
      pt.y = ms(*r) * (st.micro ? 1000 : 1);
      pt.label = format_time_ms(ms(*r));
    }
    s.points.append(pt);
    prev = r;
  }
  return s;
}

QString ladder_subtitle(const std::vector<ShownSession>& ss, const LadderSetting& chosen,
                        bool speedup, TimeBasis basis, Cpu cpu, const QStringList& references) {
  QStringList sub{device_part(ss), "N=" + format_size(chosen.size),
                  chosen.block ? QString("B=%1").arg(chosen.block)
                               : QString("block size picked by the variant"),
                  type_name(DType(chosen.type)), qtext::time_basis_name(basis) + ", median"};
  if (speedup) sub << "against " + references.join(" / ");
  if (cpu != Cpu::None) sub << "what a GPU would execute: the counts chart";
  // The session holds other sizes, types or block sizes (the Setting selector, --setting).
  if (const QString note = other_settings_note(ss.front()); !note.isEmpty()) sub << note;
  return sub.join(" · ");
}

void ladder_warnings(Chart& c, const Ladder& l, const LadderStyle& st,
                     const QStringList& references, const BasisNotes& notes) {
  if (st.speedup && !references.isEmpty() && references.front() != variant_label(st.baseline, 1))
    c.warnings << (l.baseline_lacks
                       ? QString("the baseline %1 has no %2: speed-ups are against the "
                                 "ladder's first step")
                             .arg(variant_label(st.baseline, 1, false),
                                  qtext::time_basis_name(st.basis))
                       : QString("the baseline %1 is not on this ladder: speed-ups are "
                                 "against its first step")
                             .arg(variant_label(st.baseline, 1, false)));
  c.warnings << qstrs(notes.warnings());
  if (st.wrong > 0)
    c.warnings << QString("%1 wrong result(s) (red): not drawn, never a speed-up").arg(st.wrong);
  if (st.noisy > 0) c.warnings << noisy_warning(st.noisy, NoisyMark::HatchedBars);
}

}  // namespace

Chart ladder_chart(const QString& id, const std::vector<ShownSession>& ss, bool speedup,
                   const std::string& baseline, TimeBasis basis,
                   const std::optional<LadderSetting>& setting) {
  const Cpu cpu = cpu_times(ss);
  Chart c = rung_chart(id, ss, ladder_title(speedup, cpu));
  if (!c.empty_hint.isEmpty()) return c;
  const std::optional<LadderSetting> chosen = rung_setting(c, ss, setting);
  if (!chosen) return c;
  BasisNotes notes(basis);
  const Ladder l = ladder_points(ss, *chosen, baseline, basis, notes);
  if (l.rungs.empty()) {
    c.warnings = qstrs(notes.warnings());
    c.empty_hint = c.warnings.join("\n") + "\nChoose another Time (top of the window, or --time).";
    return c;
  }
  for (const auto& [v, u] : l.rungs) add_rung_category(c, v, u);
  const bool micro = l.max_ms < 1;
  y_axis(c, speedup, cpu, basis, micro);
  const bool lab = labs_only(ss);
  LadderStyle st{speedup, baseline, basis, micro, l.bars.size() <= 2 && !lab};
  if (lab && cpu == Cpu::None) {
    c.title = speedup ? "The lab: speed-up of each variant" : "The lab: time of each variant";
    if (speedup) c.y.title = "speed-up (×)";
  }
  QStringList references;
  for (const LadderBars& b : l.bars) {
    if (b.ref) references << variant_label(b.ref->point.variant, b.ref->point.unroll);
    c.series.append(ladder_series(l, b, ss, int(c.series.size()), st));
  }
  references.removeDuplicates();
  c.subtitle = ladder_subtitle(ss, *chosen, speedup, basis, cpu, references);
  ladder_warnings(c, l, st, references, notes);
  return c;
}

}  // namespace rl::gui::detail
