// The counter pass of a point: after its timed samples and verification, each launch step of
// the reduction (first kernel, finishing pass; or the one launch of a single-pass variant) is
// profiled in a range of its own with CUPTI (cupti_profiler.h), kCounterRepeats times. Nothing
// timed runs while the profiler is enabled, and no time comes from a profiled run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/session/counter_values.h"

namespace rl {

class CuptiProfiler;

// How many times the counter pass profiles each kernel. The stall shares of a one-block kernel
// of a few microseconds (a finishing pass) move by up to 11 points from one profiled launch to
// the next, under Nsight Compute as under CUPTI (measured on the H200): one launch
// cannot say whether a difference between two rungs is real. Three give a median and a range.
inline constexpr int kCounterRepeats = 3;

// One kernel's repeats (the same role) as one: each metric's median over the repeats that read
// it, and its lowest and highest value where more than one did.
KernelCounters combine_repeats(const std::vector<KernelCounters>& repeats);

class CounterPass {
 public:
  // ids: counter ids or metric names (counter_catalog.h); every id must be in the catalog.
  explicit CounterPass(std::vector<std::string> ids, int repeats = kCounterRepeats);
  ~CounterPass();
  CounterPass(const CounterPass&) = delete;
  CounterPass& operator=(const CounterPass&) = delete;

  // The counters of the point prepared on `backend` (after its samples). Never throws for a
  // counter problem: a point whose counters cannot be read gets none, and note says why (no
  // GPU, no CUPTI, profiling not permitted, ...). The first such reason is kept for every later
  // point, so a refused profiler is asked once.
  PointCounters measure(Backend& backend, const PointSpec& p);

  const std::vector<std::string>& metrics() const { return metrics_; }

 private:
  std::vector<std::string> metrics_;
  int repeats_;
  std::unique_ptr<CuptiProfiler> profiler_;
  std::string unavailable_;
};

// The role of launch step k of n ("first_kernel", "finish"; "whole" when n == 1).
std::string counter_role(int step, int steps);

}  // namespace rl
