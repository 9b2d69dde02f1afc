#include "engine/counters/line_sample_pass.h"

#include "counters/pc_sampler.h"
#include "engine/counters/counter_pass.h"

namespace rl {

LineSamplePass::LineSamplePass(int device, LineSampleSettings s) : settings_(s) {
  if (device < 0) return;
  try {
    sampler_ = std::make_unique<PcSampler>(device, settings_.period_log2);
  } catch (const std::exception& e) {
    unavailable_ = std::string("no line samples: ") + e.what();
  }
}

LineSamplePass::~LineSamplePass() = default;

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
  if (!sampler_) {
    out.note = "no line samples: PC sampling was not enabled on " + d.name;
    return out;
  }
  const std::string context = p.label();
  std::uint64_t non_user = 0;
  try {
    for (int k = 0; k < steps; ++k) {
      PcSampler::Taken t = sampler_->sample(
          counter_role(k, steps), [&] { backend.counter_setup(k, true); },
          [&] { backend.counter_launch(k); }, settings_.min_samples, settings_.max_launches,
          context);
      out.launches = std::max(out.launches, t.launches);
      out.dropped += t.dropped;
      non_user += t.non_user;
      for (SampledFunction& f : t.functions) out.functions.push_back(std::move(f));
    }
    if (out.dropped > 0)
      out.note = std::to_string(out.dropped) + " samples dropped by the hardware (buffer full)";
    else if (out.functions.empty())
      out.note = "CUPTI returned no program counters for this point's kernels (" +
                 std::to_string(non_user) + " samples counted in kernels it does not place)";
  } catch (const std::exception& e) {
    out.functions.clear();
    out.note = std::string("no line samples: ") + e.what();
  }
  return out;
}

}  // namespace rl
