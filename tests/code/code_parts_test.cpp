// The Code view's parts on fixed inputs: SASS classification, the line diff and occupancy.
#include <gtest/gtest.h>

#include "engine/code/line_diff.h"
#include "engine/code/occupancy.h"
#include "engine/code/sass_counts.h"

namespace rl::code {
namespace {

TEST(SassCounts, ClassifiesOpcodesWithPredicatesAndModifiers) {
  EXPECT_EQ(sass_opcode("/*0070*/               @P0 BRA 0x4f0 ;"), "BRA");
  EXPECT_EQ(sass_opcode("/*0080*/ @!PT LDS.U.128 R4, [R2] ;"), "LDS.U.128");
  EXPECT_EQ(sass_opcode("// Function : x"), "");
  const SassCounts c = count_sass(
      "/*0000*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;\n/*0010*/ SHFL.DOWN PT, R3, R2, 0x10, 0x1f ;\n"
      "/*0020*/ BSSY B0, 0x100 ;\n/*0030*/ @P0 BRA 0x50 ;\n/*0040*/ BSYNC B0 ;\n"
      "/*0050*/ LDG.E R2, desc[UR4][R2.64] ;\n/*0060*/ STS [R0], R2 ;\n/*0070*/ STL [R1], R5 ;\n"
      "/*0080*/ LDC R1, c[0x0][0x28] ;\n/*0090*/ EXIT ;\n");
  EXPECT_EQ(c.instructions, 10);
  EXPECT_EQ(c.barrier, 1);
  EXPECT_EQ(c.shuffle, 1);
  EXPECT_EQ(c.branch, 3);
  EXPECT_EQ(c.load, 1);  // LDC reads a constant bank, not data
  EXPECT_EQ(c.store, 2);
  EXPECT_EQ(c.local_store, 1);
  EXPECT_EQ(c.of(SassClass::Other), 2);
}

TEST(LineDiff, KeepsCommonLinesAndMarksTheChange) {
  const auto d = diff_lines(split_lines("a\nb\nc\nd"), split_lines("a\nx\nc\nd\ne"));
  const DiffStats s = diff_stats(d);
  EXPECT_EQ(s.same, 3);
  EXPECT_EQ(s.removed, 1);
  EXPECT_EQ(s.added, 2);
  EXPECT_EQ(format_diff(d, "old", "new"), "--- old\n+++ new\n  a\n- b\n+ x\n  c\n  d\n+ e\n");
}

TEST(LineDiff, SideBySidePairsAChangeRowByRow) {
  using Kind = DiffLine::Kind;
  const auto rows =
      side_by_side(diff_lines(split_lines("a\nb\nc\nd"), split_lines("a\nx\ny\nc\ne")));
  ASSERT_EQ(rows.size(), 5u);  // a, b/x, /y, c, d/e
  EXPECT_EQ(rows[0].old_text, "a");
  EXPECT_EQ(rows[0].new_text, "a");
  EXPECT_EQ(rows[1].old_kind, Kind::Removed);
  EXPECT_EQ(rows[1].old_text, "b");
  EXPECT_EQ(rows[1].new_kind, Kind::Added);
  EXPECT_EQ(rows[1].new_text, "x");
  EXPECT_EQ(rows[2].old_line, -1);  // the left side padded
  EXPECT_EQ(rows[2].new_text, "y");
  EXPECT_EQ(rows[3].old_text, "c");
  EXPECT_EQ(rows[3].old_line, 2);
  EXPECT_EQ(rows[3].new_line, 3);
  // Every line of both texts appears once, in order.
  std::string left, right;
  for (const DiffRow& r : rows) {
    if (r.old_line >= 0) left += r.old_text;
    if (r.new_line >= 0) right += r.new_text;
  }
  EXPECT_EQ(left, "abcd");
  EXPECT_EQ(right, "axyce");
}

TEST(Occupancy, FollowsTheCalculatorsFormula) {
  const SmLimits h100 = *sm_limits("sm_90");
  // 1024 threads, 32 registers: 2 blocks fill the 64 warps.
  Occupancy o = theoretical_occupancy(h100, 32, 0, 1024);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(o.fraction, 1.0);
  // 64 registers: 64 * 32 = 2048 per warp, 32 warps fit: one 1024-thread block.
  o = theoretical_occupancy(h100, 64, 0, 1024);
  EXPECT_EQ(o.blocks_per_sm, 1);
  EXPECT_EQ(o.limiter, "registers");
  // 32-thread blocks: the 32-block limit leaves half the warps empty.
  o = theoretical_occupancy(h100, 16, 0, 32);
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.limiter, "blocks");
  // 100 KB of shared memory per block: two fit in 228 KB.
  o = theoretical_occupancy(h100, 16, 100 * 1024, 128);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.limiter, "shared memory");
  EXPECT_FALSE(sm_limits("sm_52"));
}

}  // namespace
}  // namespace rl::code
