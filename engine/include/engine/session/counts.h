// What the block model counts of a kernel's work on a GPU: per step and block (StepCounters, the
// trace's counters) and for a whole point (ModelCounts: every block of the first kernel, the
// finishing pass, the launches). Plain value types; engine/model_counts.h computes them.
#pragma once

#include <cstdint>

namespace rl {

// Per-step counters, for one block (or summed over steps and blocks). Lanes are threads; a warp
// is 32 lanes.
struct StepCounters {
  std::uint64_t active_lanes = 0;     // lanes that do the step's work
  std::uint64_t divergent_lanes = 0;  // idle lanes inside warps that have an active lane
  std::uint64_t idle_warps = 0;       // warps with no active lane that are still resident
  std::uint64_t exited_warps = 0;     // warps with no work left (past their last barrier)
  std::uint64_t barriers = 0;         // __syncthreads() after the step (0 or 1 per block)
  std::uint64_t warp_syncs = 0;       // __syncwarp() executed, counted once per warp
  std::uint64_t shuffles = 0;         // lanes exchanging registers (__shfl_*_sync, REDUX)
  std::uint64_t loads = 0;            // element reads (input or workspace), all lanes
  std::uint64_t stores = 0;           // element writes (workspace or partials), all lanes
  StepCounters& operator+=(const StepCounters& o);
  void scale(std::uint64_t k);  // every counter times k (k identical blocks)
  bool operator==(const StepCounters&) const = default;
  // Warp-steps issued: a warp issues a step when at least one of its lanes acts in it, and then
  // all 32 lanes go through it (active + divergent lanes), so this is exact.
  std::uint64_t warp_steps() const { return (active_lanes + divergent_lanes) / 32; }
  // Active lanes / (warp-steps x 32): the share of the issued lanes that did work. 0 when none.
  double lane_efficiency() const {
    const std::uint64_t issued = active_lanes + divergent_lanes;
    return issued ? double(active_lanes) / double(issued) : 0.0;
  }
  // Each counter with its name in files (sessions, traces), in the order they are written:
  // f(name, value) for every writer and reader, so the names live here alone.
  template <class Self, class F>
  static void each(Self& c, F&& f) {
    f("barriers", c.barriers);
    f("active_lanes", c.active_lanes);
    f("divergent_lanes", c.divergent_lanes);
    f("idle_warps", c.idle_warps);
    f("exited_warps", c.exited_warps);
    f("warp_syncs", c.warp_syncs);
    f("shuffles", c.shuffles);
    f("loads", c.loads);
    f("stores", c.stores);
  }
};

// The block model's count of one point's work on a GPU: exact arithmetic over the per-block
// plan the kernels follow (engine/trace.h: Trace::launch_totals), the same whichever backend
// measured the point. On the host backend, where the times are CPU times of an emulation,
// these are what the ladder is about; on a GPU they sit beside the times.
struct ModelCounts {
  std::uint64_t grid = 0;  // blocks of the first kernel
  // Kernel launches of the whole reduction: 2 (first kernel + the finishing pass, one block
  // that adds the partials) or 1 (the first kernel writes the total: single_pass).
  int launches = 2;
  // Every block of the first kernel: the kernel the classic ladder times and counts (its barrier
  // arithmetic, 16384 blocks x 10 = 163840 for reduceInterleaved at N = 2^24, B = 1024).
  StepCounters first_kernel;
  // The finishing pass (kernels/finish.cu: one block of 1024 threads, each adding partials
  // tid, tid + 1024, ..., then an interleaved shared-memory tree): 11 barriers. Zero when
  // launches == 1.
  StepCounters finish;
  bool operator==(const ModelCounts&) const = default;
  // The headline numbers are the first kernel's (what the classic ladder counts); the whole
  // reduction adds the finishing pass.
  std::uint64_t barriers() const { return first_kernel.barriers; }
  std::uint64_t warp_steps() const { return first_kernel.warp_steps(); }
  double lane_efficiency() const { return first_kernel.lane_efficiency(); }
  StepCounters whole() const {
    StepCounters c = first_kernel;
    c += finish;
    return c;
  }
};

}  // namespace rl
