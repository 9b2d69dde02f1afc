// Sample statistics and the stopping rule for timing.
#pragma once

#include <vector>

namespace rl {

struct Summary {
  int samples = 0;
  double median_ms = 0, mean_ms = 0, min_ms = 0, max_ms = 0, stddev_ms = 0;
  // Relative standard error of the mean (stddev / sqrt(samples) / mean): how sure the mean is.
  // Sampling stops once it drops below the spec's noise threshold.
  double noise = 0;
  bool empty() const { return samples == 0; }
};

Summary summarize(const std::vector<double>& samples_ms);

// The samples with the timestamps taken out: each minus spans x the floor's median. Empty when
// there is no floor (nothing timed on a GPU) or no samples.
Summary gpu_time_of(const std::vector<double>& total_samples_ms, const Summary& floor, int spans);

}  // namespace rl
