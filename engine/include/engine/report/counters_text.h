// A point's hardware counters (engine/counters/) as people read them, for every front end:
// tooltip lines for the app's table and charts, point_details, and the barrier stall the ladder
// chart and table column show.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/session/results.h"

namespace rl {

// A counter's value as people read it: "52.9%" for percent metrics, else 4 significant digits.
std::string counter_value_text(std::string_view metric, double v);
// The same in a table column whose header names the counter: no unit ("52.9%", "5.36M", "812").
std::string counter_cell_text(std::string_view metric, double v);

// "hardware counters (CUPTI, 7 replay passes, never timed; median of 3 profiled launches):" then
// per kernel its counters by id, with their range over the repeats and whether it is steady
// ("barrier_stall 15.2% (11.3%..17.2%, unsteady)"), then the note; the note alone where none
// were read; none without.
std::vector<std::string> counters_lines(const PointResult& r);

// The first kernel's (or the one launch's) barrier stall, %; none without counters.
std::optional<double> barrier_stall(const PointResult& r);
// Whether that barrier stall repeated over the counter pass's repeats (counter_steady); true
// where there is no range (one repeat, or none).
bool barrier_stall_steady(const PointResult& r);

}  // namespace rl
