// Hardware counters on the GPU: kernels whose values are known by construction
// (counter_kernels.h), then the runner's counter pass on the ladder. Skips, saying why, without
// a GPU, without CUPTI, or where the driver does not permit profiling.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "core/cuda_raii.h"
#include "counter_kernels.h"
#include "counters/cupti_profiler.h"
#include "engine/counters/counter_catalog.h"
#include "engine/measure/runner.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

constexpr const char* kBarrier = "smsp__warp_issue_stalled_barrier_per_warp_active.pct";
constexpr const char* kUniform = "smsp__sass_average_branch_targets_threads_uniform.pct";
constexpr const char* kThreads = "smsp__thread_inst_executed_per_inst_executed.ratio";

// The profiler for the default set on the test GPU, or why there is none.
struct ProfilerEnvironment {
  std::unique_ptr<CuptiProfiler> profiler;
  std::string skip_reason;
  // Never destroyed: CUPTI is not to be called from static destructors, after the CUDA
  // runtime may have gone.
  static ProfilerEnvironment& get() {
    static ProfilerEnvironment& env = *[] {
      auto* e = new ProfilerEnvironment;
      auto& gpu = testing::GpuEnvironment::get();
      if (!gpu.backend) {
        e->skip_reason = gpu.skip_reason;
        return e;
      }
      try {
        e->profiler = std::make_unique<CuptiProfiler>(gpu.backend->device().index,
                                                      counter_metrics(default_counters()));
      } catch (const CountersUnavailable& err) {
        e->skip_reason = std::string("no counters here: ") + err.what();
      }
      return e;
    }();
    return env;
  }
};

#define RL_REQUIRE_COUNTERS()                                       \
  do {                                                              \
    auto& rl_penv_ = ProfilerEnvironment::get();                    \
    if (!rl_penv_.profiler) GTEST_SKIP() << rl_penv_.skip_reason;   \
    if (!rl_penv_.profiler->note().empty())                         \
      std::printf("note: %s\n", rl_penv_.profiler->note().c_str()); \
  } while (0)

using Launcher = cudaError_t (*)(float*, int, int, int, cudaStream_t);

KernelCounters profile_kernel(const char* name, Launcher launch) {
  constexpr int kBlocks = 264, kThreads = 256, kIters = 200;
  DeviceBuffer out;
  out.allocate(std::size_t(kBlocks) * kThreads * sizeof(float), name);
  const std::vector<KernelCounters> ks = ProfilerEnvironment::get().profiler->profile(
      name, [] {}, {},
      [&] {
        RL_CUDA_CHECK(launch(static_cast<float*>(out.get()), kBlocks, kThreads, kIters, nullptr),
                      name);
        RL_CUDA_CHECK(cudaDeviceSynchronize(), name);
      },
      "counter test kernel");
  EXPECT_EQ(ks.size(), 1u) << "one kernel, one range";
  KernelCounters k = ks.empty() ? KernelCounters{} : ks.front();
  for (const auto& [metric, v] : k.values) std::printf("  %s: %s = %g\n", name, metric.c_str(), v);
  return k;
}

double value(const KernelCounters& k, const char* metric) {
  const auto v = k.value(metric);
  EXPECT_TRUE(v.has_value()) << metric << " missing from " << k.role;
  return v.value_or(-1);
}

TEST(CountersOnGpu, UniformKernelHasNoDivergenceAndNoBarrierStall) {
  RL_REQUIRE_COUNTERS();
  const KernelCounters k = profile_kernel("uniform", testing::launch_uniform_kernel);
  EXPECT_GE(value(k, kUniform), 99.9);
  EXPECT_NEAR(value(k, kThreads), 32.0, 0.01);
  EXPECT_LT(value(k, kBarrier), 0.01);
}

TEST(CountersOnGpu, LaneParityDivergesAboutHalfTheBranches) {
  RL_REQUIRE_COUNTERS();
  const KernelCounters k = profile_kernel("parity", testing::launch_parity_kernel);
  EXPECT_NEAR(value(k, kUniform), 50.0, 5.0);
  EXPECT_LT(value(k, kThreads), 24.0);  // 32 FMAs of every 39 instructions on 16 lanes
  EXPECT_GT(value(k, kThreads), 16.0);
  EXPECT_LT(value(k, kBarrier), 0.01);
}

TEST(CountersOnGpu, WaitingAtABarrierShowsAsBarrierStall) {
  RL_REQUIRE_COUNTERS();
  const KernelCounters k = profile_kernel("barrier", testing::launch_barrier_kernel);
  EXPECT_GT(value(k, kBarrier), 20.0);
}

TEST(CountersOnGpu, RunnerReadsEveryKernelApartFromTheTimes) {
  RL_REQUIRE_COUNTERS();
  ExperimentSpec s;
  s.variants = {"reduceInterleaved", "reduceCompleteUnrollWarp8", "single_pass"};
  s.block_sizes = {1024};
  s.unroll_factors = {};
  s.sizes = {std::uint64_t(1) << 22};
  s.timing.budget_ms = 5;
  Runner runner(make_cuda_backend(testing::GpuEnvironment::get().backend->device().index));
  runner.set_counters(default_counters());
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 3u);
  double interleaved = -1, unrolled = -1;
  for (const PointResult& r : session.results) {
    SCOPED_TRACE(r.point.label());
    ASSERT_EQ(r.status, PointStatus::Ok) << r.message;
    EXPECT_GT(r.total.median_ms, 0);
    ASSERT_TRUE(r.counters.has_value());
    const PointCounters& c = *r.counters;
    EXPECT_GE(c.passes, 1);
    if (r.point.variant == "single_pass") {
      ASSERT_EQ(c.kernels.size(), 1u) << c.note;
      EXPECT_EQ(c.kernels[0].role, "whole");
    } else {
      ASSERT_EQ(c.kernels.size(), 2u) << c.note;
      EXPECT_EQ(c.kernels[0].role, "first_kernel");
      EXPECT_EQ(c.kernels[1].role, "finish");
      const double stall = value(c.kernels[0], kBarrier);
      (r.point.variant == "interleaved" ? interleaved : unrolled) = stall;
    }
    for (const KernelCounters& k : c.kernels)
      for (const auto& [m, v] : k.values) {
        const CounterInfo* info = find_counter(m);
        ASSERT_NE(info, nullptr) << m;
        // The L2 hit rate passes 100% on the H200 under ncu too (measured: up to 194% for a
        // finishing pass), so it is left out here.
        if (info->percent() && info->id != "l2_hit_rate") EXPECT_LE(v, 100.5) << m;
        EXPECT_GE(v, 0) << m;
      }
  }
  // The classic ladder's argument: unrolling removes barriers, and barrier stall falls with them
  // (H200, N = 2^24: 44.4% for reduceInterleaved, 21.9% for reduceCompleteUnrollWarp8;
  // reduceNeighbored reads 19.7%, its warps idling in divergent branches instead).
  EXPECT_GT(interleaved, unrolled + 5.0);
}

}  // namespace
}  // namespace rl
