// Time, bandwidth and speed-up against unroll factor, block size and size: one series per
// variant (and per whatever else differs), min-max bands, roof lines on bandwidth charts.
#include <algorithm>
#include <map>
#include <optional>
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

namespace {

double x_value(const PointSpec& p, Dim d) {
  switch (d) {
    case Dim::Unroll:
      return p.unroll;
    case Dim::Block:
      return p.block_size;
    case Dim::Size:
      return double(p.size);
  }
  return 0;
}

struct Group {
  int session = 0;
  PointSpec proto;  // the point's fixed dimensions (the swept one is meaningless)
  std::vector<const PointResult*> points;
  std::vector<std::optional<double>> speedups;  // with points, on the chosen time
  std::set<double> xs;
  std::set<double> all_xs;  // with the points left out for want of the time
};

auto order_key(const Group& g) {
  const PointSpec& p = g.proto;
  return std::make_tuple(catalog_index(p.variant), p.variant, p.unroll, int(p.workspace),
                         p.block_size, p.size, int(p.type), g.session);
}

}  // namespace

Chart sweep_chart(const QString& id, const std::vector<ShownSession>& ss, Dim dim, Measure m,
                  const std::string& baseline, TimeBasis basis) {
  Chart c;
  c.id = id;
  const QString what = m == Measure::Time        ? "Time"
                       : m == Measure::Bandwidth ? "Bandwidth"
                                                 : "Speed-up";
  const QString against = dim == Dim::Unroll  ? "unroll factor"
                          : dim == Dim::Block ? "block size"
                                              : "size";
  c.title = what + " against " + against;
  // Host sessions: CPU times of an emulation, whose ratios are no GPU speed-ups.
  const Cpu cpu = cpu_times(ss);
  if (cpu == Cpu::All && m == Measure::Speedup)
    c.title = "CPU-time ratio against " + against + " (host emulation, not a GPU speed-up)";
  else if (cpu == Cpu::All && m == Measure::Time)
    c.title = "CPU time (host emulation) against " + against;
  c.x.scale = AxisScale::Log2;
  c.x.ticks = dim == Dim::Size ? charts::TickStyle::PowerOfTwo : charts::TickStyle::Plain;
  c.x.title = dim == Dim::Unroll  ? "unroll factor U (tiles each block adds first)"
              : dim == Dim::Block ? "block size (threads)"
                                  : "N (elements)";
  c.y.scale = AxisScale::Auto;
  if (!has_results(ss)) {
    c.empty_hint = kNoData;
    return c;
  }

  // Group every usable point by all its dimensions but the swept one.
  std::map<std::string, Group> groups;
  int failed = 0, wrong = 0, no_baseline = 0, baseline_lacks = 0, noisy = 0;
  QStringList wrong_names;
  BasisNotes notes(basis);
  for (int si = 0; si < int(ss.size()); ++si) {
    const std::vector<PointResult>& results = ss[si].session->results;
    const BasisSpeedups sp =
        m == Measure::Speedup ? basis_speedups(results, baseline, basis) : BasisSpeedups{};
    for (size_t i = 0; i < results.size(); ++i) {
      const PointResult& r = results[i];
      if (r.status == PointStatus::Failed || r.status == PointStatus::Skipped) {
        ++failed;
        continue;
      }
      const PointSpec& p = r.point;
      if (dim == Dim::Block && p.block_size <= 0) continue;  // the variant picks its own
      if (r.status == PointStatus::Wrong) {
        ++wrong;
        wrong_names << QString("%1 %2 B=%3 N=%4")
                           .arg(variant_label(p.variant, p.unroll), ws_name(p.workspace))
                           .arg(block_size_text(p.block_size))
                           .arg(format_size(p.size));
        if (m == Measure::Speedup) continue;  // never drawn as a speed-up
      }
      PointSpec key = p;
      if (dim == Dim::Unroll) key.unroll = 0;
      if (dim == Dim::Block) key.block_size = 0;
      if (dim == Dim::Size) key.size = 0;
      Group& g = groups[std::to_string(si) + "|" + key.label() + "|" + key.variant];
      g.session = si;
      g.proto = key;
      g.all_xs.insert(x_value(p, dim));
      if (!notes.time_of(r)) continue;  // counted, said in the warnings
      if (m == Measure::Speedup && !sp.value[i]) {
        ++(sp.baseline_lacks_time[i] ? baseline_lacks : no_baseline);
        continue;
      }
      g.points.push_back(&r);
      g.speedups.push_back(m == Measure::Speedup ? sp.value[i] : std::nullopt);
      g.xs.insert(x_value(p, dim));
    }
  }
  std::vector<Group> kept;
  for (auto& [k, g] : groups)
    if (g.xs.size() >= 2) kept.push_back(g);
  std::sort(kept.begin(), kept.end(),
            [](const Group& a, const Group& b) { return order_key(a) < order_key(b); });

  const QString sweep_word = dim == Dim::Unroll  ? "unroll"
                             : dim == Dim::Block ? "block-size"
                                                 : "size";
  const QString preset = dim == Dim::Unroll  ? "Unroll 1/2/4/8"
                         : dim == Dim::Block ? "Block-size sweep"
                                             : "Size sweep";
  // What the chosen time leaves out; said over the chart, or instead of it when that is all.
  QStringList basis_warnings = qstrs(notes.warnings());
  if (baseline_lacks > 0)
    basis_warnings << QString("%1 point(s) get no speed-up: their %2 point has no %3")
                          .arg(baseline_lacks)
                          .arg(variant_label(baseline, 1, false), qtext::time_basis_name(basis));
  if (kept.empty() && !basis_warnings.isEmpty() &&
      std::any_of(groups.begin(), groups.end(),
                  [](const auto& g) { return g.second.all_xs.size() >= 2; })) {
    // A sweep is there, but not in the chosen time: say that, not "no sweep".
    c.warnings = basis_warnings;
    c.empty_hint = c.warnings.join("\n") + "\nChoose another Time (top of the window, or --time).";
    return c;
  }
  if (kept.empty()) {
    const QString values = dim == Dim::Unroll  ? "unroll factors"
                           : dim == Dim::Block ? "block sizes"
                                               : "sizes";
    c.empty_hint = QString(
                       "No %1 sweep in this session: this chart needs a variant measured at two or "
                       "more %2 with everything else equal.\nTry the preset \"%3\".")
                       .arg(sweep_word, values, preset);
    return c;
  }

  // Name series by what differs between them.
  auto differs = [&](auto get) {
    for (const Group& g : kept)
      if (get(g) != get(kept.front())) return true;
    return false;
  };
  const bool vary_ws = differs([](const Group& g) { return int(g.proto.workspace); });
  const bool vary_block =
      dim != Dim::Block && differs([](const Group& g) { return g.proto.block_size; });
  const bool vary_size = dim != Dim::Size && differs([](const Group& g) { return g.proto.size; });
  const bool vary_type = differs([](const Group& g) { return int(g.proto.type); });
  const bool vary_session = ss.size() > 1;

  // Units: microseconds unless something takes a millisecond or more.
  double max_ms = 0;
  for (const Group& g : kept)
    for (const PointResult* r : g.points)
      max_ms = std::max(max_ms, basis_time(*r, basis)->median_ms);
  const bool micro = max_ms < 1;
  const double unit = micro ? 1000 : 1;
  const QString on = basis == TimeBasis::Whole ? QString() : ", " + qtext::time_basis_name(basis);
  c.y.title = m == Measure::Time        ? qtext::time_axis_title(basis, micro ? "µs" : "ms")
              : m == Measure::Bandwidth ? QString("bandwidth%1 (GB/s)").arg(on)
                                        : QString("speed-up%1 (×)").arg(on);
  if (cpu == Cpu::All)
    c.y.title = m == Measure::Speedup ? QString("CPU ratio%1 (×)").arg(on) : "CPU " + c.y.title;
  c.y.short_title = m == Measure::Time        ? QString("time (%1)").arg(micro ? "µs" : "ms")
                    : m == Measure::Bandwidth ? QString("GB/s")
                                              : QString("ratio (×)");

  constexpr int kMaxSeries = 24;
  std::map<std::string, int> colors;
  for (int gi = 0; gi < int(kept.size()) && gi < kMaxSeries; ++gi) {
    const Group& g = kept[gi];
    const PointSpec& p = g.proto;
    QStringList name{short_label(p.variant, p.unroll, dim != Dim::Unroll)};
    if (vary_ws) name << ws_name(p.workspace);
    if (vary_block) name << "B=" + block_size_text(p.block_size);
    if (vary_size) name << "N=" + format_size(p.size);
    if (vary_type) name << type_name(p.type);
    if (vary_session) name.prepend(ss[g.session].label);
    const std::string color_key = p.label() + p.variant;
    if (!colors.count(color_key)) colors[color_key] = int(colors.size());
    Series s;
    s.name = name.join(" · ");
    s.color = charts::palette_color(colors[color_key]);
    s.dashed = g.session > 0;
    for (size_t k = 0; k < g.points.size(); ++k) {
      const PointResult* r = g.points[k];
      const Summary& t = *basis_time(*r, basis);
      Point pt;
      pt.x = x_value(r->point, dim);
      const std::uint64_t bytes = input_bytes(r->point);
      if (m == Measure::Time) {
        pt.y = t.median_ms * unit;
        pt.lo = t.min_ms * unit;
        pt.hi = t.max_ms * unit;
      } else if (m == Measure::Bandwidth) {
        pt.y = basis_gbps(*r, basis);
        if (t.min_ms > 0 && t.max_ms > 0) {
          pt.lo = gbps_of(bytes, t.max_ms);
          pt.hi = gbps_of(bytes, t.min_ms);
        }
      } else {
        pt.y = *g.speedups[k];
      }
      pt.wrong = r->status == PointStatus::Wrong;
      pt.noisy = r->noisy;
      noisy += r->noisy ? 1 : 0;
      pt.tooltip = qtext::point_details(*r, ss[g.session].session->device, baseline);
      if (basis != TimeBasis::Whole) {
        pt.tooltip += "\n" + qtext::charted_details(*r, basis);
        if (m == Measure::Speedup)
          pt.tooltip += QString("\nspeed-up on %1 vs %2: ×%3")
                            .arg(qtext::time_basis_name(basis), QString::fromStdString(baseline))
                            .arg(pt.y, 0, 'f', 2);
      }
      s.points.append(pt);
    }
    c.series.append(s);
  }
  if (int(kept.size()) > kMaxSeries)
    c.warnings << QString(
                      "%1 more series not drawn: narrow the experiment or read the Results table")
                      .arg(int(kept.size()) - kMaxSeries);
  if (m == Measure::Bandwidth)
    add_roofs(c, ss, dim == Dim::Size ? 0 : input_bytes(kept.front().proto), basis);
  if (dim == Dim::Size && m != Measure::Speedup)
    add_read_floor_curve(c, ss, m == Measure::Time, basis, unit);

  QStringList sub{device_part(ss)};
  if (!vary_size && dim != Dim::Size) sub << "N=" + format_size(kept.front().proto.size);
  if (!vary_block && dim != Dim::Block)
    sub << "B=" + block_size_text(kept.front().proto.block_size);
  if (!vary_type) sub << type_name(kept.front().proto.type);
  sub << (m == Measure::Speedup
              ? QString("%1, median against the median of %2")
                    .arg(qtext::time_basis_name(basis), variant_label(baseline, 1, false))
              : qtext::time_basis_name(basis) + ", median; band: min to max");
  c.subtitle = sub.join(" · ");
  if (m == Measure::Speedup) {
    for (const QString& w : wrong_names) c.warnings << "wrong result, no speed-up: " + w;
    if (no_baseline > 0)
      c.warnings << QString(
                        "%1 point(s) have no %2 point to compare with (add it to the experiment)")
                        .arg(no_baseline)
                        .arg(variant_label(baseline, 1, false));
  } else if (wrong > 0) {
    c.warnings << QString("%1 wrong result(s), marked in red: the value differs from the host's")
                      .arg(wrong);
  }
  c.warnings << basis_warnings;
  if (noisy > 0) c.warnings << noisy_warning(noisy);
  if (failed > 0)
    c.warnings << QString("%1 point(s) failed or were skipped: see the Results table").arg(failed);
  return c;
}

}  // namespace rl::gui::detail
