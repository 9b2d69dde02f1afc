#include "engine/counters/counter_pass.h"

#include "counters/cupti_profiler.h"
#include "engine/counters/counter_catalog.h"

namespace rl {

CounterPass::CounterPass(std::vector<std::string> ids) : metrics_(counter_metrics(ids)) {}
CounterPass::~CounterPass() = default;

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
    for (int k = 0; k < steps; ++k)
      for (KernelCounters& kc : profiler_->profile(
               counter_role(k, steps), [&] { backend.counter_setup(k, false); },
               [&] { backend.counter_flush(); }, [&] { backend.counter_launch(k); }, context))
        out.kernels.push_back(std::move(kc));
    out.note = profiler_->note();
    out.passes = profiler_->passes();
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
