#include "engine/counters/counter_pass.h"

#include <algorithm>
#include <cmath>

#include "counters/cupti_profiler.h"
#include "engine/counters/counter_catalog.h"

namespace rl {

CounterPass::CounterPass(std::vector<std::string> ids, int repeats)
    : metrics_(counter_metrics(ids)), repeats_(std::max(repeats, 1)) {}
CounterPass::~CounterPass() = default;

KernelCounters combine_repeats(const std::vector<KernelCounters>& repeats) {
  KernelCounters out;
  if (repeats.empty()) return out;
  out.role = repeats.front().role;
  for (const auto& [metric, first] : repeats.front().values) {
    std::vector<double> seen;  // finite values only: a ratio over nothing reads as NaN
    for (const KernelCounters& k : repeats)
      if (const auto v = k.value(metric); v && std::isfinite(*v)) seen.push_back(*v);
    if (seen.empty()) {
      out.values.emplace_back(metric, first);
      continue;
    }
    std::sort(seen.begin(), seen.end());
    const std::size_t mid = seen.size() / 2;
    out.values.emplace_back(metric, seen.size() % 2 ? seen[mid] : (seen[mid - 1] + seen[mid]) / 2);
    if (seen.size() > 1) out.ranges.emplace_back(metric, CounterRange{seen.front(), seen.back()});
  }
  return out;
}

std::string counter_role(int step, int steps) {
  if (steps == 1) return "whole";
  return step == 0 ? "first_kernel" : "finish";
}

PointCounters CounterPass::measure(Backend& backend, const PointSpec& p) {
  PointCounters out;
  const int steps = backend.counter_steps();
  if (steps == 0) {
    out.note = "no hardware counters on the " + backend.device().backend +
               " backend: counters are read on a GPU";
    return out;
  }
  if (!unavailable_.empty()) {
    out.note = unavailable_;
    return out;
  }
  const std::string context = p.label();
  try {
    if (!profiler_) profiler_ = std::make_unique<CuptiProfiler>(backend.device().index, metrics_);
    for (int k = 0; k < steps; ++k) {
      // runs[r]: the step's kernels (one, or CUB's two) in repeat r, in launch order.
      std::vector<std::vector<KernelCounters>> runs;
      for (int r = 0; r < repeats_; ++r)
        runs.push_back(profiler_->profile(
            counter_role(k, steps), [&] { backend.counter_setup(k, false); },
            [&] { backend.counter_flush(); }, [&] { backend.counter_launch(k); }, context));
      for (const KernelCounters& kernel : runs.front()) {
        std::vector<KernelCounters> same;
        for (const auto& run : runs)
          for (const KernelCounters& kc : run)
            if (kc.role == kernel.role) same.push_back(kc);
        out.kernels.push_back(combine_repeats(same));
      }
    }
    out.note = profiler_->note();
    out.passes = profiler_->passes();
    out.repeats = repeats_;
  } catch (const CountersUnavailable& e) {
    // CUPTI missing, profiling refused, or a profiler that cannot be set up: the same for
    // every later point, said once per point instead of retried.
    const std::string why = std::string("no counters: ") + e.what();
    if (!profiler_ || why.find("not permitted") != std::string::npos) unavailable_ = why;
    out = PointCounters{};
    out.note = why;
  } catch (const std::exception& e) {
    out = PointCounters{};
    out.note = std::string("no counters: ") + e.what();
  }
  return out;
}

}  // namespace rl
