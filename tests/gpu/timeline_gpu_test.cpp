// Measured warp timelines on the GPU: the recording's own check (a warp that spins a known number
// of cycles before a barrier makes every other warp wait that long there), and every classic rung
// and every kernel past the ladder that has a twin at 2^24 elements recorded whole: every warp of
// every recorded block, marks in order, every release after the block's last arrival at that
// barrier. Skips, saying why, without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "engine/catalog/catalog.h"
#include "engine/trace/measured_timeline.h"
#include "engine/user/user_kernel.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

std::string where(const BlockTimeline& b, const WarpTimeline& w) {
  return "block " + std::to_string(b.block) + " warp " + std::to_string(w.warp);
}

// Start first, End last, clock and %globaltimer never going back, barriers as Arrive/Release
// pairs with consecutive ordinals.
void expect_well_formed(const BlockTimeline& b, const WarpTimeline& w) {
  ASSERT_FALSE(w.truncated) << where(b, w);
  ASSERT_GE(w.marks.size(), 2u) << where(b, w);
  EXPECT_EQ(w.marks.front().kind, MarkKind::Start) << where(b, w);
  EXPECT_EQ(w.marks.back().kind, MarkKind::End) << where(b, w);
  unsigned next_barrier = 0;
  bool waiting = false;
  for (std::size_t i = 1; i < w.marks.size(); ++i) {
    const TimelineMark &a = w.marks[i - 1], &m = w.marks[i];
    EXPECT_GE(m.clock, a.clock) << where(b, w) << " mark " << i;
    EXPECT_GE(m.ns, a.ns) << where(b, w) << " mark " << i;
    if (m.kind == MarkKind::Arrive) {
      EXPECT_FALSE(waiting) << where(b, w);
      EXPECT_EQ(m.index, next_barrier) << where(b, w);
      waiting = true;
    } else if (m.kind == MarkKind::Release) {
      EXPECT_TRUE(waiting) << where(b, w);
      EXPECT_EQ(m.index, next_barrier) << where(b, w);
      waiting = false;
      ++next_barrier;
    }
  }
}

// Per barrier ordinal of one block: the latest arrival and the earliest release (SM clock).
struct BarrierClock {
  std::uint64_t last_arrival = 0, first_release = ~0ull;
  unsigned arrivals = 0;
};

std::map<unsigned, BarrierClock> barrier_clocks(const BlockTimeline& b) {
  std::map<unsigned, BarrierClock> out;
  for (const WarpTimeline& w : b.warps)
    for (const TimelineMark& m : w.marks) {
      if (m.kind == MarkKind::Arrive) {
        BarrierClock& c = out[m.index];
        c.last_arrival = std::max(c.last_arrival, m.clock);
        ++c.arrivals;
      } else if (m.kind == MarkKind::Release) {
        BarrierClock& c = out[m.index];
        c.first_release = std::min(c.first_release, m.clock);
      }
    }
  return out;
}

TEST(TimelineGpu, ASpinningWarpMakesEveryOtherWarpWaitItsSpin) {
  RL_REQUIRE_GPU();
  const unsigned long long spin = 200000;  // about 100 us at 2 GHz
  for (int block : {64, 256, 1024}) {
    const unsigned spinner = unsigned(block / 32) - 1;
    const MeasuredTimeline t = record_spin_barrier_timeline(block, spinner, spin, 0);
    ASSERT_EQ(t.blocks.size(), 1u);
    ASSERT_EQ(t.blocks[0].warps.size(), unsigned(block / 32));
    for (const WarpTimeline& w : t.blocks[0].warps) {
      expect_well_formed(t.blocks[0], w);
      std::uint64_t arrive = 0, release = 0;
      for (const TimelineMark& m : w.marks) {
        if (m.kind == MarkKind::Arrive) arrive = m.clock;
        if (m.kind == MarkKind::Release) release = m.clock;
      }
      const double wait = double(release - arrive);
      // The spinner arrives last and waits only for the barrier to resolve; every other warp
      // waits the spin, less the few hundred cycles it started before the spinner's clock read.
      if (w.warp == spinner)
        EXPECT_LT(wait, 2000) << "block " << block;
      else
        EXPECT_NEAR(wait, double(spin), 0.02 * spin + 2000)
            << "block " << block << " warp " << w.warp;
    }
  }
}

// The classic ladder's rungs and the kernels past it that have a twin.
TEST(TimelineGpu, EveryTwinRecordsWholeBlocksWithOrderedBarriers) {
  RL_REQUIRE_GPU();
  for (const VariantInfo& v : catalog()) {
    if (!has_measured_timeline(v)) continue;
    for (Workspace ws : v.workspaces) {
      TimelineRequest r;
      r.variant = v.id;
      r.workspace = ws;
      r.unroll = v.default_unroll;
      r.size = std::uint64_t(1) << 24;
      r.max_blocks = 4;
      r.cost_runs = 3;
      SCOPED_TRACE(v.id + " " + std::string(to_string(ws)));
      const MeasuredTimeline t = record_measured_timeline(r, 0);
      // The vectorized kernel's grid is what the SMs hold of the real kernel at once: SM 0 may
      // run fewer than four of its blocks.
      if (v.kernel == KernelId::VectorizedGridStride)
        ASSERT_GE(t.blocks.size(), 1u);
      else
        ASSERT_EQ(t.blocks.size(), 4u);
      EXPECT_GT(t.twin_median_ms, 0);
      EXPECT_GT(t.real_median_ms, 0);
      std::cout << v.id << " " << to_string(ws) << ": twin " << t.twin_median_ms << " ms, real "
                << t.real_median_ms << " ms (median of " << t.cost_runs << ")\n";
      for (const BlockTimeline& b : t.blocks) {
        EXPECT_EQ(b.sm, 0u);
        ASSERT_EQ(b.warps.size(), 32u) << "block " << b.block;
        for (const WarpTimeline& w : b.warps) expect_well_formed(b, w);
        for (const auto& [ordinal, c] : barrier_clocks(b)) {
          EXPECT_EQ(c.arrivals, 32u) << "block " << b.block << " barrier " << ordinal;
          EXPECT_GE(c.first_release, c.last_arrival)
              << "block " << b.block << " barrier " << ordinal;
        }
      }
    }
  }
}

TEST(TimelineGpu, ChosenBlocksAreTheOnesRecorded) {
  RL_REQUIRE_GPU();
  TimelineRequest r;
  r.variant = "reduceUnroll8";
  r.block_size = 256;
  r.size = (std::uint64_t(1) << 20) + 17;
  r.blocks = {0, 7, 512};  // 512: the ragged last block
  r.cost_runs = 0;
  const MeasuredTimeline t = record_measured_timeline(r, 0);
  ASSERT_EQ(t.blocks.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t.blocks[i].block, r.blocks[i]);
    EXPECT_EQ(t.blocks[i].warps.size(), 8u);
  }
  EXPECT_EQ(t.cost_runs, 0);
}

TEST(TimelineGpu, AnSmPastTheDeviceIsRefused) {
  RL_REQUIRE_GPU();
  TimelineRequest r;
  r.variant = "reduceInterleaved";
  r.sm = 100000;
  EXPECT_THROW(record_measured_timeline(r, 0), Error);
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// A kernel the user wrote, with two phases marked and the barriers it calls: its timeline has
// the user's phase names, every barrier it calls and each warp's start and end; without marks
// (the plain starter) still each warp's start, barriers and end.
TEST(TimelineGpu, AUserKernelGetsItsOwnPhasesAndBarriers) {
  RL_REQUIRE_GPU();
  UserKernelSource k;
  k.name = "myMarked";
  k.source = R"(#include "rl_timeline.h"
extern "C" __global__ void myMarked(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P ws[RL_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * RL_BLOCK + tid;
  rl_phase("load");
  ws[tid] = i < n ? RL_P(in[i]) : RL_P(0);
  __syncthreads();
  rl_phase("tree");
  for (unsigned stride = RL_BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) ws[tid] += ws[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = ws[0];
}
)";
  ASSERT_EQ(register_user_kernel(k), "");
  TimelineRequest r;
  r.variant = "myMarked";
  r.block_size = 256;
  r.size = std::uint64_t(1) << 22;
  r.blocks = {0, 3};
  r.cost_runs = 3;
  const MeasuredTimeline t = record_measured_timeline(r, 0);
  ASSERT_EQ(t.blocks.size(), 2u);
  EXPECT_GT(t.twin_median_ms, 0);
  for (const BlockTimeline& b : t.blocks) {
    ASSERT_EQ(b.warps.size(), 8u);
    for (const WarpTimeline& w : b.warps) {
      expect_well_formed(b, w);
      std::vector<std::string> phases;
      unsigned barriers = 0;
      for (const TimelineMark& m : w.marks) {
        if (m.kind == MarkKind::Phase) phases.push_back(m.phase);
        if (m.kind == MarkKind::Release) ++barriers;
      }
      EXPECT_EQ(phases, (std::vector<std::string>{"load", "tree"})) << where(b, w);
      EXPECT_EQ(barriers, 9u) << where(b, w);  // after the load, then 8 tree steps
    }
    for (const auto& [ordinal, c] : barrier_clocks(b))
      EXPECT_GE(c.first_release, c.last_arrival) << "barrier " << ordinal;
  }
}

}  // namespace
}  // namespace rl
