// Per-line metrics on the GPU (issue 11, item 3): the runner's line-sample pass on the seed's
// ladder at 2^24 and B=1024, placed on the build's own SASS and source. Every sampled offset is an
// instruction of this build; the barrier's waits sit on BAR.SYNC and the __syncthreads() lines;
// reduceInterleaved waits at barriers more than reduceUnrollWarp8 (the counters' trend). Skips,
// saying why, without a GPU, CUPTI or permission to profile.
#include <gtest/gtest.h>

#include "engine/code/line_diff.h"
#include "engine/code/line_metrics.h"
#include "engine/run/runner.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

TEST(LineSamplesOnGpu, TheLaddersWaitsSitOnItsBarriers) {
  auto& gpu = testing::GpuEnvironment::get();
  if (!gpu.backend) GTEST_SKIP() << gpu.skip_reason;
  ExperimentSpec s;
  s.variants = {"reduceInterleaved", "reduceUnrollWarp8"};
  s.block_sizes = {1024};
  s.unroll_factors = {};
  s.sizes = {std::uint64_t(1) << 24};
  s.timing.budget_ms = 5;
  Runner runner(make_cuda_backend(gpu.backend->device().index));
  runner.set_line_samples(true);
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 2u);
  double share[2] = {0, 0};
  for (std::size_t i = 0; i < 2; ++i) {
    const PointResult& r = session.results[i];
    SCOPED_TRACE(r.point.label());
    ASSERT_EQ(r.status, PointStatus::Ok) << r.message;
    ASSERT_TRUE(r.line_samples.has_value());
    const PointLineSamples& ls = *r.line_samples;
    if (ls.functions.empty()) GTEST_SKIP() << ls.note;
    EXPECT_EQ(ls.arch, "sm_" + std::to_string(gpu.backend->device().compute_capability()));
    EXPECT_GE(ls.launches, 1);
    const code::CodeEntry e = code::find_code(code::CodeQuery{
        r.point.variant, r.point.block_size, r.point.unroll, r.point.type, r.point.workspace});
    const code::LineMetrics m = code::line_metrics(e, ls);
    for (const std::string& n : m.notes) std::printf("  note: %s\n", n.c_str());
    ASSERT_GT(m.kernel.total, 10000u);
    EXPECT_EQ(m.unplaced, 0u) << "samples at offsets this build's SASS lacks";
    EXPECT_GT(m.other_functions, 0u) << "the finishing pass is sampled too";
    const std::uint64_t barrier = m.kernel.reason("barrier");
    ASSERT_GT(barrier, 0u);
    std::uint64_t on_bar = 0, on_sync = 0;
    const auto lines = code::split_lines(e.sass.at(ls.arch));
    for (std::size_t k = 0; k < lines.size(); ++k)
      if (lines[k].find("BAR.") != std::string::npos) on_bar += m.sass[k].reason("barrier");
    for (std::size_t k = 0; k < e.source.size(); ++k)
      if (e.source[k].text.find("__syncthreads") != std::string::npos)
        on_sync += m.source[k].reason("barrier");
    EXPECT_GE(double(on_bar), 0.9 * double(barrier));
    EXPECT_GE(double(on_sync), 0.5 * double(barrier));
    share[i] = double(barrier) / double(m.kernel.total);
    std::printf("  %s: %llu samples, barrier %.1f%% (%.1f%% of them on BAR, %.1f%% on "
                "__syncthreads lines)\n",
                r.point.label().c_str(), static_cast<unsigned long long>(m.kernel.total),
                100 * share[i], 100.0 * double(on_bar) / double(barrier),
                100.0 * double(on_sync) / double(barrier));
  }
  EXPECT_GT(share[0], share[1]) << "reduceInterleaved waits at barriers more than UnrollWarp8";
}

}  // namespace
}  // namespace rl
