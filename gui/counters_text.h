// A point's hardware counters (engine/counters/) as people read them: tooltip lines for the
// results table and the charts, and the barrier stall the ladder chart and table column show.
#pragma once

#include <QString>

#include <optional>

#include "results.h"

namespace rl::gui {

// "hardware counters (CUPTI, 7 replay passes, never timed):" then per kernel its counters by id
// ("barrier_stall 52.9%"), then the note; the note alone where none were read; empty without.
QString counters_text(const PointResult& r);

// The first kernel's (or the one launch's) barrier stall, %; none without counters.
std::optional<double> barrier_stall(const PointResult& r);

}  // namespace rl::gui
