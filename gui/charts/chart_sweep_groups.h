// Internal to chart_sweeps.cpp and chart_sweep_groups.cpp: a sweep chart's analysis, apart from
// its drawing. Every usable point grouped by all its dimensions but the swept one; a group with
// two or more values of the swept dimension is one series.
#pragma once

#include <QStringList>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "charts/chart_builders_internal.h"

namespace rl::gui::detail {

double x_value(const PointSpec& p, Dim d);

struct Group {
  int session = 0;
  PointSpec proto;  // the point's fixed dimensions (the swept one is meaningless)
  std::vector<const PointResult*> points;
  std::vector<std::optional<double>> speedups;  // with points, on the chosen time
  std::set<double> xs;
  std::set<double> all_xs;  // with the points left out for want of the time
};

// Points the chart cannot draw, counted while grouping, said under the chart.
struct Tally {
  int failed = 0, wrong = 0, no_baseline = 0, baseline_lacks = 0;
  QStringList wrong_names;
};

std::map<std::string, Group> group_points(const std::vector<ShownSession>& ss, Dim dim, Measure m,
                                          const std::string& baseline, TimeBasis basis,
                                          BasisNotes& notes, Tally& t);

// The groups with at least two values of the swept dimension, in catalog order.
std::vector<Group> sweeps_of(const std::map<std::string, Group>& groups);

}  // namespace rl::gui::detail
