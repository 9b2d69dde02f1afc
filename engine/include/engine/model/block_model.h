// The per-block algorithm of every variant, executed on the host with the GPU's partitioning
// into blocks and the GPU's order of additions, so its partials and total equal the GPU's bit
// for bit (int32 and float32). The reference in tests and in the runner's verification, and
// the engine of the host backend.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/experiment/input_data.h"
#include "engine/experiment/spec.h"

namespace rl {

// A whole launch on the host: every block's partial (first kernel) and the finishing pass's
// total. nullopt when the variant has no host model (e.g. CUB).
std::optional<ReductionOutput> model_reduce(const PointSpec& p, const InputData& input);

// The two passes of model_reduce() separately, for the host backend's two timings. Classic-ladder
// variants only: model_first_pass() gives nullopt for others (their first pass is not
// separable here; use model_reduce()). It fills the partials and leaves the total at 0;
// model_finish() fills the total from the partials as kernels/finish.cu does.
// Both throw rl::Error for a point the variant does not take (the message names the value).
std::optional<ReductionOutput> model_first_pass(const PointSpec& p, const InputData& input);
void model_finish(ReductionOutput& out);

// Modern variants (kernels past the classic ladder); defined in block_model_modern.cpp. nullopt
// when the variant is not modelled there. model_reduce() forwards non-ladder variants to it.
std::optional<ReductionOutput> model_reduce_modern(const PointSpec& p, const InputData& input);

// The labs (kernels/lab_*.cu; block_model_labs.cpp): int32 only, exact. nullopt for a variant
// that is not a lab; throws rl::Error for a point the lab does not take.
std::optional<ReductionOutput> model_reduce_labs(const PointSpec& p, const InputData& input);

// What branch_partitioned maps: cub::DevicePartition::If's output for "x >= 256 - k", the
// selected elements in order, then the rejected ones in reverse order.
std::vector<std::int32_t> cub_partitioned(const std::vector<std::int32_t>& x, int k);

}  // namespace rl
