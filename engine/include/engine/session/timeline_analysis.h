// The numbers derived from a measured timeline (session/timeline.h), in one place for the CLI,
// the app's timeline view, its chart export and the docs' tables.
//
// Time base: within one SM, clock64 is exact and shared by every warp, so marks are placed by
// their clock, converted to ns at the SM clock rate the recording itself shows (clock delta over
// %globaltimer delta, from the earliest to the latest mark of the timeline's longest-running SM);
// each SM's zero is its earliest mark's %globaltimer, so blocks on different SMs line up to
// %globaltimer's resolution. Times are ns after the earliest mark of the timeline.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/session/timeline.h"

namespace rl {

// One stretch of one warp between two consecutive marks.
struct TimelineSpan {
  enum class Kind { Work, BarrierWait };
  unsigned block_slot = 0;  // index into MeasuredTimeline::blocks
  unsigned warp = 0;
  Kind kind = Kind::Work;
  std::string phase;   // Work: the phase the warp is in ("" before any Phase mark)
  unsigned index = 0;  // Work: the phase mark's index; BarrierWait: the barrier's ordinal
  double start_ns = 0, end_ns = 0;
  std::uint64_t start_clock = 0, end_clock = 0;  // as stamped
};

// One __syncthreads() of one block: when its warps arrived and left.
struct BarrierTiming {
  unsigned block_slot = 0;
  unsigned ordinal = 0;       // the barrier's ordinal (as TimelineMark::index)
  unsigned warps = 0;         // warps that arrived
  unsigned slowest_warp = 0;  // the last to arrive: every other warp waited for it
  double first_arrival_ns = 0, last_arrival_ns = 0, last_release_ns = 0;
  double wait_sum_ns = 0;  // release - arrival summed over the warps
};

struct TimelineSummary {
  double cycles_per_ns = 0;     // the SM clock the recording shows (GHz)
  double span_ns = 0;           // earliest to latest mark over the recorded blocks
  double block_median_ns = 0;   // median over recorded blocks of (last End - first Start)
  double warp_time_sum_ns = 0;  // every warp's End - Start, summed
  double barrier_wait_sum_ns = 0;
  double barrier_wait_share = 0;  // barrier_wait_sum_ns / warp_time_sum_ns (0..1)
  // twin / real median kernel time (1.05 = the instrumentation adds 5 %); 0 when not measured.
  double instrumentation_cost = 0;
  unsigned truncated_warps = 0;
  // A block's share of the twin's kernel time, what the timing says one block takes: the twin's
  // median x the blocks the SMs hold at once / the blocks of the launch (the launch runs in that
  // many waves). Beside block_median_ns, the block as the marks saw it. 0 when not known.
  double twin_block_share_ns = 0;
  // Work time per phase name summed over warps, in first-seen order.
  std::vector<std::pair<std::string, double>> phase_ns;
};

// Throws rl::Error naming the block and warp when the marks cannot be read as a timeline
// (clocks going backwards, Release without Arrive, no Start).
std::vector<TimelineSpan> timeline_spans(const MeasuredTimeline& t);
std::vector<BarrierTiming> barrier_timings(const MeasuredTimeline& t);
TimelineSummary summarize_timeline(const MeasuredTimeline& t);

// What is wrong with a timeline read from a file, one message per problem, empty when fine
// (bounds of session/timeline.h, marks out of order, warps past the block size).
std::vector<std::string> timeline_problems(const MeasuredTimeline& t);

}  // namespace rl
