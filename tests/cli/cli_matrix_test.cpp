// `run` with matrices on the host backend: --shapes, --cols/--rows with --total, --reduce, the
// rows-and-columns preset at another total, the table's shape column, and a clear error for
// every bad value.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_process.h"
#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

std::vector<std::string> quick(std::vector<std::string> more) {
  std::vector<std::string> args{"run",           "--device", "cpu",     "--budget-ms", "2",
                                "--min-samples", "1",        "--table", "wide"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliMatrix, ShapesRunVerifiedAndShowTheShape) {
  TempDir dir;
  const std::string json = dir.file("m.json"), csv = dir.file("m.csv");
  const CliResult r = run_cli(quick({"--variants", "all", "--shapes", "33x1025,2^3x2^4", "--type",
                                     "both", "--json", json, "--csv", csv}));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("33x1025"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MxN"), std::string::npos) << r.out;
  const Session s = session_from_json(slurp(json));
  ASSERT_EQ(s.results.size(), 7u * 2u * 2u);  // variants x shapes x types
  EXPECT_EQ(s.spec.baseline, "cub_segmented_rows");
  for (const PointResult& p : s.results) {
    EXPECT_EQ(p.status, PointStatus::Ok) << p.point.label() << ": " << p.message;
    EXPECT_TRUE(p.point.is_matrix()) << p.point.label();
    EXPECT_TRUE(p.speedup.has_value()) << p.point.label();
  }
  EXPECT_NE(slurp(csv).find(",rows,cols,"), std::string::npos);
}

TEST(CliMatrix, ColsAtATotalAndTheReduceFilter) {
  TempDir dir;
  const std::string json = dir.file("m.json");
  const CliResult r = run_cli(quick({"--variants", "all", "--reduce", "columns", "--cols",
                                     "32..128,100", "--total", "2^12", "--json", json}));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("cols 100: 2^12 / 100 = 40 rows (rounded down)"), std::string::npos)
      << r.err;
  const Session s = session_from_json(slurp(json));
  ASSERT_EQ(s.spec.shapes.size(), 4u);
  EXPECT_EQ(s.spec.shapes[0], (MatrixShape{128, 32}));
  EXPECT_EQ(s.spec.shapes[2], (MatrixShape{40, 100}));
  for (const PointResult& p : s.results)
    EXPECT_TRUE(p.point.variant == "column_strided" || p.point.variant == "column_tiled");
  EXPECT_EQ(s.spec.baseline, "column_tiled");
}

TEST(CliMatrix, PresetAtAnotherTotalKeepsItsWidths) {
  TempDir dir;
  const std::string json = dir.file("m.json");
  const CliResult r = run_cli(quick({"--preset", "rows-and-columns", "--total", "2^10",
                                     "--variants", "row_per_warp", "--json", json}));
  // Widths past the total are refused, naming the flag and the value.
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--total 2^10: cols 2^11: must be from 1 to the total 2^10"),
            std::string::npos)
      << r.err;
  // A spec's own shapes at another total: each keeps its cols.
  const std::string spec = dir.file("spec.json");
  {
    std::ofstream f(spec);
    f << R"({"variants": ["row_per_thread"], "workspaces": ["registers"], "shapes": ["8x8", "2x32"]})";
  }
  const CliResult ok = run_cli(quick({"--spec", spec, "--total", "128", "--json", json}));
  ASSERT_EQ(ok.exit_code, 0) << ok.err << ok.out;
  EXPECT_EQ(session_from_json(slurp(json)).spec.shapes,
            (std::vector<MatrixShape>{{16, 8}, {4, 32}}));
}

TEST(CliMatrix, ClearErrors) {
  struct Bad {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Bad> cases{
      {{"--variants", "all", "--shapes", "0x5"}, "--shapes: shape '0x5': rows must be at least 1"},
      {{"--variants", "all", "--shapes", "4096"}, "expected ROWSxCOLS"},
      {{"--variants", "all", "--cols", "32"}, "--cols: needs --total"},
      {{"--variants", "all", "--cols", "32", "--rows", "4", "--total", "128"},
       "give --cols or --rows with it, not both"},
      {{"--variants", "all", "--shapes", "4x4", "--total", "16"}, "not both"},
      {{"--variants", "all", "--cols", "abc", "--total", "16"}, "--cols: size 'abc'"},
      {{"--variants", "all", "--cols", "64", "--total", "32"}, "cols 64: must be from 1"},
      {{"--variants", "all", "--shapes", "4x4", "--reduce", "diagonal"},
       "--reduce 'diagonal': expected rows, columns or both"},
      {{"--reduce", "rows"}, "--reduce rows: picks among the rows and columns variants"},
      {{"--variants", "row_per_warp"}, "--variants: variant row_per_warp: sums each row"},
      {{"--variants", "interleaved", "--shapes", "4x4"}, "shapes: no selected variant"},
  };
  for (const Bad& b : cases) {
    const CliResult r = run_cli(quick(b.args));
    std::string typed;
    for (const auto& a : b.args) typed += a + " ";
    EXPECT_EQ(r.exit_code, 2) << typed << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << typed << "\n" << r.err;
  }
}

}  // namespace
}  // namespace rl::testing
