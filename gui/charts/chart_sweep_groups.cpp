// A sweep chart's analysis (chart_sweep_groups.h): points grouped into series, what is left out
// counted. The drawing is chart_sweeps.cpp.
#include "charts/chart_sweep_groups.h"

#include <algorithm>
#include <tuple>

#include "format.h"

namespace rl::gui::detail {

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

namespace {

auto order_key(const Group& g) {
  const PointSpec& p = g.proto;
  return std::make_tuple(catalog_index(p.variant), p.variant, p.unroll, int(p.workspace),
                         p.block_size, p.size, int(p.type), g.session);
}

}  // namespace

// Analysis: every usable point, grouped by all its dimensions but the swept one.
std::map<std::string, Group> group_points(const std::vector<ShownSession>& ss, Dim dim, Measure m,
                                          const std::string& baseline, TimeBasis basis,
                                          BasisNotes& notes, Tally& t) {
  std::map<std::string, Group> groups;
  for (int si = 0; si < int(ss.size()); ++si) {
    const std::vector<PointResult>& results = ss[si].session->results;
    const BasisSpeedups sp =
        m == Measure::Speedup ? basis_speedups(results, baseline, basis) : BasisSpeedups{};
    for (size_t i = 0; i < results.size(); ++i) {
      const PointResult& r = results[i];
      // A matrix's sums are the rows and columns charts' (chart_matrix.cpp): against N they
      // would stand among whole arrays of as many elements, a different reduction.
      if (r.point.is_matrix()) continue;
      if (r.status == PointStatus::Failed || r.status == PointStatus::Skipped) {
        ++t.failed;
        continue;
      }
      const PointSpec& p = r.point;
      if (dim == Dim::Block && p.block_size <= 0) continue;  // the variant picks its own
      if (r.status == PointStatus::Wrong) {
        ++t.wrong;
        t.wrong_names << QString("%1 %2 B=%3 %4")
                             .arg(variant_label(p.variant, p.unroll), ws_name(p.workspace))
                             .arg(block_size_text(p.block_size))
                             .arg(size_label(p));
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
        ++(sp.baseline_lacks_time[i] ? t.baseline_lacks : t.no_baseline);
        continue;
      }
      g.points.push_back(&r);
      g.speedups.push_back(m == Measure::Speedup ? sp.value[i] : std::nullopt);
      g.xs.insert(x_value(p, dim));
    }
  }
  return groups;
}

std::vector<Group> sweeps_of(const std::map<std::string, Group>& groups) {
  std::vector<Group> kept;
  for (const auto& [k, g] : groups)
    if (g.xs.size() >= 2) kept.push_back(g);
  std::sort(kept.begin(), kept.end(),
            [](const Group& a, const Group& b) { return order_key(a) < order_key(b); });
  return kept;
}

}  // namespace rl::gui::detail
