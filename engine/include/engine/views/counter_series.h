// Which measured points a counter chart draws, as one rule for every front end (the app's
// Unroll, Block-size and Ladder pages, their exports): a hardware counter (engine/counters/)
// against the unroll factor or the block size, and along the ladder beside the block model's
// exact barrier count. The charts only draw what these return.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/session/counts.h"
#include "engine/session/results.h"
#include "engine/views/ladder_setting.h"

namespace rl {

// The ncu metric the counter charts draw unless told otherwise: the classic ladder's barrier stall.
std::string_view barrier_stall_metric();

// A counter against the unroll factor (at one N, type and block size) or the block size (at one
// N and type; each series keeps its own unroll factor).
enum class CounterAxis { Unroll, BlockSize };

struct CounterSeriesPoint {
  const PointResult* result = nullptr;  // into the session given
  int x = 0;                            // its unroll factor or block size
  double value = 0;                     // the metric of the first kernel (or the one launch)
  std::optional<CounterRange> range;    // its lowest and highest over the counter pass's repeats
};

// One line: a variant and workspace (and, against the block size, an unroll factor) measured
// with the counter at two or more values of the axis, everything else equal.
struct CounterSeries {
  std::string variant;
  Workspace workspace = Workspace::Global;
  int unroll = 0;  // CounterAxis::BlockSize: the series' unroll factor; else 0
  int block = 0;   // CounterAxis::Unroll: the setting's block size; else 0
  std::vector<CounterSeriesPoint> points;  // by x, ascending
};

struct CounterSweeps {
  CounterAxis axis = CounterAxis::Unroll;
  // The setting drawn: N and type, and on the unroll axis the block size. Unset when no series.
  std::uint64_t size = 0;
  DType type = DType::Int32;
  int block = 0;
  std::vector<CounterSeries> series;  // catalog order, then workspace, unroll
  int other_settings = 0;             // settings of this session with a sweep that are not drawn
  // Where nothing is drawn: why, with the run that gives one ("reductionlab-cli run --preset
  // unroll --counters"). Empty when series is not.
  std::string empty_reason;
  // "N=2^24 · B=1024 · int32" (the block size on the unroll axis only).
  std::string label() const;
};

// The sweeps of `metric` in s along `axis`. A series needs the counter at two or more values
// of the axis (a point with the counter: measured, ok or wrong, its first kernel read). The
// setting: `preferred` (the ladder charts' setting) when it holds a sweep, else the one with the
// most series, ties to the ladder's default setting (engine/views/ladder_setting.h), then the
// largest N, then the largest block size.
CounterSweeps counter_sweeps(const Session& s, CounterAxis axis,
                             const std::optional<LadderSetting>& preferred = std::nullopt,
                             std::string_view metric = barrier_stall_metric());

// One rung of the ladder with the block model's barriers and the measured barrier stall, both
// also as a share of the largest among the rungs ("fewer barriers -> less barrier stall" at a
// glance, on one axis). The largest, not the first rung: the classic ladder's first rung hides its
// barrier stall behind divergence (on the H200 19.8% against the next rung's 47.7% at N=2^24), so
// shares of it would run to 240% and flatten the rest.
struct RungBarriers {
  const PointResult* result = nullptr;
  ModelCounts counts;      // exact, the same on every GPU
  std::uint64_t barriers;  // counts.barriers(): every __syncthreads() of the launch, all blocks
  double stall = 0;        // measured on the session's GPU, % of a warp's cycles
  double barriers_pct = 0, stall_pct = 0;  // of the largest among the rungs (100 there)
};

struct BarriersBesideStall {
  std::vector<RungBarriers> rungs;  // catalog order, then unroll factor
  // The rungs at the setting left out, each "name: why" ("cub_device_reduce: no block model").
  std::vector<std::string> left_out;
  std::string empty_reason;  // when rungs is empty
};

// Per rung of s at `at` (variant and unroll factor; the global workspace where the rung has one,
// as the classic ladder measured, else the first measured): the model's barriers beside the
// measured barrier stall; rungs without a block model or the counter are left out, named.
BarriersBesideStall barriers_beside_stall(const Session& s, const LadderSetting& at);

}  // namespace rl
