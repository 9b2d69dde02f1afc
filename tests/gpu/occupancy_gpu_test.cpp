// The CUDA runtime's view of each kernel a point launches (device/kernel_occupancy.h): one entry
// per kernel in launch order, what was launched, and resident blocks per SM equal to the occupancy
// formula the Code view applies to the build's recorded resources (engine/code/occupancy.h).
#include <gtest/gtest.h>

#include "engine/code/occupancy.h"
#include "engine/measure/runner.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

#define RL_REQUIRE_BACKEND()                           \
  auto& env_ = testing::GpuEnvironment::get();         \
  if (!env_.backend) GTEST_SKIP() << env_.skip_reason; \
  Backend& gpu = *env_.backend

std::vector<KernelOccupancy> occupancy_of(Backend& gpu, PointSpec p) {
  gpu.prepare(p, testing::cached_input(p.size, p.type));
  return gpu.occupancy();
}

void expect_formula_agrees(const Backend& gpu, const KernelOccupancy& k) {
  const DeviceInfo& d = gpu.device();
  const auto limits = code::sm_limits("sm_" + std::to_string(d.compute_capability()));
  if (!limits) return;  // an architecture the formula's table does not know
  const code::Occupancy o = code::theoretical_occupancy(
      *limits, k.registers, int(k.static_shared + k.dynamic_shared), k.block);
  EXPECT_EQ(o.blocks_per_sm, k.blocks_per_sm) << k.role << " " << k.function;
}

TEST(OccupancyOnGpu, TwoKernelLadderRungHasBothInLaunchOrder) {
  RL_REQUIRE_BACKEND();
  const PointSpec p{"interleaved", Workspace::Global, 256, 1, 1u << 20, DType::Int32};
  const std::vector<KernelOccupancy> ks = occupancy_of(gpu, p);
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[0].role, "first_kernel");
  EXPECT_EQ(ks[1].role, "finish");
  EXPECT_EQ(ks[0].grid, gpu.grid());
  EXPECT_EQ(ks[0].block, 256);
  for (const KernelOccupancy& k : ks) {
    EXPECT_FALSE(k.function.empty());
    EXPECT_GT(k.registers, 0);
    EXPECT_GE(k.blocks_per_sm, 1);
    EXPECT_GT(k.max_warps_per_sm, 0);
    EXPECT_LE(k.warps_per_sm(), k.max_warps_per_sm);
    expect_formula_agrees(gpu, k);
  }
}

TEST(OccupancyOnGpu, OneLaunchAndLibraryVariants) {
  RL_REQUIRE_BACKEND();
  const PointSpec one{"single_pass", Workspace::Registers, 512, 4, 1u << 24, DType::Float32};
  const std::vector<KernelOccupancy> sp = occupancy_of(gpu, one);
  ASSERT_EQ(sp.size(), 1u);
  EXPECT_EQ(sp[0].role, "whole");
  EXPECT_EQ(sp[0].block, 512);
  expect_formula_agrees(gpu, sp[0]);
  const PointSpec cub{"cub_device_reduce", Workspace::Registers, 0, 1, 1u << 24, DType::Int32};
  const std::vector<KernelOccupancy> lib = occupancy_of(gpu, cub);
  ASSERT_EQ(lib.size(), 2u) << "CUB's device reduce: its two kernels";
  EXPECT_EQ(lib[0].role, "whole");
  EXPECT_EQ(lib[1].role, "whole_2");
  EXPECT_EQ(lib[1].grid, 1u);
}

TEST(OccupancyOnGpu, ARunRecordsItAndTheKernelsStillRun) {
  RL_REQUIRE_BACKEND();
  Runner runner(make_cuda_backend(gpu.device().index));
  ExperimentSpec s;
  s.variants = {"reduceUnrollWarp8"};
  s.block_sizes = {1024};
  s.sizes = {(1u << 20) + 3};
  s.timing.budget_ms = 5;
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 1u);
  const PointResult& r = session.results[0];
  EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  ASSERT_EQ(r.occupancy.size(), 2u);
  EXPECT_EQ(r.occupancy[0].grid, r.grid);
  EXPECT_EQ(r.occupancy[0].block, 1024);
}

}  // namespace
}  // namespace rl
