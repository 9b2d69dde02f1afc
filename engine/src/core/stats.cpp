#include "engine/core/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace rl {

Summary summarize(const std::vector<double>& samples_ms) {
  Summary s;
  if (samples_ms.empty()) return s;
  std::vector<double> v = samples_ms;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.samples = static_cast<int>(n);
  s.min_ms = v.front();
  s.max_ms = v.back();
  s.median_ms = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.mean_ms = std::accumulate(v.begin(), v.end(), 0.0) / double(n);
  if (n > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean_ms) * (x - s.mean_ms);
    s.stddev_ms = std::sqrt(ss / double(n - 1));
    s.noise = s.mean_ms > 0 ? s.stddev_ms / std::sqrt(double(n)) / s.mean_ms : 0;
  } else {
    s.noise = 1.0;  // one sample says nothing about its spread
  }
  return s;
}

Summary gpu_time_of(const std::vector<double>& total_samples_ms, const Summary& floor, int spans) {
  if (floor.empty() || spans <= 0) return {};
  std::vector<double> v;
  v.reserve(total_samples_ms.size());
  for (double t : total_samples_ms) v.push_back(t - spans * floor.median_ms);
  return summarize(v);
}

}  // namespace rl
