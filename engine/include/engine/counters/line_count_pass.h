// The line-count pass of a point: after its timed samples and its verification, each launch step
// of the reduction is run once more with CUPTI's SASS metrics on, so the Code view can say how
// many instructions each SASS and source line executed, and with how many of a warp's 32 threads
// (thread efficiency: where the lanes of a divergent branch sat out). The counts are exact and
// go into the point's PointLineSamples, beside any samples, per (function, PC offset). Nothing
// timed runs while counting is on, and no time comes from a counted run.
//
// Not in one run with PC sampling (line_sample_pass.h) or the counters (counter_pass.h): the SASS
// metrics patch the kernels' code with instrumentation, so PC samples taken meanwhile would fall
// on patched code and the profiler's counters would count the instrumentation too; and CUPTI's
// profiler and PC sampling already refuse to share a context (runner.h
// kCountersOrLineSamples). A run takes one of the three.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/counters/line_samples.h"
#include "engine/run/backend.h"

namespace rl {

class SassCounter;

class LineCountPass {
 public:
  // Configures the SASS metrics on CUDA device `device` now (nothing is counted until a point's
  // pass enables them around its launches). device < 0 (the host): no counts, notes say so.
  explicit LineCountPass(int device);
  ~LineCountPass();
  LineCountPass(const LineCountPass&) = delete;
  LineCountPass& operator=(const LineCountPass&) = delete;

  // Counts the point prepared on `backend` into `into` (its arch set where empty,
  // counted_launches, count_note, and each PC's counts, merged by add_line_counts). Never
  // throws for a counting problem: a point whose counts cannot be taken gets none, and
  // count_note says why (no GPU, no CUPTI, not permitted). A refusal is kept for every later
  // point, so it is asked once.
  void measure(Backend& backend, const PointSpec& p, PointLineSamples& into);

 private:
  std::unique_ptr<SassCounter> counter_;
  std::string unavailable_;
};

// Adds the counts of `counted` to `into`, matching functions by (role, function) and PCs by
// offset: counts add up, samples are kept, and a function or PC `into` lacks is added (a PC that
// executed but was never sampled); each function's PCs stay by offset.
void add_line_counts(std::vector<SampledFunction>& into,
                     const std::vector<SampledFunction>& counted);

}  // namespace rl
