// `run` on the host backend: the files it writes read back, flags and --spec combine, classic
// names with an unroll combine with --unroll, and Ctrl-C keeps the finished points.
#include <gtest/gtest.h>

#include <set>

#include "cli_process.h"
#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

// Quick to run on the host: tiny sizes, a few ms per point.
const std::vector<std::string> kTiny{"run", "--device", "cpu",    "--budget-ms",
                                     "2",   "--sizes",  "1000,33"};

std::vector<std::string> tiny(std::vector<std::string> more) {
  std::vector<std::string> args = kTiny;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

Session read_session(const std::string& path) {
  const std::string text = slurp(path);
  try {
    return session_from_json(text);
  } catch (const Error& e) {
    ADD_FAILURE() << path << ": " << e.what();
    return {};
  }
}

TEST(CliRun, WritesJsonAndCsvThatReadBack) {
  TempDir dir;
  const std::string csv = dir.file("run.csv"), json = dir.file("run.json");
  const CliResult r =
      run_cli(tiny({"--variants", "reduceNeighbored,reduceInterleaved,reduceUnroll8",
                    "--block-sizes", "64,256", "--csv", csv, "--json", json}));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const Session s = read_session(json);
  EXPECT_EQ(s.device.backend, "host");
  EXPECT_FALSE(s.cancelled);
  ASSERT_EQ(s.results.size(), 2u * 3u * 2u);  // sizes x variants x block sizes
  std::set<std::string> variants;
  for (const PointResult& p : s.results) {
    EXPECT_EQ(p.status, PointStatus::Ok) << p.point.label() << ": " << p.message;
    EXPECT_GT(p.total.samples, 0);
    variants.insert(p.point.variant);
    if (p.point.variant == "unroll") EXPECT_EQ(p.point.unroll, 8);
    if (p.point.variant == "neighbored") ASSERT_TRUE(p.speedup.has_value());
    if (p.point.variant == "neighbored") EXPECT_EQ(*p.speedup, 1.0);
  }
  EXPECT_EQ(variants, (std::set<std::string>{"neighbored", "interleaved", "unroll"}));

  // The CSV files hold the same points and samples, and no temporary file is left.
  EXPECT_EQ(lines_of(slurp(csv)).size(), 1 + s.results.size());
  std::size_t samples = 0;
  for (const PointResult& p : s.results) samples += p.total_samples_ms.size();
  EXPECT_EQ(lines_of(slurp(dir.file("run.samples.csv"))).size(), 1 + samples);
  EXPECT_FALSE(std::filesystem::exists(json + ".tmp"));
  EXPECT_FALSE(std::filesystem::exists(csv + ".tmp"));

  // The live table has a row per point, naming the variant and the classic ladder's kernel.
  EXPECT_NE(r.out.find("reduceUnroll8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("12 of 12 points: 12 ok"), std::string::npos) << r.out;
}

TEST(CliRun, SpecFileWithFlagsOverriding) {
  TempDir dir;
  const std::string spec = dir.file("spec.json"), json = dir.file("out.json");
  std::ofstream(spec) << R"({"variants": ["interleaved", "reduceNeighboredLess"],
      "sizes": ["2^10", 77], "block_sizes": [64], "types": ["float32"],
      "timing": {"budget_ms": 2}})";
  const CliResult r =
      run_cli({"run", "--device", "cpu", "--spec", spec, "--block-sizes", "128", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Session s = read_session(json);
  ASSERT_EQ(s.results.size(), 4u);
  for (const PointResult& p : s.results) {
    EXPECT_EQ(p.point.block_size, 128);       // the flag wins
    EXPECT_EQ(p.point.type, DType::Float32);  // the file's value stays
    EXPECT_TRUE(p.point.size == 1024 || p.point.size == 77);
  }
  EXPECT_EQ(s.spec.timing.budget_ms, 2);
}

TEST(CliRun, ClassicNameWithUnrollCombinesWithUnrollFlag) {
  TempDir dir;
  const std::string json = dir.file("out.json");
  const CliResult r =
      run_cli({"run", "--device", "cpu", "--budget-ms", "2", "--sizes", "5000", "--variants",
               "reduceUnroll2,unroll,interleaved", "--unroll", "1,4", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::multiset<std::pair<std::string, int>> points;
  for (const PointResult& p : read_session(json).results)
    points.insert({p.point.variant, p.point.unroll});
  // reduceUnroll2 fixes U = 2; `unroll` takes the flag's 1 and 4; interleaved takes 1 only.
  EXPECT_EQ(points, (std::multiset<std::pair<std::string, int>>{
                        {"unroll", 2}, {"unroll", 1}, {"unroll", 4}, {"interleaved", 1}}));
}

TEST(CliRun, BaselineRunsFirstAndGivesSpeedups) {
  TempDir dir;
  const std::string json = dir.file("out.json");
  const CliResult r = run_cli(tiny(
      {"--variants", "neighbored,interleaved", "--baseline", "reduceInterleaved", "--json", json}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Session s = read_session(json);
  EXPECT_EQ(s.spec.baseline, "interleaved");
  ASSERT_FALSE(s.results.empty());
  EXPECT_EQ(s.results.front().point.variant, "interleaved");
  for (const PointResult& p : s.results) EXPECT_TRUE(p.speedup.has_value()) << p.point.label();
}

TEST(CliRun, NoGpuFallsBackToTheHostWithANote) {
  const CliResult r =
      run_cli({"run", "--budget-ms", "2", "--sizes", "1000", "--variants", "interleaved"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  if (r.out.find("device: cuda:") != std::string::npos)
    GTEST_SKIP() << "a GPU is present: the default device is cuda:0";
  EXPECT_NE(r.err.find("no GPU"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("host emulation"), std::string::npos) << r.out;
}

TEST(CliRun, CtrlCKeepsFinishedPointsWritesFilesAndExits130) {
  TempDir dir;
  const std::string json = dir.file("out.json"), csv = dir.file("out.csv");
  // Many points, each sampled for its whole 300 ms budget (2^20 elements take about a
  // millisecond per sample on the host, so the 1000-sample cap is never reached first): the run
  // is still going when the signal comes.
  CliProcess p({"run", "--device", "cpu", "--variants", "all", "--sizes", "2^20", "--noise",
                "0.0000001", "--budget-ms", "300", "--json", json, "--csv", csv});
  ASSERT_TRUE(p.wait_for_output(" ok", std::chrono::seconds(60))) << p.out() << p.err();
  p.signal(SIGINT);
  EXPECT_EQ(p.wait(), 130) << p.err();
  const Session s = read_session(json);
  EXPECT_TRUE(s.cancelled);
  EXPECT_GE(s.results.size(), 1u);
  EXPECT_LT(s.results.size(), 10u);
  EXPECT_EQ(lines_of(slurp(csv)).size(), 1 + s.results.size());
  EXPECT_NE(p.out().find("cancelled"), std::string::npos) << p.out();
}

// Under 120 columns, for a narrow terminal: every line of the table fits, the point named as
// the classic ladder names it.
TEST(CliRun, NarrowTableFitsUnder120Columns) {
  const CliResult r = run_cli(tiny({"--variants", "neighbored,unroll", "--unroll", "8",
                                    "--block-sizes", "256", "--table", "narrow"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int rows = 0;
  bool in_table = false;
  for (const std::string& line : lines_of(r.out)) {
    if (line.rfind("point ", 0) == 0) in_table = true;
    if (!in_table || line.rfind("read floor", 0) == 0 || line.find(" of ") != std::string::npos)
      continue;
    EXPECT_LT(line.size(), 120u) << line;
    rows += line.find("reduceNeighbored") == 0 || line.find("reduceUnroll8") == 0;
  }
  EXPECT_EQ(rows, 4) << r.out;  // two variants at two sizes
  const CliResult bad = run_cli(tiny({"--variants", "neighbored", "--table", "tiny"}));
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.err.find("--table 'tiny': expected wide, narrow or auto"), std::string::npos)
      << bad.err;
}

// A host session against a GPU session: the comparison warns that these are different kinds of
// time; two host sessions compare without it.
TEST(CliCompare, WarnsWhenHostTimesMeetGpuTimes) {
  TempDir dir;
  const std::string host = dir.file("host.json");
  ASSERT_EQ(run_cli(tiny({"--variants", "neighbored", "--json", host})).exit_code, 0);
  const std::string gpu = std::string(RL_RESOURCES_DIR) + "/sessions/h200-ladder.json";
  const CliResult mixed = run_cli({"compare", gpu, host});
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_NE(mixed.out.find("WARNING: different kinds of time: A has GPU times, B CPU times"),
            std::string::npos)
      << mixed.out;
  EXPECT_NE(mixed.err.find("warning: different kinds of time"), std::string::npos) << mixed.err;
  const CliResult same = run_cli({"compare", host, host});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(same.out.find("different kinds of time"), std::string::npos) << same.out;
}

}  // namespace
}  // namespace rl::testing
