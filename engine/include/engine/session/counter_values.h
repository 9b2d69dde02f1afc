// Hardware counters measured for one point: plain value types on PointResult (results.h), read
// and written by the exporters (counters_io.h). Filled by the counter pass (counter_pass.h), a
// run of its own after the timed samples: counters never come from a timed run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rl {

// The lowest and highest value of a counter over the repeats of a counter pass.
struct CounterRange {
  double lo = 0, hi = 0;
  bool operator==(const CounterRange&) const = default;
};

// One profiled range: one launch step of the reduction.
struct KernelCounters {
  // "first_kernel" (the kernel the classic ladder times), "finish" (the finishing pass) or "whole"
  // (one launch that reduces to the total by itself: single pass, CUB's device reduce); a launch of
  // several kernels adds "<role>_2", ... for the second and later (CUB's single-tile kernel).
  std::string role;
  // Metric name -> value, in the order asked for; a metric the GPU does not report is absent.
  // With several repeats (PointCounters::repeats) the median of the repeats' values.
  std::vector<std::pair<std::string, double>> values;
  // Metric name -> its lowest and highest value over the repeats, for the metrics in values;
  // empty with one repeat (and in sessions saved before repeats).
  std::vector<std::pair<std::string, CounterRange>> ranges;
  std::optional<double> value(std::string_view metric) const {
    for (const auto& [m, v] : values)
      if (m == metric) return v;
    return std::nullopt;
  }
  std::optional<CounterRange> range(std::string_view metric) const {
    for (const auto& [m, r] : ranges)
      if (m == metric) return r;
    return std::nullopt;
  }
  bool operator==(const KernelCounters&) const = default;
};

struct PointCounters {
  std::vector<KernelCounters> kernels;  // in launch order
  // Why there are none, or why some are missing ("profiling is not permitted: ...", "metric
  // X not available on this GPU"); empty when every counter asked for was read.
  std::string note;
  // Replay passes CUPTI needed per kernel (every pass reruns the kernel; times never come
  // from these runs).
  int passes = 0;
  // How many times each kernel was profiled whole (each time `passes` replays): the values are
  // the median of the repeats, ranges their spread. 1 in sessions saved before repeats.
  int repeats = 1;
  const KernelCounters* kernel(std::string_view role) const {
    for (const KernelCounters& k : kernels)
      if (k.role == role) return &k;
    return nullptr;
  }
  // The kernel the classic ladder measures: the first kernel, else the one launch.
  const KernelCounters* headline() const {
    const KernelCounters* k = kernel("first_kernel");
    return k ? k : kernel("whole");
  }
  bool operator==(const PointCounters&) const = default;
};

}  // namespace rl
