// Two sessions point by point: the same point (variant, workspace, block size,
// unroll, N, type) measured in both, the ratio of their times and a verdict as nvbench's compare
// script gives one: faster or slower when the difference is larger than the noisier of the two
// measurements (the relative standard deviation of its samples), else the same. Points found in
// one session only are listed, never silently dropped. One home for the rule: the CLI's
// `compare` and the app present it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/session/metrics.h"
#include "engine/session/results.h"

namespace rl {

enum class Verdict { Faster, Slower, Same, NotComparable };
std::string_view to_string(Verdict v);  // "faster", "slower", "same", "not comparable"

struct PointComparison {
  PointSpec point;
  double a_ms = 0, b_ms = 0;  // medians on the chosen time
  double ratio = 0;           // b / a: below 1, B is faster
  double noise = 0;           // the larger relative standard deviation of the two
  Verdict verdict = Verdict::NotComparable;
  std::string why;  // NotComparable: "A: FAILED", "B has no GPU time", ...
};

struct SessionComparison {
  TimeBasis basis = TimeBasis::Whole;
  // Set when A and B hold different kinds of time (kinds_of_time_note): every front end says it
  // beside the verdicts, which then compare a CPU emulation with a GPU, not two kernels' speeds.
  std::string kinds_of_time;
  std::vector<PointComparison> points;  // in A's order
  std::vector<PointSpec> only_a, only_b;
  int count(Verdict v) const;
  // "12 faster, 3 slower, 5 same (B against A, GPU time); 2 not comparable; 1 only in A"
  std::string summary() const;
};

// Whether two devices' times are the same kind: GPU times (CUDA events) or CPU times of the
// host backend's emulation. Only the same kind is compared by default.
bool same_kind_of_time(const DeviceInfo& a, const DeviceInfo& b);
// "" for the same kind; else "different kinds of time: A has CPU times (host emulation), B GPU
// times; the ratios compare an emulation with a GPU, not the kernels".
std::string kinds_of_time_note(const DeviceInfo& a, const DeviceInfo& b);

// B against A on the chosen time.
SessionComparison compare_sessions(const Session& a, const Session& b,
                                   TimeBasis basis = TimeBasis::Whole);

}  // namespace rl
