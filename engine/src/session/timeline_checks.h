// What timeline_analysis.cpp and timeline_problems() share: the checks that decide whether a
// warp's marks read as a timeline, and the time base (session/timeline_analysis.h says how it
// is derived). One set of checks, so a timeline that passes timeline_problems() never makes the
// analysis throw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/session/timeline.h"

namespace rl::timeline_detail {

std::string_view mark_kind_name(MarkKind k);  // "Start", "Phase", "Arrive", "Release", "End"

// "block slot 1 (block 5), warp 2": where a problem is, as every message names it.
std::string warp_place(const MeasuredTimeline& t, std::size_t slot, unsigned warp);

// The first thing that keeps w's marks from reading as one warp's run (no Start, clocks going
// backwards, Release without its Arrive, barrier ordinals out of order, marks after End, no End
// on a warp that was not truncated); empty when they read.
std::string warp_marks_problem(const WarpTimeline& w);

struct SmZero {
  std::uint64_t clock0 = 0, ns0 = 0;          // the SM's earliest mark (by clock)
  std::uint64_t clock_last = 0, ns_last = 0;  // its latest mark
  double offset_ns = 0;                       // ns0 minus the earliest ns0 of the timeline
};

struct TimeBase {
  double cycles_per_ns = 0;
  std::map<unsigned, SmZero> sms;  // by %smid; empty when the timeline has no marks
  // ns after the timeline's earliest mark of a clock stamped on `sm`.
  double at(unsigned sm, std::uint64_t clock) const {
    const SmZero& z = sms.at(sm);
    return z.offset_ns + double(clock - z.clock0) / cycles_per_ns;
  }
};

// Fills `base` from t's marks; returns why it cannot (the longest-running SM's %globaltimer or
// clock64 does not advance), empty when it can or when there are no marks at all.
std::string read_time_base(const MeasuredTimeline& t, TimeBase& base);

}  // namespace rl::timeline_detail
