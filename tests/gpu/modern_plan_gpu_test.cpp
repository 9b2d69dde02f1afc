// Launch plans of the kernels past the classic ladder that ask the GPU (occupancy, CUB temp
// storage), and the launchers' refusals. kernels/launch.h directly.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/cuda_raii.h"
#include "gpu_fixture.h"
#include "kernels/launch.h"

namespace rl {
namespace {

using kernels::LaunchArgs;
using kernels::LaunchPlan;

LaunchArgs args(KernelId k, int block, int unroll, std::size_t n, DType t = DType::Int32) {
  LaunchArgs a;
  a.kernel = k;
  a.type = t;
  a.workspace = Workspace::Registers;
  a.block_size = block;
  a.unroll = unroll;
  a.n = n;
  return a;
}

class ModernPlanOnGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    RL_REQUIRE_GPU();
    const DeviceInfo& d = testing::GpuEnvironment::get().backend->device();
    ASSERT_EQ(cudaSetDevice(d.index), cudaSuccess);
    sm_count_ = d.sm_count;
    cc_ = d.compute_capability();
  }
  int sm_count_ = 0;
  int cc_ = 0;
};

TEST_F(ModernPlanOnGpu, GridStrideGridIsTheResidentBlocksForLargeInputs) {
  LaunchPlan plan;
  ASSERT_EQ(kernels::plan_launch(args(KernelId::VectorizedGridStride, 256, 4, std::size_t(1) << 28),
                                 &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid % sm_count_, 0u) << "grid " << plan.grid << ", " << sm_count_ << " SMs";
  EXPECT_GE(plan.grid, unsigned(sm_count_));
  EXPECT_LE(plan.grid, unsigned(sm_count_) * 2048 / 256);
  EXPECT_EQ(plan.input_capacity, std::size_t(1) << 28);
}

TEST_F(ModernPlanOnGpu, SinglePassTakesOneTilePerBlock) {
  LaunchPlan plan;
  // 2^28 ints = 2^26 vectors; tiles of 1024 x 4 vectors -> 2^14 blocks.
  ASSERT_EQ(kernels::plan_launch(args(KernelId::SinglePass, 1024, 4, std::size_t(1) << 28), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 1u << 14);
  EXPECT_EQ(plan.input_capacity, std::size_t(1) << 28);
  // int32 takes at most 16384 blocks: 2^19 tiles of 128 vectors -> blocks walk 32 tiles each.
  ASSERT_EQ(kernels::plan_launch(args(KernelId::SinglePass, 128, 1, std::size_t(1) << 28), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 16384u);
  // float32 too: its blocks' sums travel in the exponent windows, not in a partials array.
  ASSERT_EQ(kernels::plan_launch(
                args(KernelId::SinglePass, 128, 1, std::size_t(1) << 28, DType::Float32), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 16384u);
  // int32 totals of more than 2^40 values would not fit the 48-bit sum field.
  EXPECT_EQ(
      kernels::plan_launch(args(KernelId::SinglePass, 1024, 4, (std::size_t(1) << 40) + 1), &plan),
      cudaErrorInvalidValue);
}

TEST_F(ModernPlanOnGpu, SmallInputsGetOnlyTheBlocksTheyCanKeepBusy) {
  LaunchPlan plan;
  // 2^16 ints = 16384 vectors; 256 threads x 4 vectors per block -> 16 blocks.
  ASSERT_EQ(kernels::plan_launch(args(KernelId::SinglePass, 256, 4, 1 << 16), &plan), cudaSuccess);
  EXPECT_EQ(plan.grid, 16u);
  ASSERT_EQ(kernels::plan_launch(args(KernelId::SinglePass, 1024, 8, 3), &plan), cudaSuccess);
  EXPECT_EQ(plan.grid, 1u);
}

TEST_F(ModernPlanOnGpu, SinglePassNeedsNoFinishAndKeepsItsWindowsInScratch) {
  LaunchPlan plan;
  ASSERT_EQ(
      kernels::plan_launch(args(KernelId::SinglePass, 512, 2, 1000003, DType::Float32), &plan),
      cudaSuccess);
  EXPECT_TRUE(plan.has_first_kernel);
  EXPECT_FALSE(plan.needs_finish);
  EXPECT_EQ(plan.partial_count, 0u);
  // A counter and 33 window words, whatever the grid.
  EXPECT_GE(plan.scratch_bytes, 256 + 33 * 8u);
  EXPECT_LT(plan.scratch_bytes, 1024u);
}

TEST_F(ModernPlanOnGpu, ClusterSinglePassTakesWholeClustersAndNeedsSm90) {
  LaunchPlan plan;
  const cudaError_t err =
      kernels::plan_launch(args(KernelId::ClusterSinglePass, 256, 4, 1 << 16), &plan);
  if (cc_ < 90) {
    EXPECT_EQ(err, cudaErrorInvalidDeviceFunction);
    return;
  }
  ASSERT_EQ(err, cudaSuccess);
  EXPECT_EQ(plan.grid, 16u);  // 16 tiles: two clusters of 8
  EXPECT_FALSE(plan.needs_finish);
  ASSERT_EQ(kernels::plan_launch(args(KernelId::ClusterSinglePass, 1024, 8, 3), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 8u);  // one tile, one whole cluster (seven blocks read nothing)
  ASSERT_EQ(
      kernels::plan_launch(args(KernelId::ClusterSinglePass, 128, 1, std::size_t(1) << 28), &plan),
      cudaSuccess);
  EXPECT_EQ(plan.grid, 16384u);
}

TEST_F(ModernPlanOnGpu, CubDeviceReduceIsTimedWholeWithItsTempStorageInScratch) {
  LaunchPlan plan;
  ASSERT_EQ(kernels::plan_launch(args(KernelId::CubDeviceReduce, 0, 1, 1 << 20), &plan),
            cudaSuccess);
  EXPECT_FALSE(plan.has_first_kernel);
  EXPECT_FALSE(plan.needs_finish);
  EXPECT_GT(plan.scratch_bytes, 0u);
}

TEST_F(ModernPlanOnGpu, ReduceAddSyncIsRefusedBelowComputeCapability80) {
  LaunchPlan plan;
  const cudaError_t err = kernels::plan_launch(args(KernelId::ReduceAddSync, 256, 4, 1000), &plan);
  if (cc_ >= 80) {
    EXPECT_EQ(err, cudaSuccess);
  } else {
    EXPECT_EQ(err, cudaErrorInvalidDeviceFunction);
  }
}

TEST_F(ModernPlanOnGpu, VectorKernelsRefuseAnInputThatIsNot16ByteAligned) {
  DeviceBuffer buf(4096, "misaligned input test");
  DeviceBuffer partials(4096, "partials");
  DeviceBuffer result(8, "result");
  DeviceBuffer scratch(4096, "scratch");
  for (KernelId k : {KernelId::VectorizedGridStride, KernelId::SinglePass}) {
    auto a = args(k, 128, 1, 100);
    LaunchPlan plan;
    ASSERT_EQ(kernels::plan_launch(a, &plan), cudaSuccess);
    a.input = static_cast<char*>(buf.get()) + 4;
    a.partials = partials.get();
    a.result = result.get();
    a.scratch = scratch.get();
    EXPECT_EQ(kernels::launch_first(a, plan), cudaErrorInvalidValue);
  }
}

// The epoch pass's launch count lives with whoever keeps its scratch (LaunchArgs::epoch): without
// one the launch is refused; each enqueued launch adds 1 and gets the right total from the
// accumulators used in turn; a launch captured into a graph (as the occupancy query does) adds
// nothing, so the next real launch still finds its accumulator zeroed.
TEST_F(ModernPlanOnGpu, EpochPassCountsItsLaunchesWhereItsScratchIsKept) {
  constexpr std::size_t n = 100003;
  std::vector<int32_t> host(n);
  long long want = 0;
  for (std::size_t i = 0; i < n; ++i) want += host[i] = int32_t(i % 256);
  auto a = args(KernelId::EpochPass, 256, 2, n);
  LaunchPlan plan;
  ASSERT_EQ(kernels::plan_launch(a, &plan), cudaSuccess);
  DeviceBuffer input(plan.input_capacity * 4, "epoch input");
  DeviceBuffer scratch(plan.scratch_bytes, "epoch scratch");
  DeviceBuffer result(8, "epoch result (not written: the total stays in the scratch)");
  ASSERT_EQ(cudaMemset(input.get(), 0, plan.input_capacity * 4), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(input.get(), host.data(), n * 4, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(scratch.get(), 0, plan.scratch_bytes), cudaSuccess);
  // The copy and memsets are on the legacy stream, which the non-blocking one does not wait for.
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  Stream stream;
  a.input = input.get();
  a.scratch = scratch.get();
  a.result = result.get();
  a.stream = stream.get();
  EXPECT_EQ(kernels::launch_first(a, plan), cudaErrorInvalidValue);  // no count
  std::uint32_t launches = 0;
  a.epoch = &launches;
  for (std::uint32_t r = 1; r <= 3; ++r) {
    ASSERT_EQ(kernels::launch_first(a, plan), cudaSuccess);
    long long got = -1;
    ASSERT_EQ(kernels::read_total(a, plan, &got), cudaSuccess);
    EXPECT_EQ(got, want) << "launch " << r;
    EXPECT_EQ(launches, r);
  }
  Stream capture;
  ASSERT_EQ(cudaStreamBeginCapture(capture.get(), cudaStreamCaptureModeRelaxed), cudaSuccess);
  kernels::LaunchArgs captured = a;
  captured.stream = capture.get();
  EXPECT_EQ(kernels::launch_first(captured, plan), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(capture.get(), &graph), cudaSuccess);
  ASSERT_EQ(cudaGraphDestroy(graph), cudaSuccess);
  EXPECT_EQ(launches, 3u);
  for (std::uint32_t r = 4; r <= 5; ++r) {
    a.stream = r == 5 ? nullptr : stream.get();  // the legacy default stream too
    ASSERT_EQ(kernels::launch_first(a, plan), cudaSuccess);
    long long got = -1;
    ASSERT_EQ(kernels::read_total(a, plan, &got), cudaSuccess);
    EXPECT_EQ(got, want) << "launch " << r;
    EXPECT_EQ(launches, r);
  }
}

}  // namespace
}  // namespace rl
