// What a saved session cannot hold if it is true: negative or NaN times, infinite samples, a
// block size of -1024 (or 0 for a variant with block sizes of its own), a grid of 0 blocks for a
// point that ran, unroll 0, N = 0 or past 2^40, negative GB/s, percentages or speed-ups, a device
// with -1 SMs, one point twice, a sample count that disagrees with the samples recorded (a session
// may leave the raw samples out; when it has them, their count is the summary's). The session
// reader (export_json_read.cpp), the stream reader (stream_read.cpp) and so the app and the CLI
// refuse such a file with the field named, as they refuse a mistyped one: this is the one place.
#pragma once

#include <cstdint>
#include <string>

#include "engine/session/results.h"

namespace rl {

// Throw rl::Error naming the field: "results[3].total.median_ms: -1 is not a time (negative)",
// "results[0].first_samples_ms: 3 samples, but first_kernel.samples says 40".
void check_plausible(const PointResult& r, const std::string& path);
void check_plausible(const ReadFloor& f, const std::string& path);
// "device.sm_count: -1 is not a count (negative)".
void check_plausible(const DeviceInfo& d, const std::string& path);
// Across the points: "results[7]: interleaved/global B=256 U=1 N=1024 int32 appears twice".
void check_session(const Session& s);

// The largest N a point may have (as the size grammar, experiment/grammar.h).
inline constexpr std::uint64_t kMaxPointSize = std::uint64_t(1) << 40;

}  // namespace rl
