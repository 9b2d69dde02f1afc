// Measured warp timelines: when each warp of a recorded block started, entered each phase,
// arrived at and left each __syncthreads(), and ended, as the GPU stamped it (%globaltimer and
// clock64, kernels/include/kernels/timeline_marks.cuh). Plain values as recorded; every derived
// number (times in ns, barrier waits, the slowest warp, phase totals) comes from
// session/timeline_analysis.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/types.h"

namespace rl {

// The most a timeline holds, so a session stays bounded: blocks per timeline, marks per warp
// (a warp past it keeps its first marks and says it was truncated), timelines per session.
inline constexpr unsigned kTimelineMaxBlocks = 16;
inline constexpr unsigned kTimelineMaxMarksPerWarp = 64;
inline constexpr unsigned kTimelineMaxPerSession = 32;

enum class MarkKind : std::uint8_t {
  Start,    // the warp's first instruction
  Phase,    // the warp enters phase `phase` (until its next mark)
  Arrive,   // the warp arrives at a __syncthreads() (lane 0, just before it)
  Release,  // the warp leaves that __syncthreads() (lane 0, just after it)
  End,      // the warp's last instruction (it exits)
};

struct TimelineMark {
  MarkKind kind = MarkKind::Start;
  // Phase: its name: "load", "tree", "last warp", "write" for the built-in kernels, the
  // user's own name from rl_phase("...") for a user kernel. Empty for the other kinds.
  std::string phase;
  // Phase "tree" and "last warp": the step's stride. Arrive and Release: the barrier's ordinal
  // in this warp's run (0 = its first __syncthreads()). Otherwise 0.
  unsigned index = 0;
  std::uint64_t clock = 0;  // clock64() of the warp's SM (cycles; comparable within one SM)
  std::uint64_t ns = 0;     // %globaltimer (ns; comparable across SMs, coarser)
};

struct WarpTimeline {
  unsigned warp = 0;       // warp index in the block (threadIdx.x / 32)
  bool truncated = false;  // more than kTimelineMaxMarksPerWarp marks: the rest were dropped
  std::vector<TimelineMark> marks;  // in the order the warp stamped them
};

struct BlockTimeline {
  unsigned block = 0;               // blockIdx.x
  unsigned sm = 0;                  // %smid it ran on
  std::vector<WarpTimeline> warps;  // every warp of the block, by warp index
};

// What was recorded: one launch of the instrumented twin of `variant` over the experiment's N
// elements (the whole grid runs; only the chosen blocks keep their marks).
struct MeasuredTimeline {
  std::string variant;  // canonical id
  std::string label;    // classic name ("reduceUnroll8") or the user's kernel name
  int block_size = 0;
  int unroll = 1;
  Workspace workspace = Workspace::Global;
  DType type = DType::Int32;
  std::uint64_t size = 0;  // N of the launch
  std::uint64_t grid = 0;  // blocks in the launch
  // Which blocks kept their marks: "blocks" (the listed block ids) or "sm" (the first blocks
  // that ran on SM `sm`, in the order they finished).
  std::string selection = "sm";
  unsigned sm = 0;
  std::vector<BlockTimeline> blocks;
  std::string device;        // GPU name
  std::string recorded_utc;  // ISO 8601
  // The instrumentation's cost, measured at the same setting: median kernel time of the
  // instrumented twin and of the real kernel over `cost_runs` launches each (0 when not
  // measured).
  double twin_median_ms = 0;
  double real_median_ms = 0;
  int cost_runs = 0;
  // The device's SMs and how many blocks of the twin one SM holds at once (the occupancy API, for
  // the twin's launch); 0 when not known (timelines recorded before they were kept).
  int sm_count = 0;
  int resident_blocks_per_sm = 0;
};

}  // namespace rl
