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

// The rows and columns variants (VariantInfo::is_segmented; block_model_segmented.cpp): one sum
// per row (column) of the point's rows x cols matrix in the partials, their sum as the total
// (total_from_segments). int32 exactly in int64. float32 in a stated order, the same for every
// such variant: each row (column) into 32 float accumulators, element k of it into accumulator
// k % 32 in order, then a tree over the accumulators (16, 8, 4, 2, 1), a warp's order; the GPU
// kernels may add in another order, so float32 is checked within a tolerance
// (measure/verify.h), not bit for bit. nullopt for a variant that is not one of them; throws
// rl::Error for a point without a shape.
std::optional<ReductionOutput> model_reduce_segmented(const PointSpec& p, const InputData& input);

// Every row's (column's) sum of the point's matrix in double, exact for int32 (int64 values)
// and as close as double gets for float32: what verification compares each sum with.
std::vector<double> exact_segment_sums(const PointSpec& p, const InputData& input);

// What branch_partitioned maps: cub::DevicePartition::If's output for "x >= 256 - k", the
// selected elements in order, then the rejected ones in reverse order.
std::vector<std::int32_t> cub_partitioned(const std::vector<std::int32_t>& x, int k);

}  // namespace rl
