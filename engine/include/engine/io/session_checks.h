// What a saved session cannot hold if it is true: negative or NaN times, a block size of -1024,
// unroll 0, N = 0, a sample count that disagrees with the samples recorded (a session may
// leave the raw samples out; when it has them, their count is the summary's). The session reader
// (export_json_read.cpp) refuses such a file with the field named, as it refuses a mistyped one.
#pragma once

#include <string>

#include "engine/run/results.h"

namespace rl {

// Throw rl::Error naming the field: "results[3].total.median_ms: -1 is not a time (negative)",
// "results[0].first_samples_ms: 3 samples, but first_kernel.samples says 40".
void check_plausible(const PointResult& r, const std::string& path);
void check_plausible(const ReadFloor& f, const std::string& path);

}  // namespace rl
