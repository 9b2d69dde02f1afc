// Hand-made measured timelines for the timeline view's tests: no GPU recorded these, and they
// say so (device "hand-made for a test"). Every block runs on one SM at a 2 GHz clock whose
// %globaltimer agrees exactly, so a mark at `at` ns after the first has clock 2 x at.
#pragma once

#include <cstdint>
#include <string>

#include "engine/session/timeline.h"

namespace rl::gui::test {

inline TimelineMark mark(MarkKind kind, double at_ns, const std::string& phase = {},
                         unsigned index = 0) {
  TimelineMark m;
  m.kind = kind;
  m.phase = phase;
  m.index = index;
  m.ns = 1'000'000 + std::uint64_t(at_ns);
  m.clock = 5'000'000 + std::uint64_t(2 * at_ns);
  return m;
}

// One warp of the interleaved kernel at B=64: load, barrier 0, tree stride 32, barrier 1, tree
// stride 16 (warp 0 only; warp 1 is idle from there on), write (warp 0). Warp 1 arrives last at
// both barriers: it is the slowest. t0: when the block starts.
inline WarpTimeline interleaved_warp(unsigned warp, double t0) {
  WarpTimeline w;
  w.warp = warp;
  const double late = warp * 60.0;  // warp 1 loads 60 ns longer
  w.marks = {mark(MarkKind::Start, t0 + warp * 4),
             mark(MarkKind::Phase, t0 + warp * 4, "load"),
             mark(MarkKind::Arrive, t0 + 200 + late, {}, 0),
             mark(MarkKind::Release, t0 + 270, {}, 0),
             mark(MarkKind::Phase, t0 + 270, "tree", 32),
             mark(MarkKind::Arrive, t0 + 330 + warp * 30, {}, 1),
             mark(MarkKind::Release, t0 + 370, {}, 1),
             mark(MarkKind::Phase, t0 + 370, "tree", 16)};
  if (warp == 0) w.marks.push_back(mark(MarkKind::Phase, t0 + 420, "write"));
  w.marks.push_back(mark(MarkKind::End, t0 + (warp == 0 ? 460 : 380)));
  return w;
}

// Two blocks (17 and 18) of one SM (3), the second starting 150 ns after the first.
inline MeasuredTimeline two_block_timeline(const std::string& variant = "interleaved",
                                           const std::string& label = "reduceInterleaved") {
  MeasuredTimeline t;
  t.variant = variant;
  t.label = label;
  t.block_size = 64;
  t.unroll = 1;
  t.size = std::uint64_t(1) << 20;
  t.grid = t.size / 64;
  t.selection = "sm";
  t.sm = 3;
  t.device = "hand-made for a test";
  t.recorded_utc = "2026-12-05T10:00:00Z";
  for (unsigned b = 0; b < 2; ++b) {
    BlockTimeline block;
    block.block = 17 + b;
    block.sm = 3;
    for (unsigned w = 0; w < 2; ++w) block.warps.push_back(interleaved_warp(w, b * 150.0));
    t.blocks.push_back(block);
  }
  t.twin_median_ms = 1.07;
  t.real_median_ms = 1.0;
  t.cost_runs = 20;
  return t;
}

// A larger hand-made timeline for looking at: 4 blocks of 8 warps (B=256) on one SM, the
// interleaved pattern with a deterministic spread of arrivals.
inline MeasuredTimeline four_block_timeline(const std::string& variant, const std::string& label,
                                            double slower) {
  MeasuredTimeline t = two_block_timeline(variant, label);
  t.block_size = 256;
  t.blocks.clear();
  for (unsigned b = 0; b < 4; ++b) {
    BlockTimeline block;
    block.block = 40 + b * 132;
    block.sm = 3;
    for (unsigned w = 0; w < 8; ++w) {
      const double t0 = b * 230.0 * slower + w * 3;
      const double jitter = ((w * 37 + b * 11) % 9) * 9.0 * slower;
      WarpTimeline warp;
      warp.warp = w;
      double now = t0;
      warp.marks = {mark(MarkKind::Start, now), mark(MarkKind::Phase, now, "load")};
      now = t0 + 240 * slower + jitter;
      const double release0 = b * 230.0 * slower + 240 * slower + 80 * slower + 10;
      warp.marks.push_back(mark(MarkKind::Arrive, now, {}, 0));
      warp.marks.push_back(mark(MarkKind::Release, release0, {}, 0));
      double at = release0;
      unsigned ordinal = 1;
      for (unsigned stride = 128; stride >= 32; stride /= 2, ++ordinal) {
        warp.marks.push_back(mark(MarkKind::Phase, at, "tree", stride));
        const bool acts = w * 32 < stride;
        const double arrive = at + (acts ? 40 + (w % 3) * 8 : 6);
        warp.marks.push_back(mark(MarkKind::Arrive, arrive, {}, ordinal));
        at = at + 40 + 2 * 8 + 12;
        warp.marks.push_back(mark(MarkKind::Release, at, {}, ordinal));
      }
      if (w == 0) {
        warp.marks.push_back(mark(MarkKind::Phase, at, "last warp", 32));
        at += 60;
        warp.marks.push_back(mark(MarkKind::Phase, at, "write"));
        at += 25;
      }
      warp.marks.push_back(mark(MarkKind::End, at + 2));
      block.warps.push_back(warp);
    }
    t.blocks.push_back(block);
  }
  return t;
}

}  // namespace rl::gui::test
