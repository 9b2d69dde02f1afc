// Line counts (executed instructions per instruction, CUPTI's SASS metrics) without a GPU: counts
// merge into a point's samples per (function, offset), steps merge into a point, and a counted
// step's reply round-trips. The supervisor's part: supervisor_test.cpp; real counts:
// tests/gpu/line_counts_gpu_test.cpp.
#include <gtest/gtest.h>

#include "counters/cupti_api.h"
#include "engine/core/error.h"
#include "engine/counters/line_count_pass.h"

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

// A counted step travels from the count worker to the supervisor as one JSON line: every field
// back as it was, and a bad line refused naming the field.
TEST(LineCounts, ACountedStepRoundTripsAsJson) {
  CountedStep c;
  c.steps = 2;
  c.arch = "sm_90";
  c.dropped = 3;
  c.kernels_in_step = 1;
  c.note = "3 SASS records dropped by CUPTI";
  c.functions = {{"finish", "_Z6finishv", {counted(0x10, 5, 160), counted(0x20, 1, 7)}}};
  const CountedStep back = counted_step_from_json(counted_step_to_json(c));
  EXPECT_EQ(back.steps, 2);
  EXPECT_EQ(back.arch, "sm_90");
  EXPECT_EQ(back.dropped, 3u);
  EXPECT_EQ(back.kernels_in_step, 1);
  EXPECT_EQ(back.note, c.note);
  EXPECT_EQ(back.functions, c.functions);
  EXPECT_THROW(counted_step_from_json("{"), Error);
  try {
    counted_step_from_json(R"({"steps": 7, "dropped": 0, "kernels_in_step": 1, "counts": {}})");
    FAIL() << "7 steps accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("steps"), std::string::npos) << e.what();
  }
}

// Steps merge into a point: counted_launches once any step counted, notes joined.
TEST(LineCounts, StepsMergeIntoThePoint) {
  PointLineSamples ls;
  CountedStep first;
  first.arch = "sm_90";
  first.functions = {{"first_kernel", "_Z4treev", {counted(0x40, 100, 3200)}}};
  CountedStep finish;
  finish.note = "CUPTI returned no executed instructions for the finishing pass";
  merge_counted_step(ls, first);
  merge_counted_step(ls, finish);
  EXPECT_EQ(ls.counted_launches, 1);
  EXPECT_EQ(ls.arch, "sm_90");
  EXPECT_EQ(ls.inst_executed(), 100u);
  EXPECT_EQ(ls.count_note, finish.note);
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
