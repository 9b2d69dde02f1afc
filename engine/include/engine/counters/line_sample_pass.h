// The line-sample pass of a point (per-line metrics): after its timed samples, its
// verification and any counter pass, each launch step of the reduction is run again with CUPTI's
// PC sampling on, repeated until enough warp samples are taken, so the Code view can say which
// instructions and source lines the warps were waiting at, and why. Nothing timed runs while
// sampling is on, and no time comes from a sampled run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "engine/backend/backend.h"
#include "engine/session/line_samples.h"

namespace rl {

struct LineSampleSettings {
  int period_log2 = 10;                // a sample every 1024 cycles per SM sub-partition
  std::uint64_t min_samples = 100000;  // per launch step, when max_launches allows
  int max_launches = 100;              // per launch step
};

class PcSampler;

class LineSamplePass {
 public:
  // Enables PC sampling on CUDA device `device` now (nothing is sampled until a point's pass
  // starts it) and keeps it enabled: CUPTI places samples only in kernels whose code it saw
  // loaded while enabled, or loaded before it first started (measured on the H200: a kernel
  // loaded between a disable and the next enable is "not a user kernel" and its samples come
  // back without PCs). device < 0 (the host): no sampling, notes say so.
  explicit LineSamplePass(int device, LineSampleSettings s = {});
  ~LineSamplePass();
  LineSamplePass(const LineSamplePass&) = delete;
  LineSamplePass& operator=(const LineSamplePass&) = delete;

  // The samples of the point prepared on `backend`. Never throws for a sampling problem: a
  // point whose samples cannot be taken gets none, and note says why (no GPU, no CUPTI, PC
  // sampling not permitted). A refusal is kept for every later point, so it is asked once.
  PointLineSamples measure(Backend& backend, const PointSpec& p);

  const LineSampleSettings& settings() const { return settings_; }

 private:
  LineSampleSettings settings_;
  std::unique_ptr<PcSampler> sampler_;
  std::string unavailable_;
};

}  // namespace rl
