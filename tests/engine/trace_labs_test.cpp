// The labs' step-by-step traces (every lab kernel, KernelIds 40-62): each traced block's partial
// equals the host model's partial of the same block, at several block sizes, factors, awkward N
// and blocks past the first; the predicates' barriers that return a value, the early exit, the
// ballots and the unroll lab's iterations are the kernels' steps; bad requests say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "kernels/lab.h"

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model.h"
#include "engine/trace/trace.h"

namespace rl {
namespace {

Trace lab_trace(const std::string& id, int block, int unroll, std::uint64_t n, unsigned index) {
  // The default workspace (global) stands for the lab's own (registers, or shared memory for
  // the tree loops).
  return make_trace({id, block, unroll, Workspace::Global, n, DType::Int32, index});
}

std::set<int> some_factors(const VariantInfo& v) {
  return {v.unroll_factors.front(), v.default_unroll, v.unroll_factors.back()};
}

TEST(TraceLabs, EveryLabKernelsPartialEqualsTheBlockModel) {
  std::map<std::uint64_t, InputData> inputs;
  int kernels = 0, compared = 0;
  for (const VariantInfo& v : catalog()) {
    if (!is_lab(v.family)) continue;
    ++kernels;
    EXPECT_TRUE(has_trace(v)) << v.id;
    for (int b : {32, 64, 256, 1024})
      for (int u : some_factors(v))
        for (std::uint64_t n : {1ull, 33ull, 1000ull, 100003ull}) {
          const InputData& in = inputs.try_emplace(n, make_input(n, DType::Int32)).first->second;
          const PointSpec p{v.id, v.workspaces.front(), b, u, n, DType::Int32};
          const std::optional<ReductionOutput> model = model_reduce(p, in);
          ASSERT_TRUE(model) << p.label();
          const std::uint64_t grid = model->partials_i64.size();
          for (std::uint64_t block : std::set<std::uint64_t>{0, 1, grid / 2, grid - 1}) {
            if (block >= grid) continue;
            const Trace t = lab_trace(v.id, b, u, n, unsigned(block));
            ASSERT_EQ(t.grid, grid) << p.label();
            EXPECT_EQ(std::int64_t(t.partial), model->partials_i64[block])
                << p.label() << " block " << block;
            EXPECT_EQ(t.steps.back().kind, "write_partial") << p.label();
            EXPECT_EQ(t.steps.back().values[0], t.partial) << p.label();
            ++compared;
          }
        }
  }
  EXPECT_EQ(kernels, 20);  // KernelIds 40-51, 55-59, 60-62
  EXPECT_GT(compared, 1000);
}

TEST(TraceLabs, SyncthreadsCountIsTheBarrierThatReturnsTheBlocksCount) {
  const Trace t = lab_trace("count_syncthreads_count", 64, 4, 1u << 12, 3);
  ASSERT_EQ(t.steps.size(), 2u * 4 + 1);  // per tile: load, vote; then the partial
  std::int64_t running = 0;
  for (unsigned j = 0; j < 4; ++j) {
    const TraceStep& load = t.steps[2 * j];
    const TraceStep& vote = t.steps[2 * j + 1];
    EXPECT_EQ(load.kind, "load");
    EXPECT_EQ(vote.kind, "vote");
    EXPECT_TRUE(vote.barrier);
    for (double x : load.values) running += std::int64_t(x);  // the predicates, 1 or 0
    // Every thread holds the block's running count after the barrier.
    EXPECT_TRUE(std::all_of(vote.values.begin(), vote.values.end(),
                            [&](double v) { return std::int64_t(v) == running; }));
    EXPECT_NE(vote.caption.find("the barrier that returns a value"), std::string::npos);
    EXPECT_EQ(vote.masks, std::vector<std::uint32_t>(2, 0xffffffffu));  // every thread waits
  }
  EXPECT_EQ(std::int64_t(t.partial), running);
  EXPECT_EQ(t.block_totals.barriers, 4u);
  EXPECT_EQ(t.launch_totals.barriers, 4u * t.grid);
  EXPECT_EQ(t.launch_totals.loads, 1u << 12);  // every element once
}

TEST(TraceLabs, EarlyExitLeavesAtTheFirstTileWithAHit) {
  const std::uint64_t n = 1u << 16;
  const int B = 64, U = 16;
  const InputData in = make_input(n, DType::Int32);
  bool saw_exit = false;
  std::uint64_t reads = 0;
  for (unsigned b = 0; b < n / (B * U); ++b) {
    unsigned first_hit = U;
    for (unsigned i = 0; i < unsigned(B * U) && first_hit == unsigned(U); ++i)
      if (kernels::lab::searched(in.i32[b * B * U + i])) first_hit = i / B;
    const unsigned tiles = std::min<unsigned>(first_hit + 1, U);
    reads += std::uint64_t(tiles) * B;
    if (b > 8) continue;
    const Trace t = lab_trace("any_early_exit", B, U, n, b);
    EXPECT_EQ(t.steps.size(), 2u * tiles + 1) << "block " << b;
    EXPECT_EQ(t.partial, first_hit < unsigned(U) ? 1.0 : 0.0) << "block " << b;
    if (first_hit + 1 < unsigned(U)) {
      saw_exit = true;
      EXPECT_NE(t.steps[2 * tiles - 1].caption.find("early exit"), std::string::npos);
      EXPECT_NE(t.steps[2 * tiles - 1].caption.find("are never read"), std::string::npos);
    }
  }
  EXPECT_TRUE(saw_exit);
  // The launch reads only the tiles each block reaches.
  const Trace t = lab_trace("any_early_exit", B, U, n, 0);
  EXPECT_EQ(t.launch_totals.loads, reads);
  EXPECT_LT(reads, n);
}

TEST(TraceLabs, BallotArrowsComeFromTheLanesWhosePredicateHolds) {
  const Trace t = lab_trace("count_ballot", 128, 2, 0, 0);
  const TraceStep& load = t.steps[0];
  const TraceStep& ballot = t.steps[1];
  ASSERT_EQ(ballot.kind, "ballot");
  EXPECT_FALSE(ballot.barrier);
  std::size_t voting = 0;
  for (unsigned tid = 0; tid < 128; ++tid)
    if (load.values[tid] != 0 && tid % 32 != 0) ++voting;
  EXPECT_EQ(ballot.ops.size(), voting);
  for (auto [dst, src] : ballot.ops) EXPECT_EQ(dst, src / 32 * 32);
  // Lane 0 of each warp holds its warp's count; then the warp-shuffle block sum (one barrier).
  EXPECT_EQ(t.block_totals.barriers, 1u);
}

TEST(TraceLabs, SharedTreeCountsThenOneBarrierPerLevel) {
  const Trace t = lab_trace("count_shared_tree", 256, 8, 0, 0);
  ASSERT_EQ(t.steps.size(), 1u + 8 + 1);  // load, log2(256) levels, the partial
  EXPECT_EQ(t.steps[0].counters.loads, 256u * 8);
  EXPECT_EQ(t.block_totals.barriers, 9u);
  EXPECT_EQ(t.steps[1].stride, 128u);
}

TEST(TraceLabs, UnrollPragmaRunsThirtyTwoOverUIterations) {
  for (int u : {1, 4, 32}) {
    const Trace t = lab_trace("unroll_pragma", 64, u, 0, 0);
    const auto loads = std::count_if(t.steps.begin(), t.steps.end(),
                                     [](const TraceStep& s) { return s.kind == "load"; });
    EXPECT_EQ(loads, 32 / u) << "U=" << u;
    EXPECT_EQ(t.steps[0].counters.loads, 64u * u);
  }
  const Trace all = lab_trace("unroll_pragma", 64, 32, 0, 0);
  EXPECT_NE(all.steps[0].caption.find("32 loads in flight"), std::string::npos);
  const Trace rolled = lab_trace("tree_loop_rolled", 128, 1, 1000, 7);
  const Trace unrolled = lab_trace("tree_loop_unrolled", 128, 1, 1000, 7);
  EXPECT_EQ(rolled.partial, unrolled.partial);
  EXPECT_EQ(rolled.steps.size(), unrolled.steps.size());
  EXPECT_NE(rolled.steps[1].caption.find("#pragma unroll 1"), std::string::npos);
  EXPECT_NE(unrolled.steps[1].caption.find("constant"), std::string::npos);
}

TEST(TraceLabs, RefusesWhatTheLabDoesNotTake) {
  const auto message = [](TraceRequest r) {
    try {
      make_trace(r);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"count_ballot", 64, 3}).find("1, 2, ..., 16 (U: tiles per block)"),
            std::string::npos);
  EXPECT_NE(message({"tree_loop_rolled", 64, 2}).find("1 only"), std::string::npos);
  EXPECT_NE(message({"tree_loop_rolled", 64, 1, Workspace::Registers}).find("shared memory"),
            std::string::npos);
  EXPECT_NE(
      message({"unroll_pragma", 64, 4, Workspace::Registers, 0, DType::Float32}).find("int32 only"),
      std::string::npos);
  EXPECT_NE(message({"any_early_exit", 64, 4, Workspace::Registers, 1000, DType::Int32, 4})
                .find("has 4 blocks"),
            std::string::npos);
  EXPECT_NE(message({"cub_device_reduce", 64}).find("every lab kernel"), std::string::npos);
}

}  // namespace
}  // namespace rl
