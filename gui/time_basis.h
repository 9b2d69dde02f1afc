// Which of a point's three times the charts draw: the whole reduction as the events see it (the
// headline), the same with the timestamps' own cost taken out (what ncu counts), or the first
// kernel alone (what the seed times with nvprof). Plain data in, plain data out: no Qt Charts.
// A point without the chosen time is left out and counted, never drawn with another time.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

#include "metrics.h"
#include "results.h"

namespace rl::gui {

using rl::TimeBasis;  // the engine's (metrics.h), with basis_time and basis_gbps

const std::vector<TimeBasis>& time_bases();  // the selector's order
QString time_basis_key(TimeBasis b);         // "whole", "gpu", "first": settings and --time
std::optional<TimeBasis> parse_time_basis(const QString& key);
QString time_basis_choice(TimeBasis b);  // the selector's entry: "GPU time (timestamps out)"
QString time_basis_name(TimeBasis b);    // in subtitles: "GPU time" ("GPU time, median")
// The time axis: "time, whole reduction (µs)", "GPU time (µs)", "time, first kernel (µs)".
QString time_axis_title(TimeBasis b, const QString& unit);

// One kernel does the whole reduction (e.g. single_pass): its first kernel is the whole.
bool one_kernel(const PointResult& r);

// What a chart says about its time: the points it leaves out for want of the time, and (first
// kernel) the points whose only kernel is the whole reduction, so they are not read as faster
// or slower first kernels.
struct BasisNotes {
  explicit BasisNotes(TimeBasis b) : basis(b) {}
  TimeBasis basis;
  int missing = 0;
  QStringList missing_variants, one_kernel_variants;
  // r's time; or nullptr, counting r as missing.
  const Summary* time_of(const PointResult& r);
  // "4 points have no GPU time (measured before it existed, or on the CPU): not drawn", ...
  QStringList warnings() const;
};
// A tooltip line giving what is charted, for bases other than Whole (point_details already
// gives the whole reduction): "charted: GPU time, median 8.10 µs (min ..., max ...), 32.4 GB/s".
QString charted_details(const PointResult& r, TimeBasis b);

// Speed-ups on the chosen time, one per result (same order): the baseline's median over the
// point's, Ok points only, the baseline matched as rl::compute_speedups does (same size and
// type; preferring the same workspace, then block size, then unroll). Whole: the stored,
// engine-computed speedup. A point whose matched baseline lacks the time gets none and is
// flagged in baseline_lacks_time.
struct BasisSpeedups {
  std::vector<std::optional<double>> value;
  std::vector<bool> baseline_lacks_time;
};
BasisSpeedups basis_speedups(const std::vector<PointResult>& results, const std::string& baseline,
                             TimeBasis b);

}  // namespace rl::gui
