// The ladder: one bar per step (variant and unroll factor, in catalog order) at the setting
// with the most steps, cumulative speed-up with the step speed-up over it, or the time.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "charts/chart_builders_internal.h"
#include "charts/palette.h"
#include "engine/catalog/catalog.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Axis;
using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

std::optional<LadderSetting> ladder_setting(const Session& s) {
  // The (size, type, block size) with the most rungs; ties: larger N.
  using Setting = std::tuple<std::uint64_t, int, int>;
  std::map<Setting, std::set<std::pair<int, int>>> rungs_at;
  for (const PointResult& r : s.results) {
    if (r.status != PointStatus::Ok && r.status != PointStatus::Wrong) continue;
    rungs_at[{r.point.size, int(r.point.type), r.point.block_size}].insert(
        {catalog_index(r.point.variant), r.point.unroll});
  }
  if (rungs_at.empty()) return std::nullopt;
  Setting best{};
  size_t best_count = 0;
  for (const auto& [setting, rungs] : rungs_at) {
    // Variants that pick their own block size (recorded as 0) join every block size.
    size_t count = rungs.size();
    if (std::get<2>(setting) != 0) {
      auto it = rungs_at.find({std::get<0>(setting), std::get<1>(setting), 0});
      if (it != rungs_at.end()) count += it->second.size();
    }
    if (count > best_count || (count == best_count && setting > best))
      best = setting, best_count = count;
  }
  return LadderSetting{std::get<0>(best), std::get<1>(best), std::get<2>(best),
                       int(rungs_at.size())};
}

bool LadderSetting::holds(const PointResult& r) const {
  return r.point.size == size && int(r.point.type) == type &&
         (r.point.block_size == block || r.point.block_size == 0) &&
         (r.status == PointStatus::Ok || r.status == PointStatus::Wrong);
}

Chart ladder_chart(const QString& id, const std::vector<ShownSession>& ss, bool speedup,
                   const std::string& baseline, TimeBasis basis) {
  Chart c;
  c.id = id;
  // On the host backend the times are CPU times of an emulation: their ratios are no GPU
  // speed-ups (they even invert the seed's lesson), so the chart says what they are.
  const Cpu cpu = cpu_times(ss);
  c.title = speedup ? (cpu == Cpu::All ? "The ladder on the host: CPU-time ratios, not GPU "
                                         "speed-ups"
                                       : "The ladder: what each step buys")
                    : (cpu == Cpu::All ? "The ladder on the host: CPU time of each kernel's "
                                         "emulation"
                                       : "The ladder: time of each kernel");
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  if (!has_results(ss)) {
    c.empty_hint = kNoData;
    return c;
  }
  const std::optional<LadderSetting> chosen = ladder_setting(*ss.front().session);
  if (!chosen) {
    c.empty_hint = "No measured points in this session (all failed or were skipped).";
    return c;
  }
  const std::uint64_t size = chosen->size;
  const int type = chosen->type, block = chosen->block;
  auto at_setting = [&](const PointResult& r) { return chosen->holds(r); };
  // The chosen time of a point; the ladder leaves out points without it.
  auto ms = [&](const PointResult& r) { return basis_time(r, basis)->median_ms; };
  auto in_setting = [&](const PointResult& r) { return at_setting(r) && basis_time(r, basis); };
  // Rungs: every (variant, unroll) in catalog order; bar sets: (session, workspace).
  std::set<std::tuple<int, std::string, int>> rungs;
  std::set<std::pair<int, int>> sets;
  BasisNotes notes(basis);
  bool baseline_lacks = false;  // the baseline is on the ladder, but not in the chosen time
  for (int si = 0; si < int(ss.size()); ++si)
    for (const PointResult& r : ss[si].session->results)
      if (at_setting(r) && notes.time_of(r)) {
        rungs.insert({catalog_index(r.point.variant), r.point.variant, r.point.unroll});
        sets.insert({si, int(r.point.workspace)});
      } else if (at_setting(r) && r.point.variant == baseline) {
        baseline_lacks = true;
      }
  if (rungs.empty()) {
    c.warnings = qstrs(notes.warnings());
    c.empty_hint = c.warnings.join("\n") + "\nChoose another Time (top of the window, or --time).";
    return c;
  }
  std::vector<std::pair<std::string, int>> order;
  for (const auto& [idx, v, u] : rungs) {
    order.push_back({v, u});
    QString label = short_label(v, u);
    if (c.x.categories.contains(label))
      label += QString(" U=%1").arg(u);  // the axis merges equal names
    c.x.categories << label;
  }
  double max_ms = 0;
  for (const auto& s : ss)
    for (const PointResult& r : s.session->results)
      if (in_setting(r)) max_ms = std::max(max_ms, ms(r));
  const bool micro = max_ms < 1;
  c.y.title = speedup ? (cpu == Cpu::All    ? QString("CPU ratio (×)")
                         : cpu == Cpu::Some ? QString("cumulative speed-up (×); CPU: time ratio")
                                            : QString("cumulative speed-up (×)"))
                      : (cpu == Cpu::All ? "CPU " : "") +
                            qtext::time_axis_title(basis, micro ? "µs" : "ms");
  // The subtitle names the time and the baseline; a short plot says only the quantity.
  c.y.short_title = speedup ? (cpu == Cpu::All ? QString("ratio (×)") : QString("speed-up (×)"))
                            : QString("time (%1)").arg(micro ? "µs" : "ms");
  int wrong = 0, noisy = 0;
  QStringList references;
  for (const auto& [si, ws] : sets) {
    std::vector<const PointResult*> at(order.size(), nullptr);
    for (const PointResult& r : ss[si].session->results) {
      if (!in_setting(r) || int(r.point.workspace) != ws) continue;
      for (size_t k = 0; k < order.size(); ++k)
        if (order[k].first == r.point.variant && order[k].second == r.point.unroll) at[k] = &r;
    }
    // Speed-ups are against the baseline variant's point in this set; for a workspace the
    // baseline does not run in (kernels past the seed keep their work in registers), against
    // the baseline in the seed's global workspace, so the last bar compares with the first;
    // else against the first rung.
    const PointResult* ref = nullptr;
    for (const PointResult* r : at)
      if (r && r->status == PointStatus::Ok && r->point.variant == baseline && !ref) ref = r;
    if (!ref)
      for (const PointResult& r : ss[si].session->results)
        if (!ref && in_setting(r) && r.status == PointStatus::Ok && r.point.variant == baseline &&
            r.point.workspace == Workspace::Global)
          ref = &r;
    if (!ref)
      for (const PointResult* r : at)
        if (r && r->status == PointStatus::Ok && !ref) ref = r;
    Series s;
    s.kind = SeriesKind::Bars;
    s.name = bars_name(Workspace(ws));
    if (ss.size() > 1) s.name = ss[si].label + " · " + s.name;
    s.color = charts::palette_color(int(c.series.size()));
    if (ref) references << variant_label(ref->point.variant, ref->point.unroll);
    const PointResult* prev = nullptr;
    for (size_t k = 0; k < order.size(); ++k) {
      const PointResult* r = at[k];
      if (!r) continue;
      Point pt;
      pt.x = double(k);
      pt.tooltip = qtext::point_details(*r, ss[si].session->device, baseline);
      if (basis != TimeBasis::Whole) pt.tooltip += "\n" + qtext::charted_details(*r, basis);
      if (r->status == PointStatus::Wrong) {
        ++wrong;
        pt.wrong = true;
        pt.label = "wrong";
        s.points.append(pt);
        continue;
      }
      pt.noisy = r->noisy;
      noisy += r->noisy ? 1 : 0;
      const double cum = ref ? ms(*ref) / ms(*r) : 1;
      const double step = prev ? ms(*prev) / ms(*r) : 1;
      pt.tooltip += QString(is_cpu(ss[si].session->device)
                                ? "\nCPU-time ratio (host emulation, not a GPU speed-up): step "
                                  "×%1 · cumulative: ×%2"
                                : "\nstep speed-up: ×%1 · cumulative: ×%2")
                        .arg(step, 0, 'f', 2)
                        .arg(cum, 0, 'f', 2);
      if (speedup) {
        pt.y = cum;
        pt.label = QString("×%1").arg(cum, 0, 'f', cum < 10 ? 2 : 1);
        if (prev && sets.size() <= 2) pt.label += QString("\nstep ×%1").arg(step, 0, 'f', 2);
      } else {
        pt.y = ms(*r) * (micro ? 1000 : 1);
        pt.label = format_time_ms(ms(*r));
      }
      s.points.append(pt);
      prev = r;
    }
    c.series.append(s);
  }
  references.removeDuplicates();
  QStringList sub{device_part(ss), "N=" + format_size(size),
                  block ? QString("B=%1").arg(block) : QString("block size picked by the variant"),
                  type_name(DType(type)), qtext::time_basis_name(basis) + ", median"};
  if (speedup) sub << "against " + references.join(" / ");
  if (cpu != Cpu::None) sub << "what a GPU would execute: the counts chart";
  // The session holds other sizes, types or block sizes: this is the one with the most steps.
  if (chosen->settings > 1) sub << QString("1 of %1 settings in the session").arg(chosen->settings);
  c.subtitle = sub.join(" · ");
  if (speedup && !references.isEmpty() && references.front() != variant_label(baseline, 1))
    c.warnings << (baseline_lacks
                       ? QString("the baseline %1 has no %2: speed-ups are against the "
                                 "ladder's first step")
                             .arg(variant_label(baseline, 1, false), qtext::time_basis_name(basis))
                       : QString("the baseline %1 is not on this ladder: speed-ups are "
                                 "against its first step")
                             .arg(variant_label(baseline, 1, false)));
  c.warnings << qstrs(notes.warnings());
  if (wrong > 0)
    c.warnings << QString("%1 wrong result(s) (red): not drawn, never a speed-up").arg(wrong);
  if (noisy > 0) c.warnings << noisy_warning(noisy);
  return c;
}

}  // namespace rl::gui::detail
