// `trace`: the JSON shape scripts and the GUI rely on, to stdout or to a file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_process.h"

namespace rl::testing {
namespace {

nlohmann::json parse(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << text.substr(0, 300);
    return {};
  }
}

TEST(CliTrace, StdoutShape) {
  const CliResult r =
      run_cli({"trace", "--variant", "reduceInterleaved", "--block-size", "128", "--json", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json t = parse(r.out);
  EXPECT_EQ(t["variant"], "interleaved");
  EXPECT_EQ(t["block_size"], 128);
  ASSERT_TRUE(t["steps"].is_array());
  ASSERT_FALSE(t["steps"].empty());
  for (const auto& step : t["steps"]) {
    EXPECT_TRUE(step["barrier"].is_boolean());
    ASSERT_TRUE(step["masks"].is_array());
    EXPECT_EQ(step["masks"].size(), 128u / 32u);  // one uint32 per warp
    for (const auto& m : step["masks"]) EXPECT_TRUE(m.is_number_unsigned());
    EXPECT_TRUE(step["values"].is_array());
  }
  EXPECT_TRUE(t["totals"]["barriers"].is_number_unsigned());
}

TEST(CliTrace, WholeLaunchTotalsMatchTheClassicCounts) {
  // The classic ladder counts 163840 barriers for reduceInterleaved and 90112 for reduceUnroll2 at
  // N = 2^24 with block 1024.
  TempDir dir;
  const std::string file = dir.file("trace.json");
  const CliResult a = run_cli({"trace", "--variant", "reduceInterleaved", "--block-size", "1024",
                               "--size", "2^24", "--json", file});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, "");
  EXPECT_EQ(parse(slurp(file))["totals"]["barriers"], 163840u);
  const CliResult b = run_cli({"trace", "--variant", "reduceUnroll2", "--block-size", "1024",
                               "--size", "2^24", "--json", "-"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const nlohmann::json t = parse(b.out);
  EXPECT_EQ(t["unroll"], 2);
  EXPECT_EQ(t["totals"]["barriers"], 90112u);
}

TEST(CliTrace, RowsVariantsTakeAShape) {
  const CliResult r = run_cli({"trace", "--variant", "row_per_warp", "--block-size", "128",
                               "--rows", "6", "--cols", "40", "--json", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json t = parse(r.out);
  EXPECT_EQ(t["rows"], 6u);
  EXPECT_EQ(t["cols"], 40u);
  EXPECT_EQ(t["size"], 240u);
  EXPECT_EQ(t["grid"], 2u);  // 4 warps a block, a row each
  EXPECT_EQ(t["row_sums"].size(), 4u);
  // The load: ten 16-byte vectors per row, lanes 0..9 of each warp.
  EXPECT_EQ(t["steps"][0]["kind"], "load");
  for (const auto& m : t["steps"][0]["masks"]) EXPECT_EQ(m, 0x3ffu);
  EXPECT_EQ(t["totals"]["loads"], 240u);
}

TEST(CliTrace, ShapeErrorsNameTheFlag) {
  const CliResult none =
      run_cli({"trace", "--variant", "row_per_block", "--block-size", "128", "--json", "-"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--rows missing"), std::string::npos) << none.err;
  const CliResult half = run_cli(
      {"trace", "--variant", "row_per_block", "--block-size", "128", "--rows", "4", "--json", "-"});
  EXPECT_EQ(half.exit_code, 2);
  EXPECT_NE(half.err.find("--cols missing"), std::string::npos) << half.err;
  const CliResult bad = run_cli({"trace", "--variant", "row_per_block", "--block-size", "128",
                                 "--rows", "4", "--cols", "x", "--json", "-"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--cols"), std::string::npos) << bad.err;
  const CliResult whole = run_cli({"trace", "--variant", "reduceInterleaved", "--block-size", "128",
                                   "--rows", "4", "--json", "-"});
  EXPECT_EQ(whole.exit_code, 2);
  EXPECT_NE(whole.err.find("--rows: interleaved sums a whole array"), std::string::npos)
      << whole.err;
}

}  // namespace
}  // namespace rl::testing
