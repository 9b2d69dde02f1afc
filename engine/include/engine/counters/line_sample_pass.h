// The line-sample pass of a point (issue 11, per-line metrics): after its timed samples, its
// verification and any counter pass, each launch step of the reduction is run again with CUPTI's
// PC sampling on, repeated until enough warp samples are taken, so the Code view can say which
// instructions and source lines the warps were waiting at, and why. Nothing timed runs while
// sampling is on, and no time comes from a sampled run.
#pragma once

#include <cstdint>
#include <string>

#include "engine/counters/line_samples.h"
#include "engine/run/backend.h"

namespace rl {

struct LineSampleSettings {
  int period_log2 = 10;                // a sample every 1024 cycles per SM sub-partition
  std::uint64_t min_samples = 100000;  // per launch step, when max_launches allows
  int max_launches = 100;              // per launch step
};

class LineSamplePass {
 public:
  explicit LineSamplePass(LineSampleSettings s = {}) : settings_(s) {}

  // The samples of the point prepared on `backend`. Never throws for a sampling problem: a
  // point whose samples cannot be taken gets none, and note says why (no GPU, no CUPTI, PC
  // sampling not permitted). A refusal is kept for every later point, so it is asked once.
  PointLineSamples measure(Backend& backend, const PointSpec& p);

  const LineSampleSettings& settings() const { return settings_; }

 private:
  LineSampleSettings settings_;
  std::string unavailable_;
};

}  // namespace rl
