// Line counts (executed instructions per instruction, CUPTI's SASS metrics) without a GPU: counts
// merge into a point's samples per (function, offset), the runner takes them in a run of their
// own (never with counters or line samples), and on the host a point gets a note, never a
// failure. tests/gpu/line_counts_gpu_test.cpp takes real ones.
#include <gtest/gtest.h>

#include "counters/cupti_api.h"
#include "engine/counters/line_count_pass.h"
#include "engine/run/runner.h"

namespace rl {
namespace {

SampledPc counted(std::uint64_t offset, std::uint64_t inst, std::uint64_t thread) {
  SampledPc pc{offset, {}};
  pc.inst_executed = inst;
  pc.thread_inst_executed = thread;
  return pc;
}

TEST(LineCounts, MergeIntoTheSamplesByFunctionAndOffset) {
  std::vector<SampledFunction> into;
  into.push_back(
      {"first_kernel", "_Z4treev", {{0x20, {{"barrier", 9}}}, {0x40, {{"selected", 1}}}}});
  // Counts at a sampled PC, at one never sampled (between two), in the finishing pass (a
  // function the samples lack) and, again, at the sampled PC (a second launch adds up).
  add_line_counts(into,
                  {{"first_kernel", "_Z4treev", {counted(0x40, 100, 3200), counted(0x30, 8, 64)}},
                   {"finish", "_Z6finishv", {counted(0x10, 1, 32)}}});
  add_line_counts(into, {{"first_kernel", "_Z4treev", {counted(0x40, 100, 1600)}}});
  ASSERT_EQ(into.size(), 2u);
  const SampledFunction& tree = into[0];
  ASSERT_EQ(tree.pcs.size(), 3u);
  EXPECT_EQ(tree.pcs[0].offset, 0x20u);
  EXPECT_EQ(tree.pcs[0].reason("barrier"), 9u);  // samples kept
  EXPECT_EQ(tree.pcs[0].inst_executed, 0u);      // executed nothing counted here
  EXPECT_EQ(tree.pcs[1].offset, 0x30u);          // by offset, the new PC between
  EXPECT_EQ(tree.pcs[1].samples(), 0u);
  EXPECT_EQ(tree.pcs[1].inst_executed, 8u);
  EXPECT_EQ(tree.pcs[2].inst_executed, 200u);
  EXPECT_EQ(tree.pcs[2].thread_inst_executed, 4800u);
  EXPECT_EQ(tree.pcs[2].reason("selected"), 1u);
  EXPECT_EQ(into[1].role, "finish");
  EXPECT_EQ(into[1].inst_executed(), 1u);
  PointLineSamples s;
  s.functions = into;
  EXPECT_EQ(s.inst_executed(), 209u);
  EXPECT_EQ(s.thread_inst_executed(), 4800u + 64 + 32);
  EXPECT_EQ(s.samples(), 10u);
}

TEST(LineCounts, ThreadEfficiencyIsThreadsOver32PerInstruction) {
  EXPECT_DOUBLE_EQ(thread_efficiency(10, 320), 1.0);
  EXPECT_DOUBLE_EQ(thread_efficiency(10, 160), 0.5);
  EXPECT_DOUBLE_EQ(thread_efficiency(0, 0), 0.0);
}

TEST(LineCounts, ARunTakesOneOfCountersSamplesAndCounts) {
  Runner runner(make_host_backend());
  runner.set_line_counts(true);
  EXPECT_THROW(runner.set_counters({"barrier_stall"}), Error);
  EXPECT_THROW(runner.set_line_samples(true), Error);
  runner.set_line_counts(false);
  runner.set_line_samples(true);
  try {
    runner.set_line_counts(true);
    FAIL() << "line counts with line samples accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), kCountersOrLineSamples);
    EXPECT_NE(std::string(e.what()).find("line counts"), std::string::npos);
  }
  runner.set_line_samples(false);
  runner.set_counters({"barrier_stall"});
  EXPECT_THROW(runner.set_line_counts(true), Error);
}

TEST(LineCountPassOnHost, SaysWhyThereAreNoneAndTheRunGoesOn) {
  Runner runner(make_host_backend());
  runner.set_line_counts(true);
  ExperimentSpec spec;
  spec.variants = {"reduceNeighbored"};
  spec.block_sizes = {256};
  spec.sizes = {4096};
  spec.timing.budget_ms = 1;
  const Session s = runner.run(spec, {});
  ASSERT_EQ(s.results.size(), 1u);
  EXPECT_EQ(s.results[0].status, PointStatus::Ok);
  ASSERT_TRUE(s.results[0].line_samples.has_value());
  const PointLineSamples& ls = *s.results[0].line_samples;
  EXPECT_TRUE(ls.functions.empty());
  EXPECT_EQ(ls.counted_launches, 0);
  EXPECT_TRUE(ls.note.empty());  // no samples were asked for
  EXPECT_NE(ls.count_note.find("no line counts on the host backend"), std::string::npos)
      << ls.count_note;
}

// Where the toolkit's CUPTI is installed, its SASS metrics calls resolve (or this CUPTI says which
// it lacks); elsewhere the library's own reason stands. Either way the rest does not depend on it.
TEST(CuptiLibrary, HasTheSassMetricsCallsOrSaysWhich) {
  try {
    const CuptiApi& api = cupti_api();
    if (api.sass_metrics_missing.empty()) {
      EXPECT_NE(api.SassEnable, nullptr);
      EXPECT_NE(api.SassFlushData, nullptr);
      EXPECT_NE(api.ProfilerDeviceSupported, nullptr);
    } else {
      EXPECT_NE(api.sass_metrics_missing.find("cupti"), std::string::npos)
          << api.sass_metrics_missing;
    }
  } catch (const CountersUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("could not be loaded"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rl
