// The block model's counts of a point's work on a GPU (counts.h: ModelCounts), for every variant
// with a step-by-step trace (has_trace: the classic ladder, the warp-level kernels, the single
// pass). The runner fills PointResult::counts with them on both backends; the app and the CLI
// show them, and a session saved before they existed gets them from here (counts_of).
#pragma once

#include <optional>

#include "engine/session/counts.h"
#include "engine/session/results.h"

namespace rl {

// The counts of p's launch: Trace::launch_totals of make_trace at p's size (every block of
// the first kernel), the finishing pass when one follows, the launches. None for a variant
// without a trace (vectorized, CUB) or a point the model does not take (a block size the
// variant refuses). Arithmetic over one traced block, cached per point shape: microseconds
// once cached, milliseconds at first (N = 2^28 included: the single pass's grid-capped launch
// is counted from one tile, not by generating its input). Thread-safe.
std::optional<ModelCounts> model_counts(const PointSpec& p);

// r's counts as recorded, else the model's (a session written before counts existed).
std::optional<ModelCounts> counts_of(const PointResult& r);

// The finishing pass over m partials (kernels/finish.cu): one block of 1024 threads.
StepCounters finish_pass_counts(std::uint64_t m);

}  // namespace rl
