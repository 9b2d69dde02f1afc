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

#include "engine/core/metrics.h"
#include "engine/run/results.h"

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
  std::vector<PointComparison> points;  // in A's order
  std::vector<PointSpec> only_a, only_b;
  int count(Verdict v) const;
  // "12 faster, 3 slower, 5 same (B against A, GPU time); 2 not comparable; 1 only in A"
  std::string summary() const;
};

// B against A on the chosen time.
SessionComparison compare_sessions(const Session& a, const Session& b,
                                   TimeBasis basis = TimeBasis::Whole);

}  // namespace rl
