#include "chart_builders.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "catalog.h"
#include "charts/palette.h"
#include "format.h"

namespace rl::gui {

using charts::Axis;
using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;
using charts::SeriesKind;

const std::vector<ChartKind>& chart_kinds() {
  static const std::vector<ChartKind> kinds{
      {"ladder_speedup", "Ladder", "Speed-up along the ladder"},
      {"ladder_time", "Ladder", "Time of each ladder step"},
      {"time_vs_unroll", "Unroll", "Time against unroll factor"},
      {"bandwidth_vs_unroll", "Unroll", "Bandwidth against unroll factor"},
      {"speedup_vs_unroll", "Unroll", "Speed-up against unroll factor"},
      {"time_vs_block", "Block size", "Time against block size"},
      {"bandwidth_vs_block", "Block size", "Bandwidth against block size"},
      {"speedup_vs_block", "Block size", "Speed-up against block size"},
      {"bandwidth_vs_size", "Size", "Bandwidth against size, with the roofs"},
      {"time_vs_size", "Size", "Time against size"},
  };
  return kinds;
}

namespace {

enum class Dim { Unroll, Block, Size };
enum class Measure { Time, Bandwidth, Speedup };

const QString kNoData =
    "No results yet.\nPick a preset in the Experiment panel and press Run (Ctrl+R), or open a "
    "saved session (Ctrl+O).";

int catalog_index(const std::string& id) {
  const auto& cat = catalog();
  for (size_t i = 0; i < cat.size(); ++i)
    if (cat[i].id == id) return int(i);
  return int(cat.size());
}

// Legends and bar labels drop the seed's common "reduce" prefix ("Unroll8" for reduceUnroll8)
// so they fit; hover shows the full name.
QString short_label(const std::string& id, int unroll, bool with_unroll = true) {
  QString label = variant_label(id, unroll, with_unroll);
  if (label.startsWith("reduce") && label.size() > 6 && label[6].isUpper()) label = label.mid(6);
  return label;
}

QString ws_name(Workspace w) {
  return QString::fromStdString(std::string(to_string(w)));
}
QString type_name(DType t) {
  return QString::fromStdString(std::string(to_string(t)));
}

bool has_results(const std::vector<ShownSession>& ss) {
  for (const auto& s : ss)
    if (s.session && !s.session->results.empty()) return true;
  return false;
}

// "H200 · whole reduction" style subtitle pieces shared by every chart.
QString device_part(const std::vector<ShownSession>& ss) {
  QStringList names;
  for (const auto& s : ss) {
    QString n = device_short_name(s.session->device);
    if (s.session->device.backend != "cuda") n = "CPU: host emulation, CPU times";
    if (!names.contains(n)) names << n;
  }
  return names.join(" vs ");
}

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
  std::set<double> xs;
};

auto order_key(const Group& g) {
  const PointSpec& p = g.proto;
  return std::make_tuple(catalog_index(p.variant), p.variant, p.unroll, int(p.workspace),
                         p.block_size, p.size, int(p.type), g.session);
}

QString roof_names(double gbps) {
  return format_gbps(gbps);
}

Series roof(const QString& name, double gbps, const QColor& color) {
  Series s;
  s.name = name;
  s.kind = SeriesKind::Roof;
  Point p;
  p.y = gbps;
  s.points.append(p);
  s.color = color;
  s.dashed = true;
  return s;
}

void add_roofs(Chart& c, const std::vector<ShownSession>& ss) {
  for (const auto& s : ss) {
    const DeviceInfo& d = s.session->device;
    const QString who = ss.size() > 1 ? s.label + " " : QString();
    if (d.theoretical_gbps > 0) {
      c.series.append(roof(who + "theoretical DRAM " + roof_names(d.theoretical_gbps),
                           d.theoretical_gbps, charts::palette_roof()));
    }
    if (d.measured_copy_gbps > 0) {
      c.series.append(roof(who + "measured copy " + roof_names(d.measured_copy_gbps),
                           d.measured_copy_gbps, QColor("#006d77")));
    }
  }
}

Chart sweep_chart(const QString& id, const std::vector<ShownSession>& ss, Dim dim, Measure m,
                  const std::string& baseline) {
  Chart c;
  c.id = id;
  const QString what = m == Measure::Time        ? "Time"
                       : m == Measure::Bandwidth ? "Bandwidth"
                                                 : "Speed-up";
  const QString against = dim == Dim::Unroll  ? "unroll factor"
                          : dim == Dim::Block ? "block size"
                                              : "size";
  c.title = what + " against " + against;
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
  int failed = 0, wrong = 0, no_baseline = 0;
  QStringList wrong_names;
  for (int si = 0; si < int(ss.size()); ++si) {
    for (const PointResult& r : ss[si].session->results) {
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
                           .arg(p.block_size)
                           .arg(format_size(p.size));
        if (m == Measure::Speedup) continue;  // never drawn as a speed-up
      }
      if (m == Measure::Speedup && !r.speedup) {
        ++no_baseline;
        continue;
      }
      if (r.total.empty()) continue;
      PointSpec key = p;
      if (dim == Dim::Unroll) key.unroll = 0;
      if (dim == Dim::Block) key.block_size = 0;
      if (dim == Dim::Size) key.size = 0;
      Group& g = groups[std::to_string(si) + "|" + key.label() + "|" + key.variant];
      g.session = si;
      g.proto = key;
      g.points.push_back(&r);
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
    for (const PointResult* r : g.points) max_ms = std::max(max_ms, r->total.median_ms);
  const bool micro = max_ms < 1;
  const double unit = micro ? 1000 : 1;
  c.y.title = m == Measure::Time ? QString("time, whole reduction (%1)").arg(micro ? "µs" : "ms")
              : m == Measure::Bandwidth ? QString("bandwidth (GB/s)")
                                        : QString("speed-up (×)");

  constexpr int kMaxSeries = 24;
  std::map<std::string, int> colors;
  for (int gi = 0; gi < int(kept.size()) && gi < kMaxSeries; ++gi) {
    const Group& g = kept[gi];
    const PointSpec& p = g.proto;
    QStringList name{short_label(p.variant, p.unroll, dim != Dim::Unroll)};
    if (vary_ws) name << ws_name(p.workspace);
    if (vary_block) name << QString("B=%1").arg(p.block_size);
    if (vary_size) name << "N=" + format_size(p.size);
    if (vary_type) name << type_name(p.type);
    if (vary_session) name.prepend(ss[g.session].label);
    const std::string color_key = p.label() + p.variant;
    if (!colors.count(color_key)) colors[color_key] = int(colors.size());
    Series s;
    s.name = name.join(" · ");
    s.color = charts::palette_color(colors[color_key]);
    s.dashed = g.session > 0;
    for (const PointResult* r : g.points) {
      Point pt;
      pt.x = x_value(r->point, dim);
      const double bytes = double(r->point.size) * 4;
      if (m == Measure::Time) {
        pt.y = r->total.median_ms * unit;
        pt.lo = r->total.min_ms * unit;
        pt.hi = r->total.max_ms * unit;
      } else if (m == Measure::Bandwidth) {
        pt.y = r->total_gbps;
        if (r->total.min_ms > 0 && r->total.max_ms > 0) {
          pt.lo = bytes / (r->total.max_ms * 1e-3) / 1e9;
          pt.hi = bytes / (r->total.min_ms * 1e-3) / 1e9;
        }
      } else {
        pt.y = *r->speedup;
      }
      pt.wrong = r->status == PointStatus::Wrong;
      pt.tooltip = point_details(*r, ss[g.session].session->device, baseline);
      s.points.append(pt);
    }
    c.series.append(s);
  }
  if (int(kept.size()) > kMaxSeries)
    c.warnings << QString(
                      "%1 more series not drawn: narrow the experiment or read the Results table")
                      .arg(int(kept.size()) - kMaxSeries);
  if (m == Measure::Bandwidth) add_roofs(c, ss);

  QStringList sub{device_part(ss)};
  if (!vary_size && dim != Dim::Size) sub << "N=" + format_size(kept.front().proto.size);
  if (!vary_block && dim != Dim::Block) sub << QString("B=%1").arg(kept.front().proto.block_size);
  if (!vary_type) sub << type_name(kept.front().proto.type);
  sub << (m == Measure::Speedup ? QString("whole reduction, median against the median of %1")
                                      .arg(variant_label(baseline, 1, false))
                                : QString("whole reduction, median; band: min to max"));
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
  if (failed > 0)
    c.warnings << QString("%1 point(s) failed or were skipped: see the Results table").arg(failed);
  return c;
}

Chart ladder_chart(const QString& id, const std::vector<ShownSession>& ss, bool speedup,
                   const std::string& baseline) {
  Chart c;
  c.id = id;
  c.title = speedup ? "The ladder: what each step buys" : "The ladder: time of each kernel";
  c.x.scale = AxisScale::Category;
  c.y.scale = AxisScale::Linear;
  if (!has_results(ss)) {
    c.empty_hint = kNoData;
    return c;
  }
  // The (size, type, block size) with the most rungs in the primary session; ties: larger N.
  using Setting = std::tuple<std::uint64_t, int, int>;
  std::map<Setting, std::set<std::pair<int, int>>> rungs_at;
  for (const PointResult& r : ss.front().session->results) {
    if (r.status != PointStatus::Ok && r.status != PointStatus::Wrong) continue;
    rungs_at[{r.point.size, int(r.point.type), r.point.block_size}].insert(
        {catalog_index(r.point.variant), r.point.unroll});
  }
  if (rungs_at.empty()) {
    c.empty_hint = "No measured points in this session (all failed or were skipped).";
    return c;
  }
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
  const auto [size, type, block] = best;
  auto in_setting = [&](const PointResult& r) {
    return r.point.size == size && int(r.point.type) == type &&
           (r.point.block_size == block || r.point.block_size == 0) &&
           (r.status == PointStatus::Ok || r.status == PointStatus::Wrong) && !r.total.empty();
  };
  // Rungs: every (variant, unroll) in catalog order; bar sets: (session, workspace).
  std::set<std::tuple<int, std::string, int>> rungs;
  std::set<std::pair<int, int>> sets;
  for (int si = 0; si < int(ss.size()); ++si)
    for (const PointResult& r : ss[si].session->results)
      if (in_setting(r)) {
        rungs.insert({catalog_index(r.point.variant), r.point.variant, r.point.unroll});
        sets.insert({si, int(r.point.workspace)});
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
      if (in_setting(r)) max_ms = std::max(max_ms, r.total.median_ms);
  const bool micro = max_ms < 1;
  c.y.title = speedup ? QString("cumulative speed-up (×)")
                      : QString("time, whole reduction (%1)").arg(micro ? "µs" : "ms");
  int wrong = 0;
  QStringList references;
  for (const auto& [si, ws] : sets) {
    std::vector<const PointResult*> at(order.size(), nullptr);
    for (const PointResult& r : ss[si].session->results) {
      if (!in_setting(r) || int(r.point.workspace) != ws) continue;
      for (size_t k = 0; k < order.size(); ++k)
        if (order[k].first == r.point.variant && order[k].second == r.point.unroll) at[k] = &r;
    }
    // Speed-ups are against the baseline variant's point in this set, else the first rung.
    const PointResult* ref = nullptr;
    for (const PointResult* r : at)
      if (r && r->status == PointStatus::Ok && r->point.variant == baseline && !ref) ref = r;
    if (!ref)
      for (const PointResult* r : at)
        if (r && r->status == PointStatus::Ok && !ref) ref = r;
    Series s;
    s.kind = SeriesKind::Bars;
    s.name = ws_name(Workspace(ws)) +
             (Workspace(ws) == Workspace::Global ? " memory (in place, as the seed)" : " memory");
    if (ss.size() > 1) s.name = ss[si].label + " · " + s.name;
    s.color = charts::palette_color(int(c.series.size()));
    if (ref) references << variant_label(ref->point.variant, ref->point.unroll);
    const PointResult* prev = nullptr;
    for (size_t k = 0; k < order.size(); ++k) {
      const PointResult* r = at[k];
      if (!r) continue;
      Point pt;
      pt.x = double(k);
      pt.tooltip = point_details(*r, ss[si].session->device, baseline);
      if (r->status == PointStatus::Wrong) {
        ++wrong;
        pt.wrong = true;
        pt.label = "wrong";
        s.points.append(pt);
        continue;
      }
      const double cum = ref ? ref->total.median_ms / r->total.median_ms : 1;
      const double step = prev ? prev->total.median_ms / r->total.median_ms : 1;
      pt.tooltip += QString("\nstep speed-up: ×%1 · cumulative: ×%2")
                        .arg(step, 0, 'f', 2)
                        .arg(cum, 0, 'f', 2);
      if (speedup) {
        pt.y = cum;
        pt.label = QString("×%1").arg(cum, 0, 'f', cum < 10 ? 2 : 1);
        if (prev && sets.size() <= 2) pt.label += QString("\nstep ×%1").arg(step, 0, 'f', 2);
      } else {
        pt.y = r->total.median_ms * (micro ? 1000 : 1);
        pt.label = format_time_ms(r->total.median_ms);
      }
      s.points.append(pt);
      prev = r;
    }
    c.series.append(s);
  }
  references.removeDuplicates();
  QStringList sub{device_part(ss), "N=" + format_size(size),
                  block ? QString("B=%1").arg(block) : QString("block size picked by the variant"),
                  type_name(DType(type)), "whole reduction, median"};
  if (speedup) sub << "against " + references.join(" / ");
  // The session holds other sizes, types or block sizes: this is the one with the most steps.
  if (rungs_at.size() > 1) sub << QString("1 of %1 settings in the session").arg(rungs_at.size());
  c.subtitle = sub.join(" · ");
  if (speedup && !references.isEmpty() && references.front() != variant_label(baseline, 1))
    c.warnings << QString(
                      "the baseline %1 is not on this ladder: speed-ups are against its first step")
                      .arg(variant_label(baseline, 1, false));
  if (wrong > 0)
    c.warnings << QString("%1 wrong result(s) (red): not drawn, never a speed-up").arg(wrong);
  return c;
}

}  // namespace

charts::Chart build_chart(const QString& id, const std::vector<ShownSession>& ss,
                          const std::string& baseline) {
  Chart c;
  if (id == "ladder_speedup")
    c = ladder_chart(id, ss, true, baseline);
  else if (id == "ladder_time")
    c = ladder_chart(id, ss, false, baseline);
  else if (id == "time_vs_unroll")
    c = sweep_chart(id, ss, Dim::Unroll, Measure::Time, baseline);
  else if (id == "bandwidth_vs_unroll")
    c = sweep_chart(id, ss, Dim::Unroll, Measure::Bandwidth, baseline);
  else if (id == "speedup_vs_unroll")
    c = sweep_chart(id, ss, Dim::Unroll, Measure::Speedup, baseline);
  else if (id == "time_vs_block")
    c = sweep_chart(id, ss, Dim::Block, Measure::Time, baseline);
  else if (id == "bandwidth_vs_block")
    c = sweep_chart(id, ss, Dim::Block, Measure::Bandwidth, baseline);
  else if (id == "speedup_vs_block")
    c = sweep_chart(id, ss, Dim::Block, Measure::Speedup, baseline);
  else if (id == "bandwidth_vs_size")
    c = sweep_chart(id, ss, Dim::Size, Measure::Bandwidth, baseline);
  else if (id == "time_vs_size")
    c = sweep_chart(id, ss, Dim::Size, Measure::Time, baseline);
  c.id = id;
  return c;
}

}  // namespace rl::gui
