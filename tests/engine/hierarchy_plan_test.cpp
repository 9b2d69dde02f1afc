// The hierarchy plan (engine/views/hierarchy_plan.h): shards as multi_spec splits them, grids
// and partials per GPU from the kernels' planning, bytes moved per exchange, the order of the
// steps, the measured phases found only for the plan's own point, and clear refusals.
#include <gtest/gtest.h>

#include <string>

#include "engine/core/error.h"
#include "engine/views/hierarchy_plan.h"

namespace rl {
namespace {

HierarchyRequest request(int gpus, Exchange e, std::uint64_t n = std::uint64_t(1) << 28) {
  HierarchyRequest r;
  r.gpus = gpus;
  r.exchange = e;
  r.size = n;
  return r;
}

std::vector<HierarchyLevel> levels(const HierarchyPlan& p) {
  std::vector<HierarchyLevel> out;
  for (const HierarchyStep& s : p.steps) out.push_back(s.level);
  return out;
}

using L = HierarchyLevel;

TEST(HierarchyPlan, OneGpuIsBlockGridTotal) {
  HierarchyRequest r = request(1, Exchange::NcclAllReduce);
  r.variant = "interleaved";
  r.block_size = 1024;
  r.unroll = 1;
  r.workspace = Workspace::Shared;
  r.size = std::uint64_t(1) << 24;
  const HierarchyPlan p = make_hierarchy_plan(r);
  EXPECT_EQ(levels(p), (std::vector<L>{L::Block, L::Grid, L::Total}));
  ASSERT_EQ(p.shards.size(), 1u);
  EXPECT_EQ(p.shards[0].grid, 16384u);  // the classic ladder's grid at 2^24 x 1024
  EXPECT_EQ(p.shards[0].partials, 16384u);
  EXPECT_TRUE(p.shards[0].finishing_pass);
  EXPECT_EQ(p.exchange_bytes, 0u);
  EXPECT_NE(p.steps[1].caption.find("finishing pass"), std::string::npos);
  EXPECT_EQ(p.steps[1].phase, "local");
}

TEST(HierarchyPlan, ShardsSplitAsTheMultiGpuRunSplits) {
  const std::uint64_t n = 1000003;
  const HierarchyPlan p = make_hierarchy_plan(request(4, Exchange::NcclReduce, n));
  ASSERT_EQ(p.shards.size(), 4u);
  const std::vector<std::uint64_t> sizes = shard_sizes(n, 4);
  std::uint64_t first = 0;
  for (int g = 0; g < 4; ++g) {
    EXPECT_EQ(p.shards[g].first, first);
    EXPECT_EQ(p.shards[g].elements, sizes[g]);
    EXPECT_GT(p.shards[g].grid, 0u);
    EXPECT_EQ(p.shards[g].partials, 0u);  // the single pass finishes with atomics
    first += sizes[g];
  }
  EXPECT_EQ(first, n);
  EXPECT_NE(p.steps[1].caption.find("the first 3 one element larger"), std::string::npos);
  EXPECT_NE(p.steps[1].caption.find("GPU 3 [750003, 1000003)"), std::string::npos);
}

TEST(HierarchyPlan, EachExchangeMovesWhatTheDocsSay) {
  const int G = 2;
  const HierarchyPlan all = make_hierarchy_plan(request(G, Exchange::NcclAllReduce));
  EXPECT_EQ(levels(all), (std::vector<L>{L::Block, L::Shards, L::Grid, L::Exchange, L::Total}));
  EXPECT_EQ(all.partial_bytes, 8u);  // int32 sums in int64
  EXPECT_EQ(all.exchange_bytes, 2u * 8);
  EXPECT_NE(all.steps.back().caption.find("Every GPU"), std::string::npos);
  EXPECT_EQ(make_hierarchy_plan(request(G, Exchange::NcclReduce)).exchange_bytes, 8u);
  EXPECT_EQ(make_hierarchy_plan(request(G, Exchange::PeerPartials)).exchange_bytes, 8u);
  // The gather moves the data: the other half of 2^28 ints, before the root reduces all of it.
  const HierarchyPlan gather = make_hierarchy_plan(request(G, Exchange::GatherShards));
  EXPECT_EQ(levels(gather), (std::vector<L>{L::Block, L::Shards, L::Exchange, L::Grid, L::Total}));
  EXPECT_EQ(gather.exchange_bytes, (std::uint64_t(1) << 27) * 4);
  EXPECT_EQ(gather.steps[2].bytes_moved, gather.exchange_bytes);
  EXPECT_EQ(gather.shards[1].grid, 0u);  // only the root reduces
  EXPECT_GT(gather.shards[0].grid,
            make_hierarchy_plan(request(G, Exchange::NcclReduce)).shards[0].grid);
  HierarchyRequest f = request(G, Exchange::NcclAllReduce);
  f.type = DType::Float32;
  EXPECT_EQ(make_hierarchy_plan(f).exchange_bytes, 2u * 4);
}

TEST(HierarchyPlan, GridsTheGpuChoosesAreSaidNotInvented) {
  HierarchyRequest r = request(2, Exchange::NcclAllReduce);
  r.variant = "cub_device_reduce";
  r.block_size = 0;
  r.unroll = 1;
  const HierarchyPlan p = make_hierarchy_plan(r);
  EXPECT_EQ(p.shards[0].grid, 0u);
  EXPECT_NE(p.grid_note.find("CUB"), std::string::npos);
  EXPECT_NE(p.steps[2].caption.find("CUB picks"), std::string::npos);
}

TEST(HierarchyPlan, RefusesWhatCannotBePlanned) {
  const auto message = [](HierarchyRequest r) {
    try {
      make_hierarchy_plan(r);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(request(0, Exchange::NcclReduce)).find("give 1 to 64"), std::string::npos);
  EXPECT_NE(message(request(65, Exchange::NcclReduce)).find("give 1 to 64"), std::string::npos);
  EXPECT_NE(message(request(4, Exchange::NcclReduce, 3)).find("at least one element"),
            std::string::npos);
  HierarchyRequest bad = request(2, Exchange::NcclReduce);
  bad.variant = "no_such_kernel";
  EXPECT_NE(message(bad).find("unknown variant"), std::string::npos);
  bad.variant = "single_pass";
  bad.block_size = 96;
  EXPECT_NE(message(bad).find("block size 96"), std::string::npos);
}

TEST(HierarchyPlan, MeasuredPhasesOnlyForThePlansOwnPoint) {
  MultiSession s;
  s.spec.variant = "single_pass";
  MultiPoint m;
  m.point = {Exchange::NcclAllReduce, 2, std::uint64_t(1) << 28, DType::Int32};
  m.devices = {0, 1};
  m.times.local.samples = m.times.exchange.samples = m.times.total.samples = 40;
  m.times.local.median_ms = 0.47;
  m.times.exchange.median_ms = 0.015;
  m.times.total.median_ms = 0.485;
  s.points.push_back(m);
  const HierarchyPlan p = make_hierarchy_plan(request(2, Exchange::NcclAllReduce));
  const std::optional<MeasuredPhases> got = measured_phases(s, p);
  ASSERT_TRUE(got);
  EXPECT_DOUBLE_EQ(got->exchange_ms, 0.015);
  EXPECT_EQ(got->devices, "cuda:0, cuda:1");
  EXPECT_EQ(got->samples, 40);
  EXPECT_FALSE(measured_phases(s, make_hierarchy_plan(request(2, Exchange::NcclReduce))));
  EXPECT_FALSE(measured_phases(s, make_hierarchy_plan(request(1, Exchange::NcclAllReduce))));
  s.points[0].status = PointStatus::Wrong;
  EXPECT_FALSE(measured_phases(s, p));
}

}  // namespace
}  // namespace rl
