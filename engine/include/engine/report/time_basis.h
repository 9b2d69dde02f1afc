// Which of a point's three times a table or chart uses, named once for every front end: the
// whole reduction as the events see it (the headline), the same with the timestamps' own cost
// taken out (what ncu counts), or the first kernel alone (what the classic ladder times). A point
// without the chosen time is left out and counted, never shown with another time.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/session/metrics.h"
#include "engine/session/results.h"

namespace rl {

const std::vector<TimeBasis>& time_bases();  // the selectors' order
std::string time_basis_key(TimeBasis b);     // "whole", "gpu", "first": settings and --time
std::optional<TimeBasis> parse_time_basis(std::string_view key);
std::string time_basis_choice(TimeBasis b);  // a selector's entry: "GPU time (timestamps out)"
std::string time_basis_name(TimeBasis b);    // in subtitles and headers: "GPU time"
// The time axis: "time, whole reduction (µs)", "GPU time (µs)", "time, first kernel (µs)".
std::string time_axis_title(TimeBasis b, const std::string& unit);

// One kernel does the whole reduction (e.g. single_pass): its first kernel is the whole.
bool one_kernel(const PointResult& r);

// What a view says about its time: the points it leaves out for want of the time, and (first
// kernel) the points whose only kernel is the whole reduction, so they are not read as faster
// or slower first kernels.
struct BasisNotes {
  explicit BasisNotes(TimeBasis b) : basis(b) {}
  TimeBasis basis;
  int missing = 0;
  std::vector<std::string> missing_variants, one_kernel_variants;
  // r's time; or nullptr, counting r as missing.
  const Summary* time_of(const PointResult& r);
  // "4 points have no GPU time (measured before it existed, or on the CPU): not drawn", ...
  std::vector<std::string> warnings() const;
};
// A line giving the time used, for bases other than Whole (point_details gives the whole):
// "charted: GPU time, median 8.10 µs (min ..., max ...), 32.4 GB/s".
std::string charted_details(const PointResult& r, TimeBasis b);

// Speed-ups on the chosen time, one per result (same order): the baseline's median over the
// point's, Ok points only, the baseline matched as compute_speedups does (same size and type;
// preferring the same workspace, then block size, then unroll). Whole: the stored speedup. A
// point whose matched baseline lacks the time gets none and is flagged in baseline_lacks_time.
struct BasisSpeedups {
  std::vector<std::optional<double>> value;
  std::vector<bool> baseline_lacks_time;
};
BasisSpeedups basis_speedups(const std::vector<PointResult>& results, const std::string& baseline,
                             TimeBasis b);

// A point's derived numbers on a chosen time, as a table row shows them: its bandwidth, % of
// the read floor at its size and of the theoretical bandwidth, and its speed-up against the
// baseline among `results` (on the same time). Zero / none where the time or the roof is missing.
struct BasisMetrics {
  double gbps = 0;
  std::optional<double> pct_of_read_floor;
  double pct_of_theoretical = 0;
  std::optional<double> speedup;
};
// r = s.results[i]; the speed-up is the one basis_speedups gives over s.results.
BasisMetrics basis_metrics(const Session& s, std::size_t i, TimeBasis b);

}  // namespace rl
