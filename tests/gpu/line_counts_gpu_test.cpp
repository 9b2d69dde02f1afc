// Line counts on the GPU: the runner's line-count pass (CUPTI's SASS metrics) on two kernels
// whose divergence is known by construction, at N=2^20 and B=256. reduceNeighbored's working
// threads are spread over every warp (`if ((tid % (2 * stride)) == 0)`: lanes sit out in every
// step), reduceInterleaved's are packed into the first warps (`if (tid < stride)`: whole warps
// sit out until the last five steps). So both execute instructions, every count lands on this
// build's SASS, neighbored's `if` line runs with well under all of a warp's threads, and
// neighbored's thread efficiency over its kernel is below interleaved's. Skips, saying why,
// without a GPU, CUPTI, its SASS metrics or permission to profile.
//
// Each point runs in a fresh process (a death test re-runs this binary for it alone): CUPTI's
// SASS metrics count once per process, never after PC sampling (counters/sass_counter.h), and
// the other tests here sample and profile. A fresh process says a skip and its kernel's thread
// efficiency through files, since only its exit and stderr come back.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "engine/code/line_metrics.h"
#include "engine/run/runner.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

std::string skip_file() {
  return ::testing::TempDir() + "rl_line_counts_gpu_skip.txt";
}
std::string efficiency_file(int i) {
  return ::testing::TempDir() + "rl_line_counts_gpu_eff" + std::to_string(i) + ".txt";
}

// A count_note that says the counts cannot be taken here at all (not a fault of the pass).
bool unavailable_here(const std::string& note) {
  for (const char* why :
       {"could not be loaded", "profiling is not permitted", " has no ",
        "cannot count SASS metrics on this device", "NOT_SUPPORTED", "not supported"})
    if (note.find(why) != std::string::npos) return true;
  return false;
}

struct Checked {
  std::string failures, skip;
};

// The checks, in the fresh process; failures collected as text for the parent to show.
Checked check_counts(int i) {
  Checked out;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) out.failures += what + "\n";
  };
  const Discovery found = discover_devices();
  ExperimentSpec s;
  s.variants = {i == 0 ? "reduceNeighbored" : "reduceInterleaved"};
  s.block_sizes = {256};
  s.unroll_factors = {};
  s.sizes = {std::uint64_t(1) << 20};
  s.timing.budget_ms = 5;
  Runner runner(make_cuda_backend(found.gpus.front().index));
  runner.set_line_counts(true);
  const Session session = runner.run(s, {});
  if (session.results.size() != 1) return {"expected 1 point\n", ""};
  double efficiency = 0;
  {
    const PointResult& r = session.results[0];
    const std::string at = r.point.label() + ": ";
    if (r.status != PointStatus::Ok) return {at + r.message + "\n", ""};
    if (!r.line_samples) return {at + "no line_samples at all\n", ""};
    const PointLineSamples& ls = *r.line_samples;
    if (ls.counted_launches == 0) {
      if (unavailable_here(ls.count_note)) return {"", ls.count_note};
      return {at + "no line counts: " + ls.count_note + "\n", ""};
    }
    if (!ls.count_note.empty()) std::printf("  count note: %s\n", ls.count_note.c_str());
    expect(ls.arch == "sm_" + std::to_string(found.gpus.front().compute_capability()),
           at + "arch " + ls.arch);
    expect(ls.samples() == 0, at + "samples in a run that only counts");
    for (const SampledFunction& f : ls.functions)
      for (const SampledPc& pc : f.pcs)
        expect(pc.thread_inst_executed <= 32 * pc.inst_executed,
               at + "more than 32 threads per warp instruction at " + std::to_string(pc.offset));
    const code::CodeEntry e = code::find_code(code::CodeQuery{
        r.point.variant, r.point.block_size, r.point.unroll, r.point.type, r.point.workspace});
    const code::LineMetrics m = code::line_metrics(e, ls);
    for (const std::string& n : m.notes) std::printf("  note: %s\n", n.c_str());
    if (m.kernel.inst_executed == 0) return {at + "no executed instructions placed\n", ""};
    expect(m.counted && !m.sampled, at + "not seen as counted only");
    expect(m.unplaced_inst == 0, at + "counts at offsets this build's SASS lacks");
    expect(m.other_functions_inst > 0, at + "the finishing pass was not counted");
    efficiency = m.kernel.thread_efficiency();
    // The tree's `if` line: neighbored's runs with few of a warp's threads.
    const char* branch = i == 0 ? "tid % (2 * stride)" : "if (tid < stride)";
    std::size_t line = e.source.size();
    for (std::size_t k = 0; k < e.source.size() && line == e.source.size(); ++k)
      if (e.source[k].text.find(branch) != std::string::npos) line = k;
    if (line == e.source.size()) return {at + "no source line with " + branch + "\n", ""};
    const code::ReasonSamples& l = m.source[line];
    expect(l.inst_executed > 0, at + "nothing executed on " + branch);
    if (i == 0)
      expect(l.thread_efficiency() < 0.9, at + "the divergent if line ran with " +
                                              std::to_string(100 * l.thread_efficiency()) +
                                              "% of the threads");
    std::printf("  %s: %llu warp instructions, %.1f%% thread efficiency; `%s` line: %llu, %.1f%%\n",
                r.point.label().c_str(), static_cast<unsigned long long>(m.kernel.inst_executed),
                100 * efficiency, branch, static_cast<unsigned long long>(l.inst_executed),
                100 * l.thread_efficiency());
  }
  std::ofstream(efficiency_file(i)) << efficiency;
  return out;
}

TEST(LineCountsOnGpu, NeighboredDivergesMoreThanInterleaved) {
  auto& gpu = testing::GpuEnvironment::get();
  if (!gpu.backend) GTEST_SKIP() << gpu.skip_reason;
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // re-runs the binary: a fresh process
  double efficiency[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    std::remove(skip_file().c_str());
    std::remove(efficiency_file(i).c_str());
    EXPECT_EXIT(
        {
          const Checked c = check_counts(i);
          if (!c.skip.empty()) std::ofstream(skip_file()) << c.skip;
          std::fprintf(stderr, "%s",
                       !c.skip.empty()      ? "line counts skipped\n"
                       : c.failures.empty() ? "line counts ok\n"
                                            : c.failures.c_str());
          std::fflush(stdout);
          std::_Exit(c.failures.empty() ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "line counts (ok|skipped)");
    std::ifstream skipped(skip_file());
    if (skipped) {
      std::stringstream why;
      why << skipped.rdbuf();
      std::remove(skip_file().c_str());
      GTEST_SKIP() << "CUPTI cannot count here: " << why.str();
    }
    std::ifstream(efficiency_file(i)) >> efficiency[i];
  }
  EXPECT_GT(efficiency[0], 0);
  EXPECT_LT(efficiency[0], efficiency[1])
      << "reduceNeighbored's thread efficiency should be below reduceInterleaved's";
}

}  // namespace
}  // namespace rl
