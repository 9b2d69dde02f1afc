// Line counts on the GPU, as the CLI and the app take them: the supervisor times each point in a
// worker process, then counts each launch step in a fresh process of its own (CUPTI's SASS
// metrics count the first kernel a process launches: counters/line_count_pass.h). Two kernels
// whose divergence is known by construction, at N=2^20 and B=256: reduceNeighbored's working
// threads are spread over every warp (`if ((tid % (2 * stride)) == 0)`: lanes sit out in every
// step), reduceInterleaved's are packed into the first warps (`if (tid < stride)`: whole warps
// sit out until the last five steps). So both execute instructions, every count lands on this
// build's SASS, the finishing pass is counted too, neighbored's `if` line runs with well under
// all of a warp's threads, and neighbored's thread efficiency is below interleaved's. The
// single pass (one step) and CUB (one step of two kernels: the note says the second is not
// counted) too. Skips, saying why, without a GPU, CUPTI, its SASS metrics or permission.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/code/line_metrics.h"
#include "engine/process/supervisor.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

// The real worker: beside this binary (the GPU machine's unpacked folder) or in the build tree.
std::string real_worker() {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  const std::string path(exe, n > 0 ? std::size_t(n) : 0);
  const std::string dir = path.substr(0, path.rfind('/') + 1);
  for (const std::string& w : {dir + "reductionlab-worker", dir + "../worker/reductionlab-worker"})
    if (access(w.c_str(), X_OK) == 0) return w;
  return "";
}

// A count_note that says the counts cannot be taken here at all (not a fault of the pass).
bool unavailable_here(const std::string& note) {
  for (const char* why :
       {"could not be loaded", "profiling is not permitted", " has no ",
        "cannot count SASS metrics on this device", "NOT_SUPPORTED", "not supported"})
    if (note.find(why) != std::string::npos) return true;
  return false;
}

Session counted_run(const std::vector<std::string>& variants, std::string* skip) {
  const Discovery found = discover_devices();
  SupervisorOptions o;
  o.worker = real_worker();
  o.device_index = found.gpus.front().index;
  o.device = found.gpus.front();
  o.line_counts = true;
  ExperimentSpec s;
  s.variants = variants;
  s.block_sizes = {256};
  s.unroll_factors = {};
  s.sizes = {std::uint64_t(1) << 20};
  s.timing.budget_ms = 5;
  const Session session = Supervisor(o).run(s, {});
  for (const PointResult& r : session.results)
    if (r.line_samples && r.line_samples->counted_launches == 0 &&
        unavailable_here(r.line_samples->count_note))
      *skip = r.line_samples->count_note;
  return session;
}

TEST(LineCountsOnGpu, NeighboredDivergesMoreThanInterleaved) {
  auto& gpu = testing::GpuEnvironment::get();
  if (!gpu.backend) GTEST_SKIP() << gpu.skip_reason;
  ASSERT_FALSE(real_worker().empty()) << "reductionlab-worker is missing";
  std::string skip;
  const Session session = counted_run({"reduceNeighbored", "reduceInterleaved"}, &skip);
  if (!skip.empty()) GTEST_SKIP() << "CUPTI cannot count here: " << skip;
  ASSERT_EQ(session.results.size(), 2u);
  double efficiency[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    const PointResult& r = session.results[std::size_t(i)];
    const std::string at = r.point.label() + ": ";
    ASSERT_EQ(r.status, PointStatus::Ok) << at << r.message;
    ASSERT_TRUE(r.line_samples) << at << "no line_samples at all";
    const PointLineSamples& ls = *r.line_samples;
    ASSERT_EQ(ls.counted_launches, 1) << at << "no line counts: " << ls.count_note;
    EXPECT_TRUE(ls.count_note.empty()) << at << ls.count_note;
    EXPECT_EQ(ls.arch, "sm_" + std::to_string(session.device.compute_capability()));
    EXPECT_EQ(ls.samples(), 0u) << at << "samples in a run that only counts";
    for (const SampledFunction& f : ls.functions)
      for (const SampledPc& pc : f.pcs)
        EXPECT_LE(pc.thread_inst_executed, 32 * pc.inst_executed) << at << pc.offset;
    const code::CodeEntry e = code::find_code(code::CodeQuery{
        r.point.variant, r.point.block_size, r.point.unroll, r.point.type, r.point.workspace});
    const code::LineMetrics m = code::line_metrics(e, ls);
    for (const std::string& n : m.notes) std::printf("  note: %s\n", n.c_str());
    ASSERT_GT(m.kernel.inst_executed, 0u) << at << "no executed instructions placed";
    EXPECT_TRUE(m.counted && !m.sampled) << at << "not seen as counted only";
    EXPECT_EQ(m.unplaced_inst, 0u) << at << "counts at offsets this build's SASS lacks";
    EXPECT_GT(m.other_functions_inst, 0u) << at << "the finishing pass was not counted";
    efficiency[i] = m.kernel.thread_efficiency();
    // The tree's `if` line: neighbored's runs with few of a warp's threads.
    const char* branch = i == 0 ? "tid % (2 * stride)" : "if (tid < stride)";
    std::size_t line = e.source.size();
    for (std::size_t k = 0; k < e.source.size() && line == e.source.size(); ++k)
      if (e.source[k].text.find(branch) != std::string::npos) line = k;
    ASSERT_LT(line, e.source.size()) << at << "no source line with " << branch;
    const code::ReasonSamples& l = m.source[line];
    EXPECT_GT(l.inst_executed, 0u) << at << "nothing executed on " << branch;
    if (i == 0) EXPECT_LT(l.thread_efficiency(), 0.9) << at << "the divergent if line";
    std::printf("  %s: %llu warp instructions, %.1f%% thread efficiency; `%s` line: %llu, %.1f%%\n",
                r.point.label().c_str(), static_cast<unsigned long long>(m.kernel.inst_executed),
                100 * efficiency[i], branch, static_cast<unsigned long long>(l.inst_executed),
                100 * l.thread_efficiency());
  }
  EXPECT_GT(efficiency[0], 0);
  EXPECT_LT(efficiency[0], efficiency[1])
      << "reduceNeighbored's thread efficiency should be below reduceInterleaved's";
}

// One launch step: the single pass is counted whole; CUB's one call starts two kernels, and the
// note says the second is not counted.
TEST(LineCountsOnGpu, OneStepKernelsAndWhatCannotBeCounted) {
  auto& gpu = testing::GpuEnvironment::get();
  if (!gpu.backend) GTEST_SKIP() << gpu.skip_reason;
  ASSERT_FALSE(real_worker().empty()) << "reductionlab-worker is missing";
  std::string skip;
  const Session session = counted_run({"single_pass", "cub_device_reduce"}, &skip);
  if (!skip.empty()) GTEST_SKIP() << "CUPTI cannot count here: " << skip;
  ASSERT_EQ(session.results.size(), 2u);
  for (const PointResult& r : session.results) {
    ASSERT_EQ(r.status, PointStatus::Ok) << r.message;
    ASSERT_TRUE(r.line_samples);
    const PointLineSamples& ls = *r.line_samples;
    ASSERT_EQ(ls.counted_launches, 1) << r.point.label() << ": " << ls.count_note;
    ASSERT_EQ(ls.functions.size(), 1u);
    EXPECT_EQ(ls.functions[0].role, "whole");
    EXPECT_GT(ls.inst_executed(), 0u);
    std::printf("  %s: %s, %llu warp instructions; note: %s\n", r.point.label().c_str(),
                ls.functions[0].function.c_str(),
                static_cast<unsigned long long>(ls.inst_executed()), ls.count_note.c_str());
    if (r.point.variant == "cub_device_reduce")
      EXPECT_NE(ls.count_note.find("not counted"), std::string::npos) << ls.count_note;
    else
      EXPECT_TRUE(ls.count_note.empty()) << ls.count_note;
  }
}

}  // namespace
}  // namespace rl
