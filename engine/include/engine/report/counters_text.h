// A point's hardware counters (engine/counters/) as people read them, for every front end:
// tooltip lines for the app's table and charts, point_details, and the barrier stall the ladder
// chart and table column show.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/run/results.h"

namespace rl {

// "hardware counters (CUPTI, 7 replay passes, never timed):" then per kernel its counters by id
// ("barrier_stall 52.9%"), then the note; the note alone where none were read; none without.
std::vector<std::string> counters_lines(const PointResult& r);

// The first kernel's (or the one launch's) barrier stall, %; none without counters.
std::optional<double> barrier_stall(const PointResult& r);

}  // namespace rl
