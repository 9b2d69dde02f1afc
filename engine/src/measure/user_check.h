// A user kernel checked before it is timed (docs/user-kernels.md, "Checked before it is timed"):
// run on awkward sizes and inputs and compared with the host, so a kernel that is right only on
// the run's own sizes and data never gets a bar.
#pragma once

#include <atomic>
#include <string>

#include "engine/backend/backend.h"

namespace rl {

// Runs p's kernel (its block size, unroll and type) on every size of user_check_sizes() (and
// p.size when it is at most 2^24) with the deterministic input, all negative values, all equal
// values and, for int32, the int32 extremes. Returns "" when every total is right (int32 exactly,
// float32 within the tolerance against a double sum), else what was wrong: the size and input,
// the expected total and what came back, and for int32 on the engine's plan the first block
// whose partial differs. Leaves the backend released. Throws what the backend throws.
std::string check_user_point(Backend& backend, const PointSpec& p, const std::atomic<bool>* cancel);

}  // namespace rl
