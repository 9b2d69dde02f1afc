// Synthetic measured timelines for the analysis and JSON tests: every %globaltimer value follows
// from the clock at a chosen rate, so the expected times are exact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/session/timeline.h"

namespace rl::test {

// An SM's clocks: the clock and %globaltimer of its zero and its rate (cycles per ns).
struct SmClock {
  std::uint64_t clock0 = 0, ns0 = 0;
  std::uint64_t cycles_per_ns = 2;
  TimelineMark mark(MarkKind kind, std::uint64_t clock, unsigned index = 0,
                    std::string phase = {}) const {
    return {kind, std::move(phase), index, clock, ns0 + (clock - clock0) / cycles_per_ns};
  }
};

// One warp of the reduction's shape: Start, Phase "load", one barrier, Phase "tree" (stride 16),
// End; all clocks relative to `sm.clock0`.
inline WarpTimeline one_barrier_warp(const SmClock& sm, unsigned warp, std::uint64_t start,
                                     std::uint64_t arrive, std::uint64_t release,
                                     std::uint64_t end) {
  const std::uint64_t c = sm.clock0;
  WarpTimeline w;
  w.warp = warp;
  w.marks = {sm.mark(MarkKind::Start, c + start),
             sm.mark(MarkKind::Phase, c + start + 10, 0, "load"),
             sm.mark(MarkKind::Arrive, c + arrive, 0),
             sm.mark(MarkKind::Release, c + release, 0),
             sm.mark(MarkKind::Phase, c + release + 10, 16, "tree"),
             sm.mark(MarkKind::End, c + end)};
  return w;
}

// The 4-warp block the tests share: every warp starts at 0 and ends at 1910; warp 2 arrives
// last at barrier 0 (1800), the barrier releases them all at 1810.
inline BlockTimeline four_warp_block(const SmClock& sm, unsigned block, unsigned sm_id,
                                     std::uint64_t shift = 0) {
  BlockTimeline b;
  b.block = block;
  b.sm = sm_id;
  const std::uint64_t arrivals[4] = {1200, 1400, 1800, 1300};
  for (unsigned w = 0; w < 4; ++w)
    b.warps.push_back(
        one_barrier_warp(sm, w, shift, shift + arrivals[w], shift + 1810, shift + 1910));
  return b;
}

inline MeasuredTimeline timeline_with(std::vector<BlockTimeline> blocks) {
  MeasuredTimeline t;
  t.variant = "interleaved";
  t.label = "reduceInterleaved";
  t.block_size = 128;
  t.size = 1 << 20;
  t.grid = 8192;
  t.selection = "blocks";
  t.blocks = std::move(blocks);
  t.device = "Test GPU";
  t.recorded_utc = "2026-12-05T10:00:00Z";
  return t;
}

}  // namespace rl::test
