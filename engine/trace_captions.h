// Internal to the trace: one caption per step in the seed's terms (stride, which threads
// work, why warps diverge or wait).
#pragma once

#include <string>

#include "block_model_ladder.h"
#include "trace.h"

namespace rl {

// `ts` holds the step's masks and counters already; `is_partial` marks the final
// write-the-partial step that make_trace appends to the plan.
std::string trace_caption(const ladder::BlockPlan& plan, const ladder::Step& s, const TraceStep& ts,
                          bool is_partial, const Trace& t);

}  // namespace rl
