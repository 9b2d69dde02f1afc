// Phase alignment of side-by-side traces (engine/views/phase_align.h): both views reach "last
// warp" on the same frame, a trace with fewer steps in a phase holds its frame, a phase only one
// trace has holds the other, and the frames walk each trace forward to its end.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/trace/trace.h"
#include "engine/views/phase_align.h"

namespace rl {
namespace {

Trace trace_of(const char* v, int block, int unroll, Workspace w = Workspace::Shared) {
  return make_trace({v, block, unroll, w, 0, DType::Int32, 0});
}

// Every frame of each trace appears, in order, and the last aligned frame is both ends.
void expect_walks_both(const std::vector<AlignedFrame>& f, const Trace& a, const Trace& b) {
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().frame_a, 0);
  EXPECT_EQ(f.front().frame_b, 0);
  EXPECT_EQ(f.back().frame_a, int(a.steps.size()));
  EXPECT_EQ(f.back().frame_b, int(b.steps.size()));
  for (std::size_t i = 1; i < f.size(); ++i) {
    EXPECT_LE(f[i - 1].frame_a, f[i].frame_a);
    EXPECT_LE(f[i - 1].frame_b, f[i].frame_b);
    EXPECT_LE(f[i].frame_a - f[i - 1].frame_a, 1);
    EXPECT_LE(f[i].frame_b - f[i - 1].frame_b, 1);
    EXPECT_TRUE(f[i].frame_a != f[i - 1].frame_a || f[i].frame_b != f[i - 1].frame_b);
  }
}

TEST(PhaseAlign, StepKindsBelongToTheCatalogsPhases) {
  EXPECT_EQ(phase_of("load"), TracePhase::Load);
  EXPECT_EQ(phase_of("path_b"), TracePhase::Map);
  EXPECT_EQ(phase_of("vote"), TracePhase::Vote);
  EXPECT_EQ(phase_of("skipped"), TracePhase::Tree);
  EXPECT_EQ(phase_of("last_warp"), TracePhase::LastWarp);
  EXPECT_EQ(phase_of("shuffle"), TracePhase::LastWarp);
  EXPECT_EQ(phase_of("atomic"), TracePhase::Write);
  EXPECT_EQ(phase_name(TracePhase::LastWarp), "last warp");
  EXPECT_EQ(phase_of("something new"), TracePhase::Other);
}

TEST(PhaseAlign, BothViewsShowLastWarpTogether) {
  // reduceUnrollWarp8 has a load, 4 tree steps and 6 last-warp steps at B = 1024; the
  // interleaved tree has no last warp at all: it holds its last tree frame meanwhile.
  const Trace a = trace_of("unroll_warp_sync", 1024, 8);
  const Trace b = trace_of("interleaved", 1024, 1);
  const std::vector<AlignedFrame> f = align_by_phase(a, b);
  expect_walks_both(f, a, b);
  const auto warp = std::find_if(
      f.begin(), f.end(), [](const AlignedFrame& x) { return x.phase == TracePhase::LastWarp; });
  ASSERT_NE(warp, f.end());
  EXPECT_EQ(a.steps[warp->frame_a - 1].kind, "last_warp");
  EXPECT_TRUE(warp->b_holds);
  // Tree: the interleaved kernel's 10 levels against 4: the unroll kernel holds 6 frames.
  const auto tree_frames = std::count_if(
      f.begin(), f.end(), [](const AlignedFrame& x) { return x.phase == TracePhase::Tree; });
  EXPECT_EQ(tree_frames, 10);
  const auto a_holds_in_tree = std::count_if(f.begin(), f.end(), [](const AlignedFrame& x) {
    return x.phase == TracePhase::Tree && x.a_holds;
  });
  EXPECT_EQ(a_holds_in_tree, 6);
}

TEST(PhaseAlign, WarpLevelKernelsAgainstTheLadderAndALab) {
  const Trace shfl = make_trace({"warp_shuffle", 256, 2, Workspace::Registers, 0, DType::Int32, 0});
  const Trace ladder = trace_of("complete_unroll_sync", 256, 2);
  const std::vector<AlignedFrame> f = align_by_phase(shfl, ladder);
  expect_walks_both(f, shfl, ladder);
  for (const AlignedFrame& x : f) {
    if (x.frame_a > 0 && !x.a_holds) {
      EXPECT_EQ(phase_of(shfl.steps[x.frame_a - 1].kind), x.phase);
    }
    if (x.frame_b > 0 && !x.b_holds) {
      EXPECT_EQ(phase_of(ladder.steps[x.frame_b - 1].kind), x.phase);
    }
  }
  const Trace count =
      make_trace({"count_syncthreads_count", 64, 4, Workspace::Registers, 0, DType::Int32, 0});
  const Trace tree =
      make_trace({"count_shared_tree", 64, 4, Workspace::Registers, 0, DType::Int32, 0});
  expect_walks_both(align_by_phase(count, tree), count, tree);
  EXPECT_EQ(align_by_phase(count, count).size(), count.steps.size() + 1);  // nothing held
}

}  // namespace
}  // namespace rl
