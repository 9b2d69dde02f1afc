// Catalog entries of the variants past the classic ladder, and the launch plans that need no GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "engine/catalog/catalog.h"
#include "kernels/epoch_total.h"
#include "kernels/launch.h"

namespace rl {
namespace {

struct Expected {
  const char* id;
  KernelId kernel;
  VariantFamily family;
  std::vector<int> blocks;
  std::vector<int> unrolls;
  int default_unroll;
  int min_cc;
  std::vector<DType> types;
  bool model;
};

const std::vector<DType> kBoth{DType::Int32, DType::Float32};

const std::vector<Expected>& expected() {
  static const std::vector<Expected> table{
      {"warp_shuffle",
       KernelId::WarpShuffle,
       VariantFamily::Modern,
       {32, 64, 128, 256, 512, 1024},
       {1, 2, 4, 8, 16},
       8,
       75,
       kBoth,
       true},
      {"reduce_add_sync",
       KernelId::ReduceAddSync,
       VariantFamily::Modern,
       {32, 64, 128, 256, 512, 1024},
       {1, 2, 4, 8, 16},
       8,
       80,
       {DType::Int32},
       true},
      {"cg_reduce",
       KernelId::CgReduce,
       VariantFamily::Modern,
       {32, 64, 128, 256, 512, 1024},
       {1, 2, 4, 8, 16},
       8,
       75,
       kBoth,
       true},
      {"vectorized",
       KernelId::VectorizedGridStride,
       VariantFamily::Modern,
       {128, 256, 512, 1024},
       {1, 2, 4, 8},
       4,
       75,
       kBoth,
       false},
      {"single_pass",
       KernelId::SinglePass,
       VariantFamily::Modern,
       {128, 256, 512, 1024},
       {1, 2, 4, 8},
       4,
       75,
       kBoth,
       false},
      {"epoch_pass",
       KernelId::EpochPass,
       VariantFamily::Modern,
       {128, 256, 512, 1024},
       {1, 2, 4, 8},
       4,
       75,
       kBoth,
       false},
      {"cub_device_reduce",
       KernelId::CubDeviceReduce,
       VariantFamily::CubReference,
       {},
       {1},
       1,
       75,
       kBoth,
       false},
      {"cub_block_reduce_raking",
       KernelId::CubBlockReduceRaking,
       VariantFamily::CubReference,
       {64, 128, 256, 512, 1024},
       {1, 2, 4, 8, 16},
       8,
       75,
       kBoth,
       false},
      {"cub_block_reduce_warp_reductions",
       KernelId::CubBlockReduceWarpReductions,
       VariantFamily::CubReference,
       {64, 128, 256, 512, 1024},
       {1, 2, 4, 8, 16},
       8,
       75,
       kBoth,
       false},
  };
  return table;
}

TEST(ModernCatalog, EveryReservedKernelHasOneEntryAsSpecified) {
  for (const Expected& e : expected()) {
    SCOPED_TRACE(e.id);
    const VariantInfo* v = find_variant_by_id(e.id);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(find_variant_by_kernel(e.kernel), v);
    EXPECT_EQ(v->kernel, e.kernel);
    EXPECT_EQ(v->family, e.family);
    EXPECT_EQ(v->workspaces, std::vector<Workspace>{Workspace::Registers});
    EXPECT_EQ(v->block_sizes, e.blocks);
    EXPECT_EQ(v->unroll_factors, e.unrolls);
    EXPECT_EQ(v->default_unroll, e.default_unroll);
    EXPECT_TRUE(v->takes_unroll(v->default_unroll));
    EXPECT_EQ(v->min_compute_capability, e.min_cc);
    EXPECT_EQ(v->types, e.types);
    EXPECT_EQ(v->has_block_model, e.model);
    EXPECT_TRUE(v->seed_name.empty());
    EXPECT_FALSE(v->volatile_last_warp);
    EXPECT_FALSE(v->display_name.empty());
    EXPECT_GE(v->phases.size(), 2u);
    // Every explanation says what its unroll factor means.
    EXPECT_NE(v->explanation.find("nroll"), std::string::npos) << v->explanation;
  }
}

TEST(ModernCatalog, IdsAreUniqueAcrossTheWholeCatalog) {
  std::set<std::string> ids;
  for (const VariantInfo& v : catalog()) EXPECT_TRUE(ids.insert(v.id).second) << v.id;
}

TEST(ModernCatalog, CubDeviceReducePicksItsOwnBlockSize) {
  const VariantInfo* v = find_variant_by_id("cub_device_reduce");
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->takes_block_size(0));
  EXPECT_FALSE(v->takes_block_size(256));
}

TEST(ModernCatalog, ReduceAddSyncSaysWhyFloatIsNotTaken) {
  const VariantInfo* v = find_variant_by_id("reduce_add_sync");
  ASSERT_NE(v, nullptr);
  EXPECT_NE(v->explanation.find("float"), std::string::npos);
}

TEST(ModernCatalog, NamesResolveById) {
  for (const Expected& e : expected()) {
    const auto ref = resolve_variant(e.id);
    ASSERT_TRUE(ref.has_value()) << e.id;
    EXPECT_EQ(ref->variant->id, e.id);
    EXPECT_FALSE(ref->unroll.has_value());
  }
}

// Plans of the tiled warp kernels are pure arithmetic (no device query), so they are checked
// here; the grid-stride and CUB plans query the GPU (tests/gpu/modern_kernels_test.cpp).
kernels::LaunchArgs tile_args(KernelId k, int block, int unroll, std::size_t n) {
  kernels::LaunchArgs a;
  a.kernel = k;
  a.type = DType::Float32;
  a.workspace = Workspace::Registers;
  a.block_size = block;
  a.unroll = unroll;
  a.n = n;
  return a;
}

TEST(ModernPlan, TiledWarpKernelsTakeOneTileOfBlockTimesUnrollPerBlock) {
  for (KernelId k : {KernelId::WarpShuffle, KernelId::CgReduce}) {
    kernels::LaunchPlan plan;
    ASSERT_EQ(kernels::plan_launch(tile_args(k, 256, 8, 1000003), &plan), cudaSuccess);
    EXPECT_EQ(plan.grid, 489u);  // ceil(1000003 / 2048)
    EXPECT_EQ(plan.partial_count, 489u);
    EXPECT_EQ(plan.input_capacity, 1000003u);
    EXPECT_EQ(plan.scratch_bytes, 0u);
    EXPECT_TRUE(plan.has_first_kernel);
    EXPECT_TRUE(plan.needs_finish);
    ASSERT_EQ(kernels::plan_launch(tile_args(k, 32, 1, 1), &plan), cudaSuccess);
    EXPECT_EQ(plan.grid, 1u);
  }
}

// The epoch pass plans as the single pass (one block per tile, at most 16384) and keeps its total
// in its scratch (kernels/epoch_total.h), so it has no partials and no finishing pass.
TEST(ModernPlan, EpochPassKeepsItsTotalInItsScratch) {
  kernels::LaunchPlan plan;
  // 2^24 floats = 2^22 vectors; tiles of 512 x 4 vectors -> 2048 blocks.
  ASSERT_EQ(kernels::plan_launch(tile_args(KernelId::EpochPass, 512, 4, 1 << 24), &plan),
            cudaSuccess);
  EXPECT_EQ(plan.grid, 2048u);
  EXPECT_EQ(plan.partial_count, 0u);
  EXPECT_EQ(plan.scratch_bytes, kernels::kEpochScratchBytes);
  EXPECT_FALSE(plan.needs_finish);
  EXPECT_TRUE(plan.total_in_scratch);
  ASSERT_EQ(
      kernels::plan_launch(tile_args(KernelId::EpochPass, 128, 1, std::size_t(1) << 28), &plan),
      cudaSuccess);
  EXPECT_EQ(plan.grid, 16384u);
  // The other kernels' totals are where args.result points.
  ASSERT_EQ(kernels::plan_launch(tile_args(KernelId::SinglePass, 512, 4, 1 << 24), &plan),
            cudaSuccess);
  EXPECT_FALSE(plan.total_in_scratch);
  // int32 totals past 2^40 values would not be exact in its sum; registers only.
  auto big = tile_args(KernelId::EpochPass, 1024, 4, (std::size_t(1) << 40) + 1);
  big.type = DType::Int32;
  EXPECT_EQ(kernels::plan_launch(big, &plan), cudaErrorInvalidValue);
  auto shared = tile_args(KernelId::EpochPass, 256, 4, 100);
  shared.workspace = Workspace::Shared;
  EXPECT_EQ(kernels::plan_launch(shared, &plan), cudaErrorInvalidValue);
}

TEST(ModernPlan, RefusesWhatTheKernelsAreNotBuiltFor) {
  kernels::LaunchPlan plan;
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::WarpShuffle, 48, 1, 100), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::WarpShuffle, 2048, 1, 100), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::WarpShuffle, 256, 3, 100), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::CgReduce, 256, 1, 0), &plan),
            cudaErrorInvalidValue);
  auto shared = tile_args(KernelId::CgReduce, 256, 1, 100);
  shared.workspace = Workspace::Shared;
  EXPECT_EQ(kernels::plan_launch(shared, &plan), cudaErrorInvalidValue);
  // REDUX has no float form: refused before any device query.
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::ReduceAddSync, 256, 1, 100), &plan),
            cudaErrorInvalidValue);
  // The grid-stride kernels are built for 128..1024 threads and 1, 2, 4, 8 vectors.
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::SinglePass, 64, 4, 100), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::VectorizedGridStride, 256, 16, 100), &plan),
            cudaErrorInvalidValue);
  // CUB DeviceReduce picks its own block size: anything but 0 is refused.
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::CubDeviceReduce, 256, 1, 100), &plan),
            cudaErrorInvalidValue);
  EXPECT_EQ(kernels::plan_launch(tile_args(KernelId::CubBlockReduceRaking, 32, 1, 100), &plan),
            cudaErrorInvalidValue);
}

}  // namespace
}  // namespace rl
