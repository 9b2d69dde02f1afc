#include "engine/counters/line_sample_pass.h"

#include "counters/pc_sampler.h"
#include "engine/counters/counter_pass.h"

namespace rl {

PointLineSamples LineSamplePass::measure(Backend& backend, const PointSpec& p) {
  PointLineSamples out;
  const int steps = backend.counter_steps();
  if (steps == 0) {
    out.note = "no line samples on the " + backend.device().backend +
               " backend: program counters are sampled on a GPU";
    return out;
  }
  if (!unavailable_.empty()) {
    out.note = unavailable_;
    return out;
  }
  const DeviceInfo& d = backend.device();
  out.arch = "sm_" + std::to_string(d.compute_capability());
  out.period_log2 = settings_.period_log2;
  const std::string context = p.label();
  try {
    PcSampler sampler(d.index, settings_.period_log2);
    for (int k = 0; k < steps; ++k) {
      PcSampler::Taken t = sampler.sample(
          counter_role(k, steps), [&] { backend.counter_setup(k, true); },
          [&] { backend.counter_launch(k); }, settings_.min_samples, settings_.max_launches,
          context);
      out.launches = std::max(out.launches, t.launches);
      out.dropped += t.dropped;
      for (SampledFunction& f : t.functions) out.functions.push_back(std::move(f));
    }
    if (out.dropped > 0)
      out.note = std::to_string(out.dropped) + " samples dropped by the hardware (buffer full)";
  } catch (const CountersUnavailable& e) {
    const std::string why = std::string("no line samples: ") + e.what();
    const std::string w = e.what();
    if (w.find("not permitted") != std::string::npos || w.find("could not be loaded") !=
                                                             std::string::npos ||
        w.find("cannot sample") != std::string::npos)
      unavailable_ = why;
    out = PointLineSamples{};
    out.note = why;
  } catch (const std::exception& e) {
    out = PointLineSamples{};
    out.note = std::string("no line samples: ") + e.what();
  }
  return out;
}

}  // namespace rl
