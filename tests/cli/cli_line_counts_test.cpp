// `run --line-counts` and `code --samples` with counts: on the host a run is refused saying why,
// and with --counters or --line-samples; a session whose point has counts (made
// up here at every instruction of the kernel's first function: no GPU) prints "executed" and
// "thread eff %" columns, aligned, beside the sample column where there are samples too.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "cli_process.h"
#include "engine/code/code_view.h"
#include "engine/code/line_diff.h"
#include "engine/counters/line_count_pass.h"
#include "engine/io/export.h"
#include "engine/measure/runner.h"

namespace rl::testing {
namespace {

std::vector<std::string> neighbored_run(std::vector<std::string> more) {
  std::vector<std::string> args{"run",
                                "--device",
                                "cpu",
                                "--variants",
                                "reduceNeighbored",
                                "--sizes",
                                "2^16",
                                "--block-sizes",
                                "256",
                                "--min-samples",
                                "1",
                                "--max-samples",
                                "1"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Counts are taken on a GPU, each launch step in a worker process of its own: on the host the
// run is refused at once, saying so (exit 2, nothing run).
TEST(CliLineCounts, SayWhyOnTheHostAndRefuseTheOtherProfilers) {
  const CliResult r = run_cli(neighbored_run({"--line-counts"}));
  EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
  EXPECT_NE(r.err.find(std::string("--line-counts: ") + kLineCountsNeedWorkers), std::string::npos)
      << r.err;
  const CliResult counters = run_cli(neighbored_run({"--line-counts", "--counters"}));
  EXPECT_EQ(counters.exit_code, 2) << counters.err;
  EXPECT_NE(counters.err.find("--counters with --line-counts"), std::string::npos) << counters.err;
  const CliResult samples = run_cli(neighbored_run({"--line-samples", "--line-counts"}));
  EXPECT_EQ(samples.exit_code, 2) << samples.err;
  EXPECT_NE(samples.err.find("--line-samples with --line-counts"), std::string::npos)
      << samples.err;
  EXPECT_NE(samples.err.find("line counts need runs of their own"), std::string::npos);
}

// Counts at every instruction of the entry's first function, in `arch`: the even ones with every
// thread, the odd ones with half; samples at the first instruction where asked.
void add_made_up(PointLineSamples& ls, const code::CodeEntry& e, const std::string& arch,
                 bool samples) {
  static const std::regex offset(R"(/\*([0-9a-f]{4,})\*/)");
  ls.arch = arch;
  ls.counted_launches = 1;
  SampledFunction f{"first_kernel", e.mangled.front(), {}};
  bool first = true;
  for (const std::string& line : code::split_lines(e.sass.at(arch))) {
    if (line.rfind("// Function : ", 0) == 0) first = line.substr(14) == e.functions.front();
    std::smatch m;
    if (!first || !std::regex_search(line, m, offset)) continue;
    SampledPc pc{std::stoull(m[1].str(), nullptr, 16), {}};
    pc.inst_executed = 4096;
    pc.thread_inst_executed = f.pcs.size() % 2 == 0 ? 4096 * 32 : 4096 * 16;
    f.pcs.push_back(pc);
  }
  if (samples) {
    ls.period_log2 = 10;
    ls.launches = 1;
    ls.functions.push_back(
        {"first_kernel", e.mangled.front(), {{f.pcs[0].offset, {{"barrier", 7}}}}});
  }
  add_line_counts(ls.functions, {f});
}

// The column where each annotated line's "| " starts; -1 where lines disagree.
long bar_column(const std::vector<std::string>& lines) {
  long column = -2;
  for (const std::string& l : lines) {
    if (l.empty() || l[0] == '#') continue;
    const long at = long(l.find("| "));
    if (column == -2) column = at;
    if (at != column) return -1;
  }
  return column;
}

TEST(CliLineCounts, CodeSamplesPrintsExecutedAndThreadEfficiencyAligned) {
  const code::CodeEntry e = code::find_code(code::CodeQuery{"reduceNeighbored", 256});
  if (e.sass.empty() || e.mangled.empty()) GTEST_SKIP() << "no SASS in this build: " << e.missing;
  const std::string arch = e.sass.count("sm_90") ? "sm_90" : e.sass.begin()->first;
  TempDir dir;
  const std::string json = dir.file("run.json"), counted = dir.file("counted.json");
  const CliResult r = run_cli(neighbored_run({"--json", json}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const bool samples : {false, true}) {
    SCOPED_TRACE(samples ? "samples and counts" : "counts");
    Session s = session_from_json(slurp(json));
    ASSERT_EQ(s.results.size(), 1u);
    add_made_up(s.results[0].line_samples.emplace(), e, arch, samples);
    std::ofstream(counted) << session_to_json(s);
    const CliResult sass = run_cli({"code", "--variant", "reduceNeighbored", "--block-size", "256",
                                    "--samples", counted, "--sass"});
    ASSERT_EQ(sass.exit_code, 0) << sass.err;
    const std::vector<std::string> lines = lines_of(sass.out);
    EXPECT_NE(sass.out.find("# " + s.results[0].point.label() + ", " + arch +
                            ": executed instructions counted (CUPTI's SASS metrics) in 1 launch"),
              std::string::npos)
        << sass.out;
    // The header names the columns; every line's "| " sits under the header's.
    char header[96], full[64], half[64];
    std::snprintf(header, sizeof header, "%-*s%12s %12s| ", samples ? 25 : 0,
                  samples ? "samples" : "", "executed", "thread eff %");
    std::snprintf(full, sizeof full, "%12d %12s| ", 4096, "100.0");
    std::snprintf(half, sizeof half, "%12d %12s| ", 4096, "50.0");
    EXPECT_NE(std::find(lines.begin(), lines.end(), std::string(header)), lines.end()) << sass.out;
    EXPECT_EQ(bar_column(lines), long(std::string(header).size()) - 2) << sass.out;
    EXPECT_NE(sass.out.find(full), std::string::npos) << sass.out;
    EXPECT_NE(sass.out.find(half), std::string::npos) << sass.out;
    EXPECT_EQ(sass.out.find("% barrier") != std::string::npos, samples) << sass.out;

    const CliResult summary = run_cli(
        {"code", "--variant", "reduceNeighbored", "--block-size", "256", "--samples", counted});
    ASSERT_EQ(summary.exit_code, 0) << summary.err;
    EXPECT_NE(summary.out.find("warp instructions executed in " + e.variant->id), std::string::npos)
        << summary.out;
    EXPECT_NE(summary.out.find("of the threads active"), std::string::npos);
  }
}

}  // namespace
}  // namespace rl::testing
