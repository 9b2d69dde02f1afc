// Per-line metrics on the GPU: the runner's line-sample pass on the classic ladder's
// ladder at 2^24 and B=1024, placed on the build's own SASS and source. Every sampled offset is an
// instruction of this build; the barrier's waits sit just after BAR.SYNC, on the tree's lines;
// reduceInterleaved waits at barriers more than reduceUnrollWarp8 (the counters' trend). Skips,
// saying why, without a GPU, CUPTI or permission to profile.
//
// It runs in a fresh process (a death test re-runs this binary for it alone): the counter tests
// use CUPTI's range profiler in this process, and kernels first loaded after that get no PCs
// from PC sampling (runner.h kCountersOrLineSamples), as in a run that takes both.
#include <gtest/gtest.h>

#include "engine/code/line_diff.h"
#include "engine/code/line_metrics.h"
#include "engine/measure/runner.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

// The checks, in the fresh process; failures collected as text for the parent to show.
std::string check_ladder_samples() {
  std::string failures;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) failures += what + "\n";
  };
  const Discovery found = discover_devices();
  ExperimentSpec s;
  s.variants = {"reduceInterleaved", "reduceUnrollWarp8"};
  s.block_sizes = {1024};
  s.unroll_factors = {};
  s.sizes = {std::uint64_t(1) << 24};
  s.timing.budget_ms = 5;
  Runner runner(make_cuda_backend(found.gpus.front().index));
  runner.set_line_samples(true);
  const Session session = runner.run(s, {});
  if (session.results.size() != 2) return "expected 2 points\n";
  double share[2] = {0, 0};
  for (std::size_t i = 0; i < 2; ++i) {
    const PointResult& r = session.results[i];
    const std::string at = r.point.label() + ": ";
    if (r.status != PointStatus::Ok) return at + r.message + "\n";
    if (!r.line_samples || r.line_samples->functions.empty())
      return at + "no line samples: " + (r.line_samples ? r.line_samples->note : "") + "\n";
    const PointLineSamples& ls = *r.line_samples;
    expect(ls.arch == "sm_" + std::to_string(found.gpus.front().compute_capability()),
           at + "arch " + ls.arch);
    expect(ls.launches >= 1, at + "no launches");
    const code::CodeEntry e = code::find_code(code::CodeQuery{
        r.point.variant, r.point.block_size, r.point.unroll, r.point.type, r.point.workspace});
    const code::LineMetrics m = code::line_metrics(e, ls);
    for (const std::string& n : m.notes) std::printf("  note: %s\n", n.c_str());
    if (m.kernel.total <= 10000u) return at + "too few samples placed\n";
    expect(m.unplaced == 0, at + "samples at offsets this build's SASS lacks");
    expect(m.other_functions > 0, at + "the finishing pass was not sampled");
    const std::uint64_t barrier = m.kernel.reason("barrier");
    if (barrier == 0) return at + "no barrier samples\n";
    // A stall is counted at the instruction the warp waits to issue: a barrier's wait shows on
    // the instructions just after the BAR (the loop's branch back), and on the source, on the
    // tree's lines (the loop head), not on the __syncthreads() line itself.
    std::uint64_t near_bar = 0, on_tree = 0;
    const auto lines = code::split_lines(e.sass.at(ls.arch));
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (m.sass[k].reason("barrier") == 0) continue;
      for (std::size_t back = 1; back <= 4 && back <= k; ++back)
        if (lines[k - back].find("BAR.") != std::string::npos) {
          near_bar += m.sass[k].reason("barrier");
          break;
        }
    }
    for (std::size_t k = 0; k < e.source.size(); ++k)
      if (e.source[k].phase.rfind("tree", 0) == 0) on_tree += m.source[k].reason("barrier");
    expect(double(near_bar) >= 0.9 * double(barrier), at + "barrier samples not just after a BAR");
    expect(double(on_tree) >= 0.8 * double(barrier), at + "barrier samples off the tree's lines");
    share[i] = double(barrier) / double(m.kernel.total);
    std::printf(
        "  %s: %llu samples, barrier %.1f%% (%.1f%% of them just after a BAR, %.1f%% on "
        "the tree's lines)\n",
        r.point.label().c_str(), static_cast<unsigned long long>(m.kernel.total), 100 * share[i],
        100.0 * double(near_bar) / double(barrier), 100.0 * double(on_tree) / double(barrier));
  }
  expect(share[0] > share[1], "reduceInterleaved should wait at barriers more than UnrollWarp8");
  return failures;
}

TEST(LineSamplesOnGpu, TheLaddersWaitsSitOnItsBarriers) {
  auto& gpu = testing::GpuEnvironment::get();
  if (!gpu.backend) GTEST_SKIP() << gpu.skip_reason;
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // re-runs the binary: a fresh process
  EXPECT_EXIT(
      {
        const std::string failures = check_ladder_samples();
        std::fprintf(stderr, "%s", failures.empty() ? "line samples ok\n" : failures.c_str());
        std::fflush(stdout);
        std::_Exit(failures.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "line samples ok");
}

}  // namespace
}  // namespace rl
