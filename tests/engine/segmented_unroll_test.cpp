// The unroll factor a rows-and-columns point runs at where the spec asks for none: the
// variant's default, which for a thread per row depends on the row's width and for a block per
// row on the width per thread of the block (catalog_segmented.cpp).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "engine/catalog/catalog.h"
#include "engine/experiment/spec.h"

namespace rl {
namespace {

ExperimentSpec rows_spec(std::vector<std::string> variants) {
  ExperimentSpec s;
  s.variants = std::move(variants);
  s.workspaces = {Workspace::Registers};
  s.block_sizes = {256};
  s.shapes = {{1024, 32}, {1024, 127}, {1024, 128}, {1, 1000}, {7, 1}};
  s.baseline = "cub_segmented_rows";
  return s;
}

// "rowsxcols" -> unroll of every point of one variant.
std::map<std::string, int> unrolls_of(const ExperimentSpec& s, const std::string& variant) {
  std::map<std::string, int> out;
  for (const PointSpec& p : expand(s))
    if (p.variant == variant) out[p.size_text()] = p.unroll;
  return out;
}

TEST(SegmentedUnroll, AThreadPerRowTakesTwoLoadsBelow128ElementsAndFourFrom128) {
  const ExperimentSpec s = rows_spec({"row_per_thread", "row_per_warp"});
  ASSERT_EQ(expand(s).size(), count_points(s));
  EXPECT_EQ(unrolls_of(s, "row_per_thread"),
            (std::map<std::string, int>{
                {"1024x32", 2}, {"1024x127", 2}, {"1024x128", 4}, {"1x1000", 4}, {"7x1", 2}}));
  // A variant without a width rule keeps one default at every width.
  for (const auto& [shape, u] : unrolls_of(s, "row_per_warp")) EXPECT_EQ(u, 4) << shape;
}

TEST(SegmentedUnroll, ABlockPerRowTakesTwoLoadsBelowSixteenElementsAThread) {
  ExperimentSpec s = rows_spec({"row_per_block"});
  s.shapes = {{8192, 2048}, {4096, 4095}, {4096, 4096}, {16, 1 << 20}, {7, 1}};
  s.block_sizes = {128, 256};
  ASSERT_EQ(expand(s).size(), count_points(s));
  std::map<std::pair<int, std::string>, int> got;
  for (const PointSpec& p : expand(s)) got[{p.block_size, p.size_text()}] = p.unroll;
  // 16 elements a thread: 2048 at 128 threads, 4096 at 256.
  const std::map<std::pair<int, std::string>, int> want{
      {{128, "8192x2048"}, 4},  {{128, "4096x4095"}, 4}, {{128, "4096x4096"}, 4},
      {{128, "16x1048576"}, 4}, {{128, "7x1"}, 2},       {{256, "8192x2048"}, 2},
      {{256, "4096x4095"}, 2},  {{256, "4096x4096"}, 4}, {{256, "16x1048576"}, 4},
      {{256, "7x1"}, 2}};
  EXPECT_EQ(got, want);
}

TEST(SegmentedUnroll, AFactorAskedForWinsAtEveryWidth) {
  ExperimentSpec s = rows_spec({"row_per_thread"});
  s.unroll_factors = {8};
  for (const auto& [shape, u] : unrolls_of(s, "row_per_thread")) EXPECT_EQ(u, 8) << shape;
  s.unroll_factors = {1, 4};
  ASSERT_EQ(expand(s).size(), count_points(s));
  EXPECT_EQ(expand(s).size(), 10u);
}

TEST(SegmentedUnroll, TheDefaultAtAWidthComesFromTheCatalog) {
  const VariantInfo* v = find_variant_by_id("row_per_thread");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->default_unroll_at(0), v->default_unroll);  // no shape known
  EXPECT_EQ(v->default_unroll_at(127), 2);
  EXPECT_EQ(v->default_unroll_at(128), 4);
  EXPECT_TRUE(v->takes_unroll(v->short_row_unroll));
  const VariantInfo* block = find_variant_by_id("row_per_block");
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->default_unroll_at(2048, 256), 2);
  EXPECT_EQ(block->default_unroll_at(4096, 256), 4);
  EXPECT_EQ(block->default_unroll_at(2048, 0), block->default_unroll);  // block not known
  EXPECT_TRUE(block->takes_unroll(block->short_row_unroll));
  for (const VariantInfo& other : catalog())
    if (other.id != "row_per_thread" && other.id != "row_per_block")
      EXPECT_EQ(other.default_unroll_at(32, 256), other.default_unroll);
}

}  // namespace
}  // namespace rl
