// The multi-GPU charts, from a multi-GPU session (engine/session/multi_results.h):
// the phases of each exchange stacked (local reduction, exchange), time against the number of
// GPUs, and bandwidth against the number of GPUs beside the summed read roofs, the measured
// link and the NVLink roof (or why the session has none). Plain data out (charts::Chart), as the
// other builders.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

#include "charts/chart_builders.h"  // ChartKind
#include "charts/chart_data.h"
#include "engine/session/multi_results.h"

namespace rl::gui {

// The multi-GPU charts, in display order (ids "multi_phases", "multi_scaling",
// "multi_bandwidth").
const std::vector<ChartKind>& multi_chart_kinds();

// Builds chart `id` for the session's points at `size` and `type` (size 0: the largest size of
// the session, the first type).
charts::Chart build_multi_chart(const QString& id, const MultiSession& s, std::uint64_t size = 0,
                                DType type = DType::Int32);

}  // namespace rl::gui
