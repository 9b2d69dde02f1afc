// The hardware counters ReductionLab can read per kernel (Nsight Compute's metric names, read
// through CUPTI's range profiler: cupti_profiler.h). One catalog line per counter: adding one is
// adding a line to counter_catalog.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/session/counter_values.h"

namespace rl {

struct CounterInfo {
  std::string_view id;       // short, stable: "barrier_stall" (CLI lists, table columns)
  std::string_view metric;   // the ncu / CUPTI metric: "smsp__warp_issue_stalled_barrier_..."
  std::string_view unit;     // "%", "threads", "instructions", "conflicts", ...
  std::string_view column;   // a live-table header of at most 8 characters
  std::string_view meaning;  // one line
  bool in_default = false;   // part of `--counters` without a list
  bool percent() const { return unit == "%"; }
};

// Every counter, in the order tables show them.
const std::vector<CounterInfo>& counter_catalog();

// By id or by metric name; nullptr when unknown.
const CounterInfo* find_counter(std::string_view id_or_metric);

// The ids of the default set (barrier stall, the other top stalls, uniformity, threads per
// instruction, occupancy, DRAM, L2, bank conflicts, instructions and branches executed: every
// counter the classic ladder's argument uses; barriers executed are the block model's, counts.h).
std::vector<std::string> default_counters();

// "default", "all", or a comma list of ids or metric names (mixed with "default"), duplicates
// dropped, catalog order kept. Throws rl::Error naming the unknown item and listing the ids.
std::vector<std::string> parse_counter_list(std::string_view text);

// Whether two values of a counter agree: within 2 percentage points for percent metrics (ncu's
// `.pct` and `.pct_of_peak_...`, the catalog's unit %), else within 5% of the larger, or both
// within 1 of zero (counts of a few events). The one rule that calls a counter steady (its
// repeats' lowest and highest values agree); scripts/counters_vs_ncu.py holds the app to ncu
// by the same tolerances (5% of ncu's value there).
bool counter_values_agree(std::string_view metric, double a, double b);
// A counter whose repeats agree with each other by that rule.
inline bool counter_steady(std::string_view metric, CounterRange r) {
  return counter_values_agree(metric, r.lo, r.hi);
}

// The metric names of ids (every id must be in the catalog).
std::vector<std::string> counter_metrics(const std::vector<std::string>& ids);

}  // namespace rl
