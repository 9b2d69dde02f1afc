// Internal to chart_ladder.cpp and chart_ladder_rungs.cpp: a ladder chart's analysis, apart from
// its drawing. The rungs (variant, unroll) in catalog order at the chosen setting; one bar set
// per (session, workspace), with its point at each rung and the point its speed-ups are against.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "charts/chart_builders_internal.h"

namespace rl::gui::detail {

struct LadderBars {
  int session = 0;
  int workspace = 0;
  std::vector<const PointResult*> at;  // one per rung; null where the set has no point
  const PointResult* ref = nullptr;    // what the speed-ups are against; null: none
};

struct Ladder {
  std::vector<std::pair<std::string, int>> rungs;  // (variant, unroll), in catalog order
  std::vector<LadderBars> bars;
  bool baseline_lacks = false;  // the baseline is on the ladder, but not in the chosen time
  double max_ms = 0;            // the longest charted time
};

// Analysis: the points at the chosen setting that have the chosen time; the points left out
// for want of it are said in notes.
Ladder ladder_points(const std::vector<ShownSession>& ss, const LadderSetting& chosen,
                     const std::string& baseline, TimeBasis basis, BasisNotes& notes);

}  // namespace rl::gui::detail
