// Time, bandwidth and speed-up against unroll factor, block size and size: one series per
// variant (and per whatever else differs), min-max bands, roof lines on bandwidth charts.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "charts/chart_builders_internal.h"
#include "charts/chart_sweep_groups.h"
#include "charts/palette.h"
#include "engine/catalog/catalog.h"
#include "engine/experiment/presets.h"
#include "format.h"

namespace rl::gui::detail {

using charts::Axis;
using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

namespace {

// Title and x axis: what is drawn against what.
void title_and_x_axis(Chart& c, Dim dim, Measure m, Cpu cpu) {
  const QString what = m == Measure::Time        ? "Time"
                       : m == Measure::Bandwidth ? "Bandwidth"
                                                 : "Speed-up";
  const QString against = dim == Dim::Unroll  ? "unroll factor"
                          : dim == Dim::Block ? "block size"
                                              : "size";
  c.title = what + " against " + against;
  // Host sessions: CPU times of an emulation, whose ratios are no GPU speed-ups.
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
}

// The labs give "unroll" their own meaning (k, tiles, the pragma's factor): say it on the axis
// when every series shares it.
void name_unroll_axis(Chart& c, const std::vector<Group>& kept) {
  std::set<std::string> meanings;
  for (const Group& g : kept)
    if (const VariantInfo* v = find_variant_by_id(g.proto.variant))
      meanings.insert(v->unroll_meaning);
  if (meanings.size() == 1 && !meanings.begin()->empty())
    c.x.title = QString::fromStdString(*meanings.begin());
}

// The hint shown instead of a chart when no group is a sweep; false when there is a chart.
bool explain_no_sweep(Chart& c, const std::map<std::string, Group>& groups,
                      const std::vector<Group>& kept, const QStringList& basis_warnings, Dim dim) {
  if (kept.empty() && !basis_warnings.isEmpty() &&
      std::any_of(groups.begin(), groups.end(),
                  [](const auto& g) { return g.second.all_xs.size() >= 2; })) {
    // A sweep is there, but not in the chosen time: say that, not "no sweep".
    c.warnings = basis_warnings;
    c.empty_hint = c.warnings.join("\n") + "\nChoose another Time (top of the window, or --time).";
    return true;
  }
  if (!kept.empty()) return false;
  const QString sweep_word = dim == Dim::Unroll  ? "unroll"
                             : dim == Dim::Block ? "block-size"
                                                 : "size";
  // The preset's name as the picker shows it (the engine's presets).
  const rl::Preset* p = rl::find_preset(dim == Dim::Unroll  ? "unroll"
                                        : dim == Dim::Block ? "block-sizes"
                                                            : "sizes");
  const QString preset = p ? QString::fromStdString(p->name) : QString();
  const QString values = dim == Dim::Unroll  ? "unroll factors"
                         : dim == Dim::Block ? "block sizes"
                                             : "sizes";
  c.empty_hint = QString(
                     "No %1 sweep in this session: this chart needs a variant measured at two or "
                     "more %2 with everything else equal.\nTry the preset \"%3\".")
                     .arg(sweep_word, values, preset);
  return true;
}

// What differs between the series, so their names say only that.
struct Varies {
  bool ws = false, block = false, size = false, type = false, session = false;
};

Varies what_varies(const std::vector<Group>& kept, Dim dim, std::size_t sessions) {
  auto differs = [&](auto get) {
    for (const Group& g : kept)
      if (get(g) != get(kept.front())) return true;
    return false;
  };
  Varies v;
  v.ws = differs([](const Group& g) { return int(g.proto.workspace); });
  v.block = dim != Dim::Block && differs([](const Group& g) { return g.proto.block_size; });
  v.size = dim != Dim::Size && differs([](const Group& g) { return g.proto.size; });
  v.type = differs([](const Group& g) { return int(g.proto.type); });
  v.session = sessions > 1;
  return v;
}

// The y axis; returns the unit times are drawn in (microseconds unless something takes a
// millisecond or more).
double y_axis(Chart& c, const std::vector<Group>& kept, Measure m, TimeBasis basis, Cpu cpu) {
  double max_ms = 0;
  for (const Group& g : kept)
    for (const PointResult* r : g.points)
      max_ms = std::max(max_ms, basis_time(*r, basis)->median_ms);
  const bool micro = max_ms < 1;
  const QString on = basis == TimeBasis::Whole ? QString() : ", " + qtext::time_basis_name(basis);
  c.y.title = m == Measure::Time        ? qtext::time_axis_title(basis, micro ? "µs" : "ms")
              : m == Measure::Bandwidth ? QString("bandwidth%1 (GB/s)").arg(on)
                                        : QString("speed-up%1 (×)").arg(on);
  if (cpu == Cpu::All)
    c.y.title = m == Measure::Speedup ? QString("CPU ratio%1 (×)").arg(on) : "CPU " + c.y.title;
  c.y.short_title = m == Measure::Time        ? QString("time (%1)").arg(micro ? "µs" : "ms")
                    : m == Measure::Bandwidth ? QString("GB/s")
                                              : QString("ratio (×)");
  return micro ? 1000 : 1;
}

QString series_name(const Group& g, const Varies& v, Dim dim, const std::vector<ShownSession>& ss) {
  const PointSpec& p = g.proto;
  QStringList name{short_label(p.variant, p.unroll, dim != Dim::Unroll)};
  if (v.ws) name << ws_name(p.workspace);
  if (v.block) name << "B=" + block_size_text(p.block_size);
  if (v.size) name << size_label(p);
  if (v.type) name << type_name(p.type);
  if (v.session) name.prepend(ss[g.session].label);
  return name.join(" · ");
}

// The inputs of one point's drawing.
struct SweepStyle {
  Dim dim;
  Measure m;
  const std::string& baseline;
  TimeBasis basis;
  double unit;
  bool pct = false;  // bandwidth as % of the point's read floor
};

// The point's percentage of the read floor its session measured at its size; none without one.
std::optional<double> pct_of_floor(const PointResult& r, const Session& s, TimeBasis basis) {
  const ReadFloor* f = find_read_floor(s.read_floors, input_bytes(r.point));
  return f ? pct_of_read_floor(r, *f, basis) : std::nullopt;
}

Point sweep_point(const Group& g, std::size_t k, const SweepStyle& st,
                  const std::vector<ShownSession>& ss) {
  const PointResult* r = g.points[k];
  const Summary& t = *basis_time(*r, st.basis);
  Point pt;
  pt.x = x_value(r->point, st.dim);
  const std::uint64_t bytes = input_bytes(r->point);
  if (st.m == Measure::Time) {
    pt.y = t.median_ms * st.unit;
    pt.lo = t.min_ms * st.unit;
    pt.hi = t.max_ms * st.unit;
  } else if (st.m == Measure::Bandwidth && st.pct) {
    pt.y = pct_of_floor(*r, *ss[g.session].session, st.basis).value_or(NAN);
  } else if (st.m == Measure::Bandwidth) {
    pt.y = basis_gbps(*r, st.basis);
    if (t.min_ms > 0 && t.max_ms > 0) {
      pt.lo = gbps_of(bytes, t.max_ms);
      pt.hi = gbps_of(bytes, t.min_ms);
    }
  } else {
    pt.y = *g.speedups[k];
  }
  pt.wrong = r->status == PointStatus::Wrong;
  pt.noisy = r->noisy;
  pt.tooltip = qtext::point_details(*r, *ss[g.session].session, st.baseline);
  pt.source = r->point;
  if (st.basis != TimeBasis::Whole) {
    pt.tooltip += "\n" + qtext::charted_details(*r, st.basis);
    if (st.m == Measure::Speedup)
      pt.tooltip += QString("\nspeed-up on %1 vs %2: ×%3")
                        .arg(qtext::time_basis_name(st.basis), QString::fromStdString(st.baseline))
                        .arg(pt.y, 0, 'f', 2);
  }
  return pt;
}

// Drawing: one series per group, up to kMaxSeries; returns the noisy points drawn.
constexpr int kMaxSeries = 24;

int add_series(Chart& c, const std::vector<Group>& kept, const Varies& v, const SweepStyle& st,
               const std::vector<ShownSession>& ss) {
  int noisy = 0;
  std::map<std::string, int> colors;
  for (int gi = 0; gi < int(kept.size()) && gi < kMaxSeries; ++gi) {
    const Group& g = kept[gi];
    const std::string color_key = g.proto.label() + g.proto.variant;
    if (!colors.count(color_key)) colors[color_key] = int(colors.size());
    Series s;
    s.name = series_name(g, v, st.dim, ss);
    s.color = charts::palette_color(colors[color_key]);
    s.dashed = g.session > 0;
    for (size_t k = 0; k < g.points.size(); ++k) {
      const Point pt = sweep_point(g, k, st, ss);
      if (!std::isfinite(pt.y)) continue;  // % of a floor the session did not measure
      s.points.append(pt);
      noisy += g.points[k]->noisy ? 1 : 0;
    }
    c.series.append(s);
  }
  if (int(kept.size()) > kMaxSeries)
    c.warnings << QString(
                      "%1 more series not drawn: narrow the experiment or read the Results table")
                      .arg(int(kept.size()) - kMaxSeries);
  return noisy;
}

// What every series shares: device, the dimensions that do not vary, the statistic.
QString sweep_subtitle(const std::vector<ShownSession>& ss, const PointSpec& first, const Varies& v,
                       const SweepStyle& st) {
  QStringList sub{device_part(ss)};
  if (!v.size && st.dim != Dim::Size) sub << size_label(first);
  if (!v.block && st.dim != Dim::Block) sub << "B=" + block_size_text(first.block_size);
  if (!v.type) sub << type_name(first.type);
  sub << (st.m == Measure::Speedup
              ? QString("%1, median against the median of %2")
                    .arg(qtext::time_basis_name(st.basis), variant_label(st.baseline, 1, false))
              : qtext::time_basis_name(st.basis) + ", median; band: min to max");
  return sub.join(" · ");
}

void add_warnings(Chart& c, const Tally& t, const QStringList& basis_warnings, int noisy, Measure m,
                  const std::string& baseline) {
  if (m == Measure::Speedup) {
    for (const QString& w : t.wrong_names) c.warnings << "wrong result, no speed-up: " + w;
    if (t.no_baseline > 0)
      c.warnings << QString(
                        "%1 point(s) have no %2 point to compare with (add it to the experiment)")
                        .arg(t.no_baseline)
                        .arg(variant_label(baseline, 1, false));
  } else if (t.wrong > 0) {
    c.warnings << QString("%1 wrong result(s), marked in red: the value differs from the host's")
                      .arg(t.wrong);
  }
  c.warnings << basis_warnings;
  if (noisy > 0) c.warnings << noisy_warning(noisy, NoisyMark::Tooltips);
  if (t.failed > 0)
    c.warnings
        << QString("%1 point(s) failed or were skipped: see the Results table").arg(t.failed);
}

// Whether a bandwidth chart can be drawn as % of the read floor: only where a shown session
// measured one (the floor is measured per size on the same GPU; none on the host backend).
void offer_pct_of_limit(Chart& c, const std::vector<ShownSession>& ss) {
  bool any = false;
  for (const ShownSession& s : ss) any = any || !s.session->read_floors.empty();
  c.pct_of_limit_available = any;
  c.pct_of_limit_note =
      any ? QString("Each point as % of the read floor its session measured at its size")
          : QString(
                "unavailable: no session shown measured a read floor (host runs and older "
                "sessions have none)");
}

// The % view's axis, roof and what it leaves out.
void as_pct_of_limit(Chart& c, const std::vector<Group>& kept, const std::vector<ShownSession>& ss,
                     TimeBasis basis) {
  c.pct_of_limit = true;
  const QString on = basis == TimeBasis::Whole ? QString() : ", " + qtext::time_basis_name(basis);
  c.y.title = QString("% of the read floor%1 (at each N)").arg(on);
  c.y.short_title = "% of floor";
  c.y.scale = AxisScale::Linear;
  c.title.replace("Bandwidth", "Bandwidth as % of the read floor");
  Series full;
  full.kind = SeriesKind::Roof;
  full.name = "read floor (100%)";
  full.color = charts::palette_roof();
  Point at;
  at.y = 100;
  full.points.append(at);
  c.series.append(full);
  int missing = 0;
  for (const Group& g : kept)
    for (const PointResult* r : g.points)
      missing += !pct_of_floor(*r, *ss[g.session].session, basis) ? 1 : 0;
  if (missing > 0)
    c.warnings << QString("%1 point(s) not drawn: their session has no read floor at their size")
                      .arg(missing);
}

}  // namespace

Chart sweep_chart(const QString& id, const std::vector<ShownSession>& ss, Dim dim, Measure m,
                  const std::string& baseline, TimeBasis basis, bool pct_of_limit) {
  Chart c;
  c.id = id;
  const Cpu cpu = cpu_times(ss);
  title_and_x_axis(c, dim, m, cpu);
  if (!has_results(ss)) {
    c.empty_hint = no_results_hint(ss);
    return c;
  }
  BasisNotes notes(basis);
  Tally tally;
  const std::map<std::string, Group> groups =
      group_points(ss, dim, m, baseline, basis, notes, tally);
  const std::vector<Group> kept = sweeps_of(groups);
  // What the chosen time leaves out; said over the chart, or instead of it when that is all.
  QStringList basis_warnings = qstrs(notes.warnings());
  if (tally.baseline_lacks > 0)
    basis_warnings << QString("%1 point(s) get no speed-up: their %2 point has no %3")
                          .arg(tally.baseline_lacks)
                          .arg(variant_label(baseline, 1, false), qtext::time_basis_name(basis));
  if (explain_no_sweep(c, groups, kept, basis_warnings, dim)) return c;

  if (dim == Dim::Unroll) name_unroll_axis(c, kept);
  const Varies varies = what_varies(kept, dim, ss.size());
  if (m == Measure::Bandwidth) offer_pct_of_limit(c, ss);
  const bool pct = pct_of_limit && m == Measure::Bandwidth && c.pct_of_limit_available;
  const SweepStyle style{dim, m, baseline, basis, y_axis(c, kept, m, basis, cpu), pct};
  const int noisy = add_series(c, kept, varies, style, ss);
  if (pct)
    as_pct_of_limit(c, kept, ss, basis);
  else if (m == Measure::Bandwidth)
    add_roofs(c, ss, dim == Dim::Size ? 0 : input_bytes(kept.front().proto), basis);
  if (dim == Dim::Size && m != Measure::Speedup && !pct)
    add_read_floor_curve(c, ss, m == Measure::Time, basis, style.unit);
  c.subtitle = sweep_subtitle(ss, kept.front().proto, varies, style);
  add_warnings(c, tally, basis_warnings, noisy, m, baseline);
  return c;
}

}  // namespace rl::gui::detail
