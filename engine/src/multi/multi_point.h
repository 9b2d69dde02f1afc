// One multi-GPU point: sampled until quiet, summarized per GPU and over the GPUs, verified
// against the host.
#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "engine/session/multi_results.h"
#include "multi/multi_rig.h"

namespace rl {

// Warm-up, then samples until the total's noise is below the target (after min_samples), or
// max_samples, or four budgets spent; then the values read back and verified. Throws rl::Error
// (a CUDA or NCCL call failed); returns false when cancelled (the point is dropped).
bool measure_point(Rig& rig, NcclClique* clique, const TimingOptions& timing,
                   const ExpectedSums& expected, const std::atomic<bool>* cancel,
                   MultiPoint* point);

// The checks alone, on values read back (tested without a GPU): int32 exactly, float32 within
// float_tolerance (verify.h) of the double-precision sums. Fills value, expected, the shares'
// partials, status and message.
void verify_multi(const RigValues& values, const ExpectedSums& expected, MultiPoint* point);

// Per-GPU and over-the-GPUs summaries of the samples (RankTimes per rank per sample).
void summarize_multi(const std::vector<std::vector<RankTimes>>& samples, MultiPoint* point);

// The samples of one point: timing.warmup samples thrown away, then one_sample() until quiet by
// the one stopping rule (measure/sampling.h) on the slowest GPU's total, exactly as a one-GPU
// point is sampled on its total; summarized into *point, noisy where the rule ran out first.
// False when cancelled (nothing summarized).
bool sample_multi_point(const TimingOptions& timing, const std::atomic<bool>* cancel,
                        const std::function<std::vector<RankTimes>()>& one_sample,
                        MultiPoint* point);

}  // namespace rl
