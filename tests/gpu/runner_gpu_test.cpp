// The runner on the GPU: timings are real and positive, results verify, cancellation keeps
// finished points, and two runs of the same point agree.
#include <gtest/gtest.h>

#include "engine/device/device.h"
#include "engine/measure/runner.h"
#include "engine/session/metrics.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

ExperimentSpec small_ladder() {
  ExperimentSpec s;
  s.variants = {"reduceNeighbored", "reduceInterleaved", "reduceUnroll8", "reduceUnrollWarp8",
                "reduceCompleteUnroll"};
  s.workspaces = {Workspace::Global, Workspace::Shared};
  s.block_sizes = {256};
  s.sizes = {(1u << 20) + 3};
  s.timing.budget_ms = 20;
  return s;
}

std::unique_ptr<Backend> fresh_gpu() {
  const Discovery d = discover_devices();
  return make_cuda_backend(d.gpus.front().index);
}

TEST(RunnerOnGpu, RunsVerifiesAndTimesTheLadder) {
  RL_REQUIRE_GPU();
  Runner runner(fresh_gpu());
  std::size_t results = 0, progress_calls = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { ++results; };
  cb.on_progress = [&](const Progress& p) {
    ++progress_calls;
    EXPECT_LE(p.done, p.total);
  };
  const Session s = runner.run(small_ladder(), cb);
  ASSERT_EQ(s.results.size(), 10u);
  EXPECT_EQ(results, 10u);
  EXPECT_GE(progress_calls, 10u);
  EXPECT_GT(s.device.theoretical_gbps, 0);
  EXPECT_GT(s.device.measured_copy_gbps, 0);
  for (const auto& r : s.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
    EXPECT_GT(r.total.median_ms, 0);
    EXPECT_GT(r.first_kernel.median_ms, 0);
    EXPECT_LE(r.first_kernel.median_ms, r.total.median_ms * 1.05);
    EXPECT_GE(r.total.samples, 5);
    EXPECT_GT(basis_gbps(r, TimeBasis::Whole), 0);
    ASSERT_TRUE(r.speedup.has_value()) << r.point.label();
    // A timestamp floor after every sample; two spans (first kernel | finishing pass).
    EXPECT_EQ(r.timestamp_floor.samples, r.total.samples);
    EXPECT_GT(r.timestamp_floor.median_ms, 0);
    EXPECT_EQ(r.event_spans, 2);
    EXPECT_GT(r.gpu_time.median_ms, 0);
    EXPECT_NEAR(r.gpu_time.median_ms, r.total.median_ms - 2 * r.timestamp_floor.median_ms, 1e-9);
  }
}

TEST(RunnerOnGpu, OneKernelReductionsTakeOneFloorOut) {
  RL_REQUIRE_GPU();
  Runner runner(fresh_gpu());
  ExperimentSpec s;
  s.variants = {"single_pass", "cub_device_reduce"};
  s.sizes = {1u << 20};
  s.timing.budget_ms = 10;
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 2u);
  for (const auto& r : session.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
    EXPECT_EQ(r.event_spans, 1) << r.point.label();
    // An empty event pair costs something, and less than a whole reduction.
    EXPECT_GT(r.timestamp_floor.median_ms, 0) << r.point.label();
    EXPECT_LT(r.timestamp_floor.median_ms, r.total.median_ms) << r.point.label();
    EXPECT_NEAR(r.gpu_time.median_ms, r.total.median_ms - r.timestamp_floor.median_ms, 1e-9);
  }
}

TEST(RunnerOnGpu, CancelKeepsFinishedPoints) {
  RL_REQUIRE_GPU();
  Runner runner(fresh_gpu());
  std::atomic<bool> cancel{false};
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { cancel = true; };
  const Session s = runner.run(small_ladder(), cb, &cancel);
  EXPECT_TRUE(s.cancelled);
  EXPECT_EQ(s.results.size(), 1u);
  EXPECT_EQ(s.results[0].status, PointStatus::Ok);
}

TEST(RunnerOnGpu, DeviceReportsRoofs) {
  RL_REQUIRE_GPU();
  const DeviceInfo& d = testing::GpuEnvironment::get().backend->device();
  EXPECT_GT(d.sm_count, 0);
  EXPECT_GT(d.l2_bytes, 0u);
  EXPECT_GT(d.theoretical_gbps, 100);
  // A copy cannot beat the DRAM roof by much (L2 effects aside at 256 MB).
  EXPECT_LT(d.measured_copy_gbps, d.theoretical_gbps * 1.1);
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// The read floor: measured once per size before that size's first point, over the point's own
// input; no reduction of the same bytes is much faster, and the device's floor at 1 GiB stays
// under the DRAM roof.
TEST(RunnerOnGpu, ReadFloorPerSizeAndPerDevice) {
  RL_REQUIRE_GPU();
  Runner runner(fresh_gpu());
  ExperimentSpec s;
  s.variants = {"reduceInterleaved", "single_pass"};
  s.block_sizes = {256};
  s.sizes = {1000003, std::uint64_t(1) << 22};
  s.types = {DType::Int32, DType::Float32};
  s.timing.budget_ms = 20;
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 8u);
  // Both types are 4 bytes: one floor per size.
  ASSERT_EQ(session.read_floors.size(), 2u);
  for (const ReadFloor& f : session.read_floors) {
    EXPECT_TRUE(f.bytes == 4000012u || f.bytes == (std::uint64_t(4) << 22)) << f.bytes;
    EXPECT_GT(f.time.median_ms, 0);
    EXPECT_GE(f.time.samples, 5);
    EXPECT_GT(f.gpu_time.median_ms, 0);
    EXPECT_LT(f.gpu_time.median_ms, f.time.median_ms);
    EXPECT_FALSE(f.shape.empty());
  }
  for (const PointResult& r : session.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
    const ReadFloor* f = find_read_floor(session.read_floors, input_bytes(r.point));
    ASSERT_NE(f, nullptr) << r.point.label();
    const double pct = point_rates(r, session.device, session.read_floors).pct_of_read_floor;
    EXPECT_NEAR(pct, 100.0 * f->time.median_ms / r.total.median_ms, 1e-9);
    // A reduction reads everything the floor reads, and more work besides: never far faster.
    EXPECT_LT(pct, 105) << r.point.label();
  }
  const DeviceInfo& d = session.device;
  EXPECT_GT(d.read_floor_bytes, std::uint64_t(1) << 24);
  // Only bounds that hold under compute-sanitizer too (it slows every kernel).
  EXPECT_GT(d.measured_read_gbps, 0);
  EXPECT_LT(d.measured_read_gbps, 1.02 * d.theoretical_gbps);
}

// Noise that was not reached is flagged: an impossible target leaves every point noisy, still
// verified.
TEST(RunnerOnGpu, UnreachedNoiseTargetIsFlagged) {
  RL_REQUIRE_GPU();
  Runner runner(fresh_gpu());
  ExperimentSpec s;
  s.variants = {"reduceInterleaved"};
  s.block_sizes = {256};
  s.sizes = {1u << 16};
  s.timing.noise = 1e-9;
  s.timing.budget_ms = 5;
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 1u);
  const PointResult& r = session.results[0];
  EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  EXPECT_TRUE(r.noisy);
  EXPECT_EQ(count_noisy(session.results), 1);
}

}  // namespace
}  // namespace rl
