// `run --counts` / `--no-counts`: the block model's counts in the live table (on by default on
// the host backend, whose times are CPU times), and in JSON and CSV whatever the table shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "cli_process.h"
#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

// The classic ladder's set-up (N = 2^24, B = 1024, int32, in place), one sample per point.
std::vector<std::string> seed_run(std::vector<std::string> more) {
  std::vector<std::string> args{"run",
                                "--device",
                                "cpu",
                                "--variants",
                                "reduceInterleaved,reduceUnroll2",
                                "--sizes",
                                "2^24",
                                "--block-sizes",
                                "1024",
                                "--min-samples",
                                "1",
                                "--max-samples",
                                "1"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The table's row of a variant (the line that starts with its id and a space).
std::string row_of(const std::string& out, const std::string& id) {
  for (const std::string& line : lines_of(out))
    if (line.rfind(id + " ", 0) == 0) return line;
  return {};
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

constexpr const char* kCountsColumns =
    "  barriers   warp-steps  lane eff         loads       stores  launches  status";

TEST(CliCounts, HostRunWithCountsPrintsTheColumns) {
  const CliResult r = run_cli(seed_run({"--counts"}));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find(kCountsColumns), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counts (block model, the same on any device)"), std::string::npos);
  EXPECT_NE(r.out.find("speed-ups are CPU-time ratios, not GPU speed-ups"), std::string::npos);
  // The classic ladder's barrier totals at its set-up: 16384 x 10 and 8192 x 11.
  const std::vector<std::string> interleaved = words(row_of(r.out, "interleaved"));
  const std::vector<std::string> unroll = words(row_of(r.out, "unroll"));
  ASSERT_GE(interleaved.size(), 8u) << r.out;
  ASSERT_GE(unroll.size(), 8u) << r.out;
  // barriers, warp-steps, lane eff, loads, stores, launches, then "ok" (or "ok, NOISY": one
  // sample).
  auto counts_of = [](const std::vector<std::string>& w) {
    const auto ok = std::find_if(w.begin(), w.end(),
                                 [](const std::string& x) { return x == "ok" || x == "ok,"; });
    return ok - w.begin() >= 6 ? std::vector<std::string>(ok - 6, ok) : std::vector<std::string>{};
  };
  EXPECT_EQ(counts_of(interleaved),
            (std::vector<std::string>{"163840", "606208", "86.5%", "33538048", "16777216", "2"}))
      << row_of(r.out, "interleaved");
  EXPECT_EQ(counts_of(unroll).front(), "90112") << row_of(r.out, "unroll");
}

TEST(CliCounts, OnByDefaultOnTheHostAndOffWithNoCounts) {
  const CliResult on = run_cli(seed_run({}));
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_NE(on.out.find(kCountsColumns), std::string::npos) << on.out;
  const CliResult off = run_cli(seed_run({"--no-counts"}));
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(off.out.find("barriers"), std::string::npos) << off.out;
  EXPECT_NE(row_of(off.out, "interleaved").find("  ok"), std::string::npos) << off.out;
  const CliResult both = run_cli(seed_run({"--counts", "--no-counts"}));
  EXPECT_EQ(both.exit_code, 2) << both.out;
  EXPECT_NE(both.err.find("--counts"), std::string::npos) << both.err;
}

// JSON and CSV carry the counts whether the table shows them or not.
TEST(CliCounts, JsonAndCsvHoldTheCounts) {
  TempDir dir;
  const std::string json = dir.file("run.json"), csv = dir.file("run.csv");
  const CliResult r = run_cli(seed_run({"--no-counts", "--json", json, "--csv", csv}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Session s = session_from_json(slurp(json));
  ASSERT_EQ(s.results.size(), 2u);
  for (const PointResult& p : s.results) {
    ASSERT_TRUE(p.counts.has_value()) << p.point.label();
    EXPECT_EQ(p.counts->barriers(), p.point.variant == "interleaved" ? 163840u : 90112u);
    EXPECT_EQ(p.counts->launches, 2);
    EXPECT_EQ(p.counts->finish.barriers, 11u);
  }
  const std::vector<std::string> rows = lines_of(slurp(csv));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_NE(rows[0].find(",counts_barriers,counts_warp_steps,counts_lane_efficiency,"),
            std::string::npos)
      << rows[0];
  EXPECT_NE(rows[1].find(",163840,606208,"), std::string::npos) << rows[1];
}

// Line samples (per-line metrics): on the host there are none and stderr says why once; with
// --counters they are refused before anything runs (CUPTI's profiler and PC sampling cannot share
// a context).
TEST(CliCounts, LineSamplesSayWhyOnTheHostAndRefuseCounters) {
  const CliResult r = run_cli(seed_run({"--line-samples"}));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("line samples: no line samples on the host backend"), std::string::npos)
      << r.err;
  const CliResult both = run_cli(seed_run({"--line-samples", "--counters"}));
  EXPECT_EQ(both.exit_code, 2) << both.err;
  EXPECT_NE(both.err.find("--counters with --line-samples"), std::string::npos) << both.err;
}

}  // namespace
}  // namespace rl::testing
