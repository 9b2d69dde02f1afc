// The trace of single_pass: each block's traced sum is the sum of exactly the elements its tiles
// hold (block 0 with the scalar tail; a capped grid walks several tiles), the blocks add up to
// the input's total, and the steps are the kernel's: load, warp-level block sum, one atomic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/trace/trace.h"

namespace rl {
namespace {

// The elements block b of a grid of `grid` reads, added up in int64: its tiles of B*U vectors
// (tile b, b + grid, ...), and for block 0 the n % 4 scalars past the last whole vector.
std::int64_t block_sum(const std::vector<std::int32_t>& x, unsigned B, unsigned U, unsigned grid,
                       unsigned b) {
  const std::uint64_t n = x.size(), nv = n / 4, tile = std::uint64_t(B) * U;
  std::int64_t s = 0;
  for (std::uint64_t t = b; t * tile < nv; t += grid)
    for (std::uint64_t v = t * tile; v < std::min(nv, (t + 1) * tile); ++v)
      for (int k = 0; k < 4; ++k) s += x[4 * v + k];
  if (b == 0)
    for (std::uint64_t i = nv * 4; i < n; ++i) s += x[i];
  return s;
}

TEST(TraceSinglePass, BlocksAddUpToTheTotal) {
  for (unsigned B : {128u, 1024u})
    for (unsigned U : {1u, 8u})
      for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(31), std::uint64_t(100003)}) {
        const InputData in = make_input(n, DType::Int32);
        const std::int64_t total = std::accumulate(in.i32.begin(), in.i32.end(), std::int64_t(0));
        const Trace first =
            make_trace({"single_pass", int(B), int(U), Workspace::Global, n, DType::Int32, 0});
        EXPECT_EQ(first.workspace, Workspace::Registers);
        std::int64_t sum = 0;
        for (unsigned b = 0; b < first.grid; ++b) {
          const Trace t =
              make_trace({"single_pass", int(B), int(U), Workspace::Registers, n, DType::Int32, b});
          EXPECT_EQ(std::int64_t(t.partial), block_sum(in.i32, B, U, unsigned(t.grid), b))
              << "B=" << B << " U=" << U << " N=" << n << " block " << b;
          sum += std::int64_t(t.partial);
        }
        EXPECT_EQ(sum, total) << "B=" << B << " U=" << U << " N=" << n;
        // Every element once, and (grids of more than 512 warps) warp 0 of each block reads the
        // W warp sums back.
        const std::uint64_t warps = B / 32;
        const bool per_warp = first.grid * warps <= 512;
        EXPECT_EQ(first.launch_totals.loads, n + (per_warp ? 0 : first.grid * warps));
      }
}

TEST(TraceSinglePass, ACappedGridWalksSeveralTiles) {
  // 128 threads x 1 vector = 512 elements a tile: 2^23 + 5 elements are 2^21 + 1 vectors, 16384
  // full tiles and one of a single vector, one tile more than the int32 cap of 16384 blocks, so
  // block 0 takes tile 0, the last vector (tile 16384) and the scalar past it.
  const std::uint64_t n = (std::uint64_t(1) << 23) + 5;
  const Trace t = make_trace({"single_pass", 128, 1, Workspace::Registers, n, DType::Int32, 0});
  EXPECT_EQ(t.grid, 16384u);
  const InputData in = make_input(n, DType::Int32);
  EXPECT_EQ(std::int64_t(t.partial), block_sum(in.i32, 128, 1, 16384, 0));
  EXPECT_NE(t.steps.front().caption.find("walks tiles 0, 16384"), std::string::npos)
      << t.steps.front().caption;
  EXPECT_EQ(t.steps.front().counters.loads, 512u + 4 + 1);
}

TEST(TraceSinglePass, StepsAreTheKernels) {
  const Trace t =
      make_trace({"single_pass", 512, 4, Workspace::Registers, 1u << 20, DType::Float32, 3});
  // load, 5 shuffles in 16 warps, warp sums + barrier, gather, 5 shuffles in warp 0, the atomic.
  ASSERT_EQ(t.steps.size(), 1u + 5 + 1 + 1 + 5 + 1);
  EXPECT_EQ(t.steps.front().kind, "load");
  EXPECT_EQ(t.steps.front().counters.loads, 512u * 4 * 4);
  EXPECT_EQ(t.steps.back().kind, "atomic");
  EXPECT_NE(t.steps.back().caption.find("32 windows"), std::string::npos);
  EXPECT_EQ(t.block_totals.barriers, 1u);
  EXPECT_EQ(t.grid, (1u << 20) / (512 * 4 * 4));
  // A float block sum is close to the double sum of its tile.
  const InputData in = make_input(1u << 20, DType::Float32);
  double want = 0;
  for (std::uint64_t i = 3u * 8192; i < 4u * 8192; ++i) want += in.f32[i];
  EXPECT_NEAR(t.partial, want, 1e-5 * want);
  const Trace one = make_trace({"single_pass", 128, 1, Workspace::Registers, 7, DType::Int32, 0});
  EXPECT_EQ(one.grid, 1u);
  EXPECT_NE(one.steps.back().caption.find("lane 0 of each warp"), std::string::npos);
}

TEST(TraceSinglePass, SmallGridsFinishPerWarpWithOneRedux) {
  // 2^16 ints at 128 x 4: 32 blocks of 4 warps, 128 warps: each hands its own sum on.
  const Trace t =
      make_trace({"single_pass", 128, 4, Workspace::Registers, 1u << 16, DType::Int32, 5});
  ASSERT_EQ(t.steps.size(), 3u);  // load, REDUX, atomic
  EXPECT_EQ(t.steps[1].kind, "warp_reduce");
  EXPECT_EQ(t.steps[2].masks, (std::vector<std::uint32_t>{1u, 1u, 1u, 1u}));
  EXPECT_NE(t.steps[2].caption.find("only 128 warps"), std::string::npos) << t.steps[2].caption;
  EXPECT_EQ(t.block_totals.barriers, 0u);
  const InputData in = make_input(1u << 16, DType::Int32);
  EXPECT_EQ(std::int64_t(t.partial), block_sum(in.i32, 128, 4, 32, 5));
}

// The epoch pass: the same blocks and sums (int32 exactly), block 0 readying the next launch's
// accumulator first, float32 warp sums in fixed point (REDUX, no shuffle tree), and a RED that
// nothing waits for.
TEST(TraceSinglePass, TheEpochPassReadiesTheNextLaunchInBlock0AndHandsOnWithRed) {
  const std::uint64_t n = 100003;
  const InputData in = make_input(n, DType::Int32);
  const Trace first = make_trace({"epoch_pass", 128, 1, Workspace::Registers, n, DType::Int32, 0});
  std::int64_t sum = 0;
  for (unsigned b = 0; b < first.grid; ++b)
    sum += std::int64_t(
        make_trace({"epoch_pass", 128, 1, Workspace::Registers, n, DType::Int32, b}).partial);
  EXPECT_EQ(sum, std::accumulate(in.i32.begin(), in.i32.end(), std::int64_t(0)));

  // 2^16 ints at 128 x 4: 32 blocks of 4 warps, 128 warps: each warp hands on; block 5 starts
  // with its loads, block 0 first zeroes the next accumulator's word and writes the epoch.
  const Trace small =
      make_trace({"epoch_pass", 128, 4, Workspace::Registers, 1u << 16, DType::Int32, 5});
  ASSERT_EQ(small.steps.size(), 3u);  // load, REDUX, RED
  EXPECT_EQ(small.steps[0].kind, "load");
  EXPECT_EQ(small.steps[2].kind, "atomic");
  EXPECT_NE(small.steps[2].caption.find("RED"), std::string::npos);
  const InputData in16 = make_input(1u << 16, DType::Int32);
  EXPECT_EQ(std::int64_t(small.partial), block_sum(in16.i32, 128, 4, 32, 5));
  const Trace zero =
      make_trace({"epoch_pass", 128, 4, Workspace::Registers, 1u << 16, DType::Int32, 0});
  ASSERT_EQ(zero.steps.size(), 4u);  // epoch, load, REDUX, RED
  EXPECT_EQ(zero.steps[0].kind, "epoch");
  EXPECT_EQ(zero.steps[0].masks, (std::vector<std::uint32_t>{1u, 0u, 0u, 0u}));
  EXPECT_NE(zero.steps[0].caption.find("e + 1"), std::string::npos) << zero.steps[0].caption;
  // The launch's stores: 128 warps' REDs and block 0's two (the next word, the epoch), once,
  // whichever block is traced.
  EXPECT_EQ(zero.launch_totals.stores, 128u + 2u);
  EXPECT_EQ(small.launch_totals.stores, 128u + 2u);

  // float32 on a grid of more than 512 warps: fixed-point warp sums, the warps' sums through
  // shared memory, warp 0 adds them as integers: REDUX steps only, one barrier.
  const Trace big =
      make_trace({"epoch_pass", 512, 4, Workspace::Registers, 1u << 20, DType::Float32, 3});
  std::vector<std::string> kinds;
  for (const TraceStep& st : big.steps) kinds.push_back(st.kind);
  EXPECT_EQ(kinds.front(), "load");
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "shuffle"), 0);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "warp_reduce"), 2);
  EXPECT_EQ(big.block_totals.barriers, 1u);
  const auto last_reduce = std::find(kinds.rbegin(), kinds.rend(), "warp_reduce");
  const std::string& block_level = big.steps[kinds.rend() - last_reduce - 1].caption;
  EXPECT_NE(block_level.find("as integers"), std::string::npos) << block_level;
  const InputData fin = make_input(1u << 20, DType::Float32);
  double want = 0;
  for (std::uint64_t i = 3u * 8192; i < 4u * 8192; ++i) want += fin.f32[i];
  EXPECT_NEAR(big.partial, want, 1e-6 * want);
}

TEST(TraceSinglePass, TheClusterKernelAddsTheClusterStep) {
  // 2^16 ints at 256 x 4: 16 tiles, two clusters of 8 blocks.
  const Trace t = make_trace(
      {"cluster_single_pass", 256, 4, Workspace::Registers, 1u << 16, DType::Float32, 9});
  EXPECT_EQ(t.grid, 16u);
  ASSERT_GE(t.steps.size(), 3u);
  EXPECT_EQ(t.steps[t.steps.size() - 2].kind, "cluster");
  EXPECT_NE(t.steps[t.steps.size() - 2].caption.find("leader block (block 8"), std::string::npos)
      << t.steps[t.steps.size() - 2].caption;
  EXPECT_NE(t.steps.back().caption.find("ticket 1"), std::string::npos) << t.steps.back().caption;
  // 1000 ints at 1024 x 8: one tile, rounded up to one whole cluster.
  EXPECT_EQ(
      make_trace({"cluster_single_pass", 1024, 8, Workspace::Registers, 1000, DType::Int32, 0})
          .grid,
      8u);
}

TEST(TraceSinglePass, SaysWhatItDoesNotTake) {
  auto message = [](TraceRequest r) {
    try {
      make_trace(r);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message({"single_pass", 64, 1, Workspace::Registers, 0, DType::Int32, 0}),
            "block size 64: single_pass takes 128, 256, 512 or 1024");
  EXPECT_EQ(message({"single_pass", 128, 3, Workspace::Registers, 0, DType::Int32, 0}),
            "unroll 3: single_pass takes 1, 2, 4 or 8 vectors per thread");
  EXPECT_EQ(message({"single_pass", 128, 1, Workspace::Shared, 0, DType::Int32, 0}),
            "workspace shared: single_pass works in registers");
  EXPECT_EQ(message({"single_pass", 128, 1, Workspace::Registers, 1000, DType::Int32, 2}),
            "block index 2: the launch of N = 1000 has 2 blocks (0..1)");
}

}  // namespace
}  // namespace rl
