// Measured warp timelines (session/timeline.h) as JSON: alone, in a session file (its
// "timelines"), and as `reductionlab-cli trace --measured` writes one with its derived numbers.
// The schema is in docs/cli.md ("The timeline JSON"). Marks are small arrays, [kind, phase,
// index, clock, ns], with the phase names in one table per timeline; clocks and ns are written
// as exact 64-bit integers.
#pragma once

#include <string>
#include <string_view>

#include "engine/session/timeline.h"

namespace rl {

std::string timeline_to_json(const MeasuredTimeline& t, int indent = -1);

// Reads a timeline, or the "timeline" of a document trace --measured wrote. Throws rl::Error
// naming the first bad field ("blocks[0].warps[3].marks[5][0]: unknown mark kind 'X' (expected
// S, P, A, R or E)"), a bound passed ("blocks: 17 blocks; at most 16") or what
// timeline_problems() finds in it.
MeasuredTimeline timeline_from_json(std::string_view text);

// {"timeline": ..., "summary": ..., "barriers": [...]}: the timeline with the numbers derived
// from it (session/timeline_analysis.h). Throws as the analysis does for unreadable marks.
std::string timeline_report_json(const MeasuredTimeline& t, int indent = -1);

}  // namespace rl
