// Side-by-side traces with different step counts, aligned by phase: each step's kind belongs to
// a phase of the block's work (load, per-element work, vote, tree, last warp, write partial), and
// the two traces' runs of phases are matched in order (longest common subsequence), so both
// views show "last warp" together. Within a matched phase the trace with fewer steps holds its
// last frame; a phase only one trace has holds the other. Plain data for the animation panel.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/trace/trace.h"

namespace rl {

enum class TracePhase { Start, Load, Map, Vote, Tree, LastWarp, Write, Other };

// "start", "load", "per-element work", "vote", "tree", "last warp", "write partial", "other".
std::string_view phase_name(TracePhase p);
// The phase of a step kind (TraceStep::kind): "load" -> Load, "path_a" -> Map, "vote" and
// "ballot" -> Vote, "tree" / "warp_sums" / "gather" -> Tree, "last_warp" / "shuffle" /
// "warp_reduce" -> LastWarp, "write_partial" / "atomic" / "cluster" -> Write.
TracePhase phase_of(std::string_view kind);

struct AlignedFrame {
  int frame_a = 0, frame_b = 0;  // the frame each view shows (0: the start; k: after step k-1)
  TracePhase phase = TracePhase::Start;
  bool a_holds = false, b_holds = false;  // that view shows a frame it already showed
};

// The aligned frames: the first is both starts; the last shows both traces' last frames.
std::vector<AlignedFrame> align_by_phase(const Trace& a, const Trace& b);

}  // namespace rl
