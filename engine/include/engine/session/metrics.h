// What a point's numbers mean, in one place for every front end (CLI table, files, charts,
// tooltips): which of its times is meant, the bandwidth that time gives, and how close the point
// comes to the least that reading its input costs (the read floor).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/bandwidth.h"
#include "engine/session/results.h"

namespace rl {

// The whole reduction as the events see it (the headline), the same with the timestamps' own
// cost taken out (what ncu counts), or the first kernel alone (what the classic ladder times).
enum class TimeBasis { Whole, Gpu, FirstKernel };

std::uint64_t input_bytes(const PointSpec& p);
std::string format_bytes(std::uint64_t b);  // "60.0 MiB", "1.0 GiB", "512 B"

// gbps as a percentage of the device's theoretical DRAM bandwidth; 0 where that is unknown.
double pct_of_theoretical(double gbps, const DeviceInfo& d);

// r's chosen time; nullptr where r lacks it (empty Summary).
const Summary* basis_time(const PointResult& r, TimeBasis b);
// Input bytes / the chosen median, GB/s; 0 where r lacks the time.
double basis_gbps(const PointResult& r, TimeBasis b);

// The floor's time compared with a point's time on b: its GPU time for Gpu, its event time
// otherwise (the first kernel is one event span, as the floor is). nullptr where it lacks it.
const Summary* floor_time(const ReadFloor& f, TimeBasis b);
// The floor's median over r's median on b, percent: 100 means the point reads its input as fast
// as a kernel that does nothing else. None where either time is missing.
std::optional<double> pct_of_read_floor(const PointResult& r, const ReadFloor& f, TimeBasis b);
// Said beside a percentage of the floor above 100: the floor is a measurement with noise of its
// own, not a bound.
std::string above_floor_note();

// A point's bandwidths and how close it comes to its roofs, on the whole reduction's time (and
// the first kernel's bandwidth): derived from its measurements and its session's device and read
// floors, never stored in a result. The session file writes them for people and scripts; nothing
// reads them back.
struct PointRates {
  double first_gbps = 0, total_gbps = 0;  // 0 where the time is missing
  double pct_of_theoretical = 0;          // 0 where the device's theoretical bandwidth is unknown
  double pct_of_read_floor = 0;           // 0 where no floor was measured at this size
};
PointRates point_rates(const PointResult& r, const DeviceInfo& d,
                       const std::vector<ReadFloor>& floors);

// "noise 2.3% > target 1.0%": why a point is flagged noisy; empty when it is not.
std::string noisy_note(const PointResult& r, double target);

}  // namespace rl
