// The block model's counts of a point (engine/model_counts.h): at the classic ladder's set-up (N =
// 2^24, B = 1024, int32, in place) the barrier totals are the classic ladder's own published
// numbers; at other sizes and block sizes they equal the block model's launch totals (make_trace);
// the finishing pass and the launches; what they cost; the runner fills them on the host backend;
// JSON and CSV carry them, and sessions without them still open.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "engine/backend/backend.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/measure/runner.h"
#include "engine/trace/model_counts.h"
#include "engine/trace/trace.h"

namespace rl {
namespace {

constexpr std::uint64_t kSeedN = std::uint64_t(1) << 24;

PointSpec seed_point(const std::string& variant, int unroll, Workspace w = Workspace::Global) {
  return PointSpec{variant, w, 1024, unroll, kSeedN, DType::Int32};
}

std::uint64_t barriers(const PointSpec& p) {
  const auto c = model_counts(p);
  EXPECT_TRUE(c.has_value()) << p.label();
  return c ? c->barriers() : 0;
}

// The blog's own arithmetic: "16384个block × 10轮 = 163840次block内同步",
// "8192个block × 11轮 = 90112次", "__syncthreads()=11*4096=45056", "11*2048=22528", and
// reduceUnrollWarp8 "每个block减少了6轮，那总共有2048个block，又减少了12288个__syncthreads()".
// reduceNeighboredLess "调用次数一样" (the same count as reduceNeighbored).
TEST(ModelCounts, ClassicPublishedBarrierTotals) {
  EXPECT_EQ(barriers(seed_point("interleaved", 1)), 163840u);
  EXPECT_EQ(barriers(seed_point("unroll", 2)), 90112u);
  EXPECT_EQ(barriers(seed_point("unroll", 4)), 45056u);
  EXPECT_EQ(barriers(seed_point("unroll", 8)), 22528u);
  EXPECT_EQ(barriers(seed_point("unroll", 8)) - barriers(seed_point("unroll_warp_volatile", 8)),
            12288u);
  EXPECT_EQ(barriers(seed_point("unroll_warp_volatile", 8)), 10240u);
  EXPECT_EQ(barriers(seed_point("neighbored", 1)), 163840u);
  EXPECT_EQ(barriers(seed_point("neighbored_less", 1)), barriers(seed_point("neighbored", 1)));
  // reduceCompleteUnrollWarp8: the load barrier and the four if-chain steps (+512 .. +64).
  EXPECT_EQ(barriers(seed_point("complete_unroll_warp_volatile", 8)), 2048u * 5u);
  // The classic ladder's grids: 16384 blocks, halved by each doubling of U.
  EXPECT_EQ(model_counts(seed_point("interleaved", 1))->grid, 16384u);
  EXPECT_EQ(model_counts(seed_point("unroll", 2))->grid, 8192u);
  EXPECT_EQ(model_counts(seed_point("unroll", 8))->grid, 2048u);
}

// Counts equal the block model's launch totals for every variant with a trace, at several sizes
// (tails included) and block sizes, in every workspace and type it takes.
TEST(ModelCounts, EqualTheBlockModelTotals) {
  int compared = 0;
  for (const VariantInfo& v : catalog()) {
    if (!has_trace(v) || v.is_segmented()) continue;  // a matrix point has no counts here
    for (Workspace w : v.workspaces)
      for (int b : {64, 256, 1024})
        for (std::uint64_t n :
             {std::uint64_t(1000003), std::uint64_t(1) << 16, (std::uint64_t(1) << 20) + 3, kSeedN})
          for (DType t : v.types) {
            if (!v.takes_block_size(b)) continue;
            const int u = v.seed_unroll;
            const PointSpec p{v.id, w, b, u, n, t};
            TraceRequest r;
            r.variant = v.id;
            r.block_size = b;
            r.unroll = u;
            r.workspace = w;
            r.size = n;
            r.type = t;
            const Trace trace = make_trace(r);
            const auto c = model_counts(p);
            ASSERT_TRUE(c.has_value()) << p.label();
            EXPECT_EQ(c->first_kernel, trace.launch_totals) << p.label();
            EXPECT_EQ(c->grid, trace.grid) << p.label();
            ++compared;
          }
  }
  EXPECT_GT(compared, 150);
}

// The single pass's grid is capped (each block then walks several tiles) and block 0 reads the
// scalars past the last whole vector: counted from one tile, the totals still equal the trace's.
TEST(ModelCounts, SinglePassCappedGridEqualsTheTrace) {
  for (auto [n, b, t] : {std::tuple{(std::uint64_t(1) << 23) + 5, 128, DType::Int32},
                         std::tuple{(std::uint64_t(1) << 21) + 3, 128, DType::Float32},
                         std::tuple{std::uint64_t(1000003), 512, DType::Int32}}) {
    const PointSpec p{"single_pass", Workspace::Registers, b, 1, n, t};
    TraceRequest r;
    r.variant = "single_pass";
    r.block_size = b;
    r.unroll = 1;
    r.workspace = Workspace::Registers;
    r.size = n;
    r.type = t;
    const Trace trace = make_trace(r);
    const auto c = model_counts(p);
    ASSERT_TRUE(c.has_value()) << p.label();
    EXPECT_EQ(c->first_kernel, trace.launch_totals) << p.label();
    EXPECT_EQ(c->grid, trace.grid) << p.label();
    EXPECT_EQ(c->launches, 1) << p.label();
    EXPECT_EQ(c->finish, StepCounters{}) << p.label();
  }
}

TEST(ModelCounts, DerivedWarpStepsAndLaneEfficiency) {
  for (const char* v : {"neighbored", "neighbored_less", "interleaved"}) {
    const auto c = model_counts(seed_point(v, 1));
    ASSERT_TRUE(c.has_value());
    const StepCounters& k = c->first_kernel;
    EXPECT_EQ((k.active_lanes + k.divergent_lanes) % 32, 0u) << v;
    EXPECT_EQ(c->warp_steps(), (k.active_lanes + k.divergent_lanes) / 32) << v;
    EXPECT_DOUBLE_EQ(c->lane_efficiency(),
                     double(k.active_lanes) / (double(c->warp_steps()) * 32.0))
        << v;
  }
  // The classic ladder's lesson in lanes: reduceNeighbored idles most of each warp it issues (1/6
  // of the lanes work), the contiguous threads of reduceNeighboredLess keep warps full.
  const auto nb = model_counts(seed_point("neighbored", 1));
  const auto less = model_counts(seed_point("neighbored_less", 1));
  EXPECT_DOUBLE_EQ(nb->lane_efficiency(), 1.0 / 6.0);
  EXPECT_GT(less->lane_efficiency(), 0.8);
  EXPECT_LT(less->warp_steps(), nb->warp_steps() / 4);
  EXPECT_EQ(StepCounters{}.lane_efficiency(), 0.0);
}

TEST(ModelCounts, LaunchesAndTheFinishingPass) {
  const auto c = model_counts(seed_point("interleaved", 1));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->launches, 2);
  // One block of 1024 threads: the barrier after phase 1 and ten tree steps.
  EXPECT_EQ(c->finish.barriers, 11u);
  // It reads the 16384 partials, the tree's operands (2 per addition, 1023 additions) and
  // ws[0] once more for the result; it writes the workspace, the tree and the result.
  EXPECT_EQ(c->finish.loads, 16384u + 2u * 1023u + 1u);
  EXPECT_EQ(c->finish.stores, 1024u + 1023u + 1u);
  EXPECT_EQ(finish_pass_counts(10).loads, 10u + 2u * 1023u + 1u);
  EXPECT_EQ(c->whole().barriers, 163840u + 11u);
  const auto ws = model_counts(PointSpec{"warp_shuffle", Workspace::Registers, 1024, 8, kSeedN});
  ASSERT_TRUE(ws.has_value());
  EXPECT_EQ(ws->launches, 2);
  EXPECT_EQ(ws->barriers(), 2048u);  // one per block: the warp sums in shared memory
}

TEST(ModelCounts, NoneWithoutATraceOrForAShapeTheModelRefuses) {
  EXPECT_FALSE(model_counts(PointSpec{"vectorized", Workspace::Registers, 256, 4, kSeedN}));
  EXPECT_FALSE(model_counts(PointSpec{"cub_device_reduce", Workspace::Registers, 0, 1, kSeedN}));
  EXPECT_FALSE(model_counts(PointSpec{"unroll_warp_volatile", Workspace::Global, 32, 8, kSeedN}));
  EXPECT_FALSE(model_counts(PointSpec{"no_such_variant", Workspace::Global, 256, 1, kSeedN}));
  EXPECT_FALSE(model_counts(PointSpec{"interleaved", Workspace::Global, 256, 1, 0}));
  // reduce_add_sync has no float32 form.
  EXPECT_FALSE(model_counts(
      PointSpec{"reduce_add_sync", Workspace::Registers, 256, 1, 1024, DType::Float32}));
}

// Cheap: arithmetic over one traced block. The classic ladder at its set-up and the grid-capped
// single pass at 2^28 take milliseconds the first time (the bound is generous for slow CI
// machines), and a cached point next to nothing.
TEST(ModelCounts, CostIsMilliseconds) {
  using Clock = std::chrono::steady_clock;
  std::vector<PointSpec> points;  // shapes no other test counted, so none is cached yet
  auto fresh = [](const char* v, int u) {
    PointSpec p = seed_point(v, u, Workspace::Shared);
    p.size += 7;
    return p;
  };
  for (const char* v : {"neighbored", "neighbored_less", "interleaved"})
    points.push_back(fresh(v, 1));
  for (int u : {2, 4, 8, 16}) points.push_back(fresh("unroll", u));
  points.push_back(fresh("complete_unroll_sync", 16));
  points.push_back(
      PointSpec{"single_pass", Workspace::Registers, 512, 4, std::uint64_t(1) << 28, DType::Int32});
  points.push_back(PointSpec{"single_pass", Workspace::Registers, 128, 1,
                             (std::uint64_t(1) << 28) + 1, DType::Float32});
  const auto t0 = Clock::now();
  for (const PointSpec& p : points) ASSERT_TRUE(model_counts(p).has_value()) << p.label();
  const double first_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  const auto t1 = Clock::now();
  for (int i = 0; i < 100; ++i)
    for (const PointSpec& p : points) model_counts(p);
  const double cached_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - t1).count() / 100;
  EXPECT_LT(first_ms, 500.0) << "10 points counted in " << first_ms << " ms";
  EXPECT_LT(cached_ms, 5.0) << "10 cached points in " << cached_ms << " ms";
  RecordProperty("first_ms", std::to_string(first_ms));
  std::printf("10 points counted in %.2f ms, again (cached) in %.4f ms\n", first_ms, cached_ms);
}

// The runner fills counts for every point with a trace, on the host backend too.
TEST(ModelCounts, RunnerFillsThemOnTheHostBackend) {
  Runner runner(make_host_backend());
  ExperimentSpec s;
  s.variants = {"reduceNeighbored", "reduceInterleaved", "reduceUnroll8", "warp_shuffle"};
  s.workspaces = {Workspace::Global, Workspace::Registers};
  s.block_sizes = {256};
  s.sizes = {100003};
  s.timing.budget_ms = 1;
  s.timing.min_samples = 1;
  s.timing.max_samples = 2;
  const Session session = runner.run(s, {});
  ASSERT_EQ(session.results.size(), 4u);
  for (const PointResult& r : session.results) {
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
    ASSERT_TRUE(r.counts.has_value()) << r.point.label();
    EXPECT_EQ(*r.counts, *model_counts(r.point)) << r.point.label();
    EXPECT_EQ(r.counts->grid, r.grid) << r.point.label();
  }
}

// A session's counts survive JSON; sessions from before counts open without them, and the
// model supplies them (counts_of); a bad field is named.
TEST(ModelCounts, JsonRoundTripAndOldSessions) {
  Session s;
  s.device.backend = "host";
  PointResult with;
  with.point = seed_point("unroll", 2);
  with.counts = model_counts(with.point);
  PointResult without;  // vectorized: no trace, no counts
  without.point = PointSpec{"vectorized", Workspace::Registers, 256, 4, kSeedN};
  with.grid = without.grid = 1;  // a point that ran launched blocks (session_checks.h)
  s.results = {with, without};
  const std::string text = session_to_json(s);
  const Session back = session_from_json(text);
  ASSERT_TRUE(back.results[0].counts.has_value());
  EXPECT_EQ(*back.results[0].counts, *with.counts);
  EXPECT_FALSE(back.results[1].counts.has_value());

  using Json = nlohmann::ordered_json;
  Json doc = Json::parse(text);
  EXPECT_EQ(doc["results"][0]["counts"]["first_kernel"]["barriers"], 90112u);
  EXPECT_EQ(doc["results"][0]["counts"]["launches"], 2);
  EXPECT_TRUE(doc["results"][1]["counts"].is_null());
  EXPECT_DOUBLE_EQ(doc["results"][0]["counts"]["lane_efficiency"].get<double>(),
                   with.counts->lane_efficiency());

  for (Json& r : doc["results"]) r.erase("counts");
  const Session old = session_from_json(doc.dump());
  EXPECT_FALSE(old.results[0].counts.has_value());
  ASSERT_TRUE(counts_of(old.results[0]).has_value());
  EXPECT_EQ(counts_of(old.results[0])->barriers(), 90112u);
  EXPECT_FALSE(counts_of(old.results[1]).has_value());

  doc = Json::parse(text);
  doc["results"][0]["counts"]["first_kernel"]["barriers"] = -3;
  try {
    session_from_json(doc.dump());
    ADD_FAILURE() << "a negative barrier count was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("results[0].counts.first_kernel.barriers"),
              std::string::npos)
        << e.what();
  }
  doc = Json::parse(text);
  doc["results"][0]["counts"]["launches"] = 3;
  try {
    session_from_json(doc.dump());
    ADD_FAILURE() << "launches 3 was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("results[0].counts.launches"), std::string::npos)
        << e.what();
  }
}

TEST(ModelCounts, CsvColumns) {
  PointResult with;
  with.point = seed_point("interleaved", 1);
  with.counts = model_counts(with.point);
  PointResult without;
  without.point = PointSpec{"vectorized", Workspace::Registers, 256, 4, kSeedN};
  Session s;
  s.results = {with, without};
  const std::string csv = summary_csv(s);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find(",counts_barriers,counts_warp_steps,counts_lane_efficiency,"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find(",counts_loads,counts_stores,counts_launches,counts_finish_barriers"),
            std::string::npos)
      << header;
  // The interleaved row ends with its counts; the vectorized row with 13 empty cells.
  const std::string row1 =
      csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_NE(row1.find(",163840,"), std::string::npos) << row1;
  EXPECT_EQ(row1.substr(row1.size() - 5), ",2,11") << row1;
  EXPECT_EQ(csv.substr(csv.size() - 14), ",,,,,,,,,,,,,\n");
}

}  // namespace
}  // namespace rl
