// Spec validation names each bad value; expansion gives each variant only what it takes.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/catalog/catalog.h"
#include "engine/device/device.h"
#include "engine/experiment/grammar.h"
#include "engine/experiment/spec.h"

namespace rl {
namespace {

bool has_message(const std::vector<std::string>& errors, const std::string& needle) {
  return std::any_of(errors.begin(), errors.end(),
                     [&](const std::string& e) { return e.find(needle) != std::string::npos; });
}

ExperimentSpec ladder_spec() {
  ExperimentSpec s;
  s.variants = {"interleaved"};
  return s;
}

TEST(SpecValidation, AcceptsTheSeedLadder) {
  ExperimentSpec s;
  s.variants = {"reduceNeighbored",    "reduceNeighboredLess",
                "reduceInterleaved",   "reduceUnroll2",
                "reduceUnroll4",       "reduceUnroll8",
                "reduceUnrollWarp8",   "reduceCompleteUnrollWarp8",
                "reduceCompleteUnroll"};
  EXPECT_TRUE(validate(s, nullptr).empty());
  EXPECT_EQ(expand(s).size(), 9u);
}

TEST(SpecValidation, SizeZero) {
  auto s = ladder_spec();
  s.sizes = {0, 10};
  EXPECT_TRUE(has_message(validate(s, nullptr), "size 0: N must be at least 1"));
}

TEST(SpecValidation, BlockSizeNotPowerOfTwoOrTooLarge) {
  auto s = ladder_spec();
  s.block_sizes = {100, 2048, 16};
  const auto e = validate(s, nullptr);
  EXPECT_TRUE(has_message(e, "block size 100: must be a power of two"));
  EXPECT_TRUE(has_message(e, "block size 2048"));
  EXPECT_TRUE(has_message(e, "block size 16"));
}

TEST(SpecValidation, BlockSizeAboveDeviceLimit) {
  auto s = ladder_spec();
  s.block_sizes = {1024};
  DeviceInfo d;
  d.backend = "cuda";
  d.max_threads_per_block = 512;
  EXPECT_TRUE(has_message(validate(s, &d), "above this device's limit of 512"));
}

TEST(SpecValidation, UnrollNotTaken) {
  auto s = ladder_spec();
  s.unroll_factors = {3};
  EXPECT_TRUE(has_message(validate(s, nullptr), "unroll 3"));
  s.variants = {"reduceUnroll3"};
  s.unroll_factors = {};
  EXPECT_TRUE(has_message(validate(s, nullptr), "unroll 3 is not built"));
}

TEST(SpecValidation, UnknownVariantAndBaseline) {
  auto s = ladder_spec();
  s.variants = {"reduceFoo"};
  s.baseline = "nope";
  const auto e = validate(s, nullptr);
  EXPECT_TRUE(has_message(e, "variant 'reduceFoo': unknown"));
  EXPECT_TRUE(has_message(e, "baseline 'nope': unknown variant"));
}

TEST(SpecValidation, DeviceMemory) {
  auto s = ladder_spec();
  s.sizes = {std::uint64_t(1) << 34};
  DeviceInfo d;
  d.backend = "cuda";
  d.total_memory = std::size_t(16) << 30;
  d.free_memory = std::size_t(2) << 30;
  const auto e = validate(s, &d);
  EXPECT_TRUE(has_message(e, "of device memory; 17.2 GB total, 2.1 GB free")) << e.front();
}

TEST(SpecValidation, TimingOptions) {
  auto s = ladder_spec();
  s.timing.noise = 0;
  s.timing.budget_ms = -1;
  const auto e = validate(s, nullptr);
  EXPECT_TRUE(has_message(e, "noise"));
  EXPECT_TRUE(has_message(e, "budget"));
}

TEST(SpecExpansion, EachVariantGetsWhatItTakes) {
  ExperimentSpec s;
  s.variants = {"neighbored", "unroll", "unroll_warp_volatile"};
  s.block_sizes = {32, 1024};
  s.unroll_factors = {1, 2, 8};
  s.workspaces = {Workspace::Global, Workspace::Shared};
  ASSERT_TRUE(validate(s, nullptr).empty());
  const auto pts = expand(s);
  // neighbored: 2 blocks x 1 unroll x 2 ws; unroll: 2 x 3 x 2; unroll_warp: 1 block (>=64) x 3 x 2
  EXPECT_EQ(pts.size(), 4u + 12u + 6u);
  for (const auto& p : pts) {
    if (p.variant == "neighbored") EXPECT_EQ(p.unroll, 1);
    if (p.variant == "unroll_warp_volatile") EXPECT_EQ(p.block_size, 1024);
  }
}

TEST(SpecExpansion, ClassicNameFixesUnrollAndDuplicatesCollapse) {
  ExperimentSpec s;
  s.variants = {"reduceUnroll4", "reduceUnroll4", "unroll"};
  const auto pts = expand(s);
  ASSERT_EQ(pts.size(), 2u);  // U=4 once, and the unroll variant's default (8)
  EXPECT_EQ(pts[0].unroll, 4);
  EXPECT_EQ(pts[1].unroll, 8);
}

TEST(SizeParsing, Forms) {
  std::uint64_t n = 0;
  std::string err;
  EXPECT_TRUE(parse_size("1000003", &n, &err));
  EXPECT_EQ(n, 1000003u);
  EXPECT_TRUE(parse_size("2^24", &n, &err));
  EXPECT_EQ(n, 1u << 24);
  EXPECT_TRUE(parse_size("16M", &n, &err));
  EXPECT_EQ(n, 16u << 20);
  EXPECT_FALSE(parse_size("2^99", &n, &err));
  EXPECT_NE(err.find("2^99"), std::string::npos);
  EXPECT_FALSE(parse_size("abc", &n, &err));
  EXPECT_FALSE(parse_size("0", &n, &err));
  EXPECT_FALSE(parse_size("-5", &n, &err));
  EXPECT_FALSE(parse_size("99999999999999999999999", &n, &err));
}

TEST(SizeParsing, ListsAndRanges) {
  std::vector<std::uint64_t> v;
  std::string err;
  ASSERT_TRUE(parse_size_list("1000003,2^24", &v, &err)) << err;
  EXPECT_EQ(v, (std::vector<std::uint64_t>{1000003, 1u << 24}));
  ASSERT_TRUE(parse_size_list("2^10..2^13", &v, &err)) << err;
  EXPECT_EQ(v, (std::vector<std::uint64_t>{1024, 2048, 4096, 8192}));
  EXPECT_FALSE(parse_size_list("2^13..2^10", &v, &err));
  EXPECT_FALSE(parse_size_list("1000..2^12", &v, &err));
  EXPECT_FALSE(parse_size_list("", &v, &err));
  EXPECT_FALSE(parse_size_list("1,,2", &v, &err));
  EXPECT_EQ(format_size(1u << 24), "2^24");
  EXPECT_EQ(format_size(1000003), "1000003");
}

// A number too large for the field is told so, with the limit, never "expected a whole number".
TEST(IntListParsing, TooLargeSaysTheLimit) {
  std::vector<int> v;
  std::string err;
  for (const char* text : {"2^99", "2^31", "2147483648", "99999999999999999999999", "2^4..2^99"}) {
    EXPECT_FALSE(parse_int_list(text, "unroll factor", &v, &err)) << text;
    EXPECT_NE(err.find("unroll factor"), std::string::npos) << err;
    EXPECT_NE(err.find("too large: at most 2^30"), std::string::npos) << err;
    EXPECT_EQ(err.find("expected a whole number"), std::string::npos) << err;
  }
  ASSERT_TRUE(parse_int_list("2^30", "unroll factor", &v, &err)) << err;
  EXPECT_EQ(v, std::vector<int>{1 << 30});
  EXPECT_FALSE(parse_int_list("2^x", "unroll factor", &v, &err));
  EXPECT_NE(err.find("expected a whole number, 2^K or A..B"), std::string::npos) << err;
  EXPECT_FALSE(parse_int_list("0", "block size", &v, &err));
  EXPECT_NE(err.find("positive"), std::string::npos) << err;
}

}  // namespace
}  // namespace rl
