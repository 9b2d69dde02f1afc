// How every timed thing is sampled, on one GPU or several (measure/runner.cpp: points and read
// floors; multi/multi_point.cpp and multi/shard_gpu.cpp: multi-GPU points and their floors): one
// stopping rule, so a point means the same wherever it was measured (docs/cli.md, "Noise").
#pragma once

#include <atomic>
#include <chrono>
#include <vector>

#include "engine/core/stats.h"
#include "engine/experiment/spec.h"

namespace rl {

// A point still above the noise target when its budget is spent samples on, up to this many
// budgets in all, before it is reported noisy.
inline constexpr double kNoisyBudgets = 4;

// Appends one() (a timed run, ms) to samples until quiet: at least min_samples, then until the
// relative standard error of the mean is below the target, or the budget (kNoisyBudgets budgets
// while still noisy) or max_samples runs out. True when the target was met. Sets *cancelled and
// stops when *cancel is set (checked before every sample).
template <typename OneSample>
bool sample_until_quiet(const TimingOptions& t, const std::atomic<bool>* cancel, bool* cancelled,
                        std::vector<double>& samples, OneSample one) {
  using Clock = std::chrono::steady_clock;
  const auto begin = Clock::now();
  while (true) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return *cancelled = true, false;
    samples.push_back(one());
    const int n = static_cast<int>(samples.size());
    if (n < t.min_samples) continue;
    if (summarize(samples).noise < t.noise) return true;
    if (n >= t.max_samples) return false;
    const double spent_ms = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
    if (spent_ms >= kNoisyBudgets * t.budget_ms) return false;
  }
}

}  // namespace rl
