#include "engine/counters/line_count_pass.h"

#include <algorithm>

#include "counters/sass_counter.h"
#include "engine/counters/counter_pass.h"

namespace rl {

LineCountPass::LineCountPass(int device) {
  if (device < 0) return;
  try {
    counter_ = std::make_unique<SassCounter>(device);
  } catch (const std::exception& e) {
    unavailable_ = std::string("no line counts: ") + e.what();
  }
}

LineCountPass::~LineCountPass() = default;

void LineCountPass::measure(Backend& backend, const PointSpec& p, PointLineSamples& into) {
  const int steps = backend.counter_steps();
  if (steps == 0) {
    into.count_note = "no line counts on the " + backend.device().backend +
                      " backend: executed instructions are counted on a GPU";
    return;
  }
  if (!unavailable_.empty()) {
    into.count_note = unavailable_;
    return;
  }
  const DeviceInfo& d = backend.device();
  const std::string arch = "sm_" + std::to_string(d.compute_capability());
  if (!counter_) {
    into.count_note = "no line counts: SASS metrics were not configured on " + d.name;
    return;
  }
  if (!into.arch.empty() && into.arch != arch) {
    into.count_note = "no line counts: the samples are of " + into.arch + ", this GPU runs " + arch;
    return;
  }
  const std::string context = p.label();
  std::vector<SampledFunction> counted;
  std::uint64_t dropped = 0;
  // Every launch step in one session (CUPTI counts once per process: sass_counter.h): the first
  // kernel, then the finishing pass over the partials it just wrote. The finishing pass is its
  // own function (kernels/finish.cu), so a record's function says its step.
  auto role_of = [&](const std::string& function) {
    if (steps == 1) return counter_role(0, 1);
    return counter_role(function.find("finish_partials") != std::string::npos ? 1 : 0, steps);
  };
  try {
    SassCounter::Counted c = counter_->count(
        role_of, [&] { backend.counter_setup(0, true); },
        [&] {
          for (int k = 0; k < steps; ++k) backend.counter_launch(k);
        },
        context);
    dropped += c.dropped;
    add_line_counts(counted, c.functions);
  } catch (const CountersUnavailable& e) {
    // Profiling refused is refused for every later point too: asked once.
    const std::string why = std::string("no line counts: ") + e.what();
    if (why.find("not permitted") != std::string::npos) unavailable_ = why;
    into.count_note = why;
    return;
  } catch (const std::exception& e) {
    into.count_note = std::string("no line counts: ") + e.what();
    return;
  }
  into.arch = arch;
  into.counted_launches = 1;
  add_line_counts(into.functions, counted);
  if (dropped > 0)
    into.count_note = std::to_string(dropped) + " SASS records dropped by CUPTI (not read in time)";
  else if (counted.empty())
    into.count_note = "CUPTI returned no executed instructions for this point's kernels";
}

void add_line_counts(std::vector<SampledFunction>& into,
                     const std::vector<SampledFunction>& counted) {
  for (const SampledFunction& c : counted) {
    auto f = std::find_if(into.begin(), into.end(), [&](const SampledFunction& s) {
      return s.function == c.function && s.role == c.role;
    });
    if (f == into.end()) f = into.insert(into.end(), SampledFunction{c.role, c.function, {}});
    for (const SampledPc& pc : c.pcs) {
      auto at = std::find_if(f->pcs.begin(), f->pcs.end(),
                             [&](const SampledPc& s) { return s.offset == pc.offset; });
      if (at == f->pcs.end()) at = f->pcs.insert(f->pcs.end(), SampledPc{pc.offset, {}});
      at->inst_executed += pc.inst_executed;
      at->thread_inst_executed += pc.thread_inst_executed;
    }
    std::stable_sort(f->pcs.begin(), f->pcs.end(),
                     [](const SampledPc& a, const SampledPc& b) { return a.offset < b.offset; });
  }
}

}  // namespace rl
