// Registers per thread against the unroll factor, for every unroll sweep of the shown sessions:
// what unrolling costs, beside what it buys (time_vs_unroll). The numbers are the build's own
// SASS for sm_90 (the Code view's data: cuobjdump's resource usage), not a measurement of a run,
// and the subtitle says so.
#include <map>
#include <set>
#include <tuple>

#include "charts/chart_builders_internal.h"
#include "engine/code/code_view.h"

namespace rl::gui::detail {

using charts::AxisScale;
using charts::Chart;
using charts::Point;
using charts::Series;

namespace {

constexpr const char* kArch = "sm_90";

using Shape = std::tuple<std::string, int, int, int>;  // variant, workspace, block size, type

// The shapes measured at two or more unroll factors, with those factors.
std::map<Shape, std::set<int>> unroll_sweeps(const std::vector<ShownSession>& ss) {
  std::map<Shape, std::set<int>> out;
  for (const ShownSession& s : ss)
    for (const PointResult& r : s.session->results)
      out[{r.point.variant, int(r.point.workspace), r.point.block_size, int(r.point.type)}].insert(
          r.point.unroll);
  std::erase_if(out, [](const auto& kv) { return kv.second.size() < 2; });
  return out;
}

// The instantiation's sm_90 resources and its theoretical occupancy at the shape's block size.
struct Usage {
  code::Resources resources;
  std::optional<code::Occupancy> occupancy;
};

std::optional<Usage> usage_of(const Shape& shape, int unroll) {
  const auto& [variant, ws, block, type] = shape;
  try {
    const code::CodeEntry e =
        code::find_code(code::CodeQuery{variant, block, unroll, DType(type), Workspace(ws)});
    if (const auto it = e.resources.find(kArch); it != e.resources.end())
      return Usage{it->second, e.occupancy(kArch)};
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

Chart registers_vs_unroll_chart(const QString& id, const std::vector<ShownSession>& ss) {
  Chart c;
  c.id = id;
  c.title = "Registers per thread against unroll factor";
  c.subtitle =
      "sm_90 SASS of this build (cuobjdump's resource usage): what the compiler "
      "allocated, not a measurement; labels: theoretical occupancy where below 100%, spills";
  c.x.scale = AxisScale::Log2;
  c.x.title = "unroll factor U";
  c.y.title = "registers per thread";
  c.y.scale = AxisScale::Linear;
  if (!has_results(ss)) {
    c.empty_hint = no_results_hint(ss);
    return c;
  }
  if (const std::string why = code::sass_unavailable_reason(); !why.empty()) {
    c.empty_hint = "No SASS in this build, so no register counts: " + QString::fromStdString(why);
    return c;
  }
  for (const auto& [shape, unrolls] : unroll_sweeps(ss)) {
    Series line;
    const auto& [variant, ws, block, type] = shape;
    line.name = short_label(variant, 1, false) + QString(" B=%1").arg(block);
    for (int u : unrolls) {
      const std::optional<Usage> usage = usage_of(shape, u);
      if (!usage) continue;
      const code::Resources& r = usage->resources;
      Point p;
      p.x = u;
      p.y = r.registers;
      p.tooltip = QString("%1 U=%2: %3 registers per thread, %4 bytes of local memory (spills)")
                      .arg(line.name)
                      .arg(u)
                      .arg(r.registers)
                      .arg(r.local);
      // Where the registers start to cost warps: the occupancy calculator's formula.
      if (usage->occupancy) {
        const code::Occupancy& o = *usage->occupancy;
        p.tooltip += QString("; theoretical occupancy %1% (%2 warps per SM, limited by %3)")
                         .arg(o.fraction * 100, 0, 'f', 0)
                         .arg(o.warps_per_sm)
                         .arg(QString::fromStdString(o.limiter));
        if (o.fraction < 0.999) p.label = QString("occupancy %1%").arg(o.fraction * 100, 0, 'f', 0);
      }
      if (r.local > 0) p.label = QString("%1 B spilled").arg(r.local);
      line.points << p;
    }
    if (line.points.size() >= 2) c.series << line;
  }
  if (c.series.isEmpty())
    c.empty_hint =
        "No unroll sweep in this session: this chart needs a variant measured at two "
        "or more unroll factors.\nTry the preset \"#pragma unroll lab\".";
  return c;
}

}  // namespace rl::gui::detail
