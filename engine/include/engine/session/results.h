// Plain value types shared by every consumer of a run: CLI printers, CSV/JSON exporters and
// GUI models. No behaviour beyond small helpers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/core/bandwidth.h"
#include "engine/core/stats.h"
#include "engine/core/types.h"
#include "engine/device/device.h"
#include "engine/device/kernel_occupancy.h"
#include "engine/experiment/spec.h"
#include "engine/session/counter_values.h"
#include "engine/session/counts.h"
#include "engine/session/line_samples.h"
#include "engine/session/timeline.h"

namespace rl {

enum class PointStatus {
  Ok,       // measured and verified
  Wrong,    // measured, but the result differs from the host: never shown as a speed-up
  Failed,   // could not run (CUDA error, out of memory...); see message
  Skipped,  // not run on this device (e.g. needs sm_80); see message
};
std::string_view to_string(PointStatus s);
std::optional<PointStatus> parse_point_status(std::string_view s);

struct PointResult {
  PointSpec point;
  PointStatus status = PointStatus::Ok;
  std::string message;   // why Wrong/Failed/Skipped
  unsigned grid = 0;     // blocks of the first kernel
  Summary first_kernel;  // the first kernel alone (what the classic ladder times); may be empty
  Summary total;         // the whole reduction to one value on the device
  std::vector<double> first_samples_ms, total_samples_ms;
  // What the timestamps themselves cost: an empty event pair after the same L2 flush, one
  // after every timed sample. Empty where nothing was timed on a GPU (host backend).
  Summary timestamp_floor;
  std::vector<double> floor_samples_ms;
  int event_spans = 0;  // spans per sample (1, or 2 with a middle event); 0: none
  // The whole reduction's time on the GPU with the timestamps taken out: every total sample
  // minus event_spans x the floor's median. What ncu's gpu__time_duration counts (summed over
  // the kernels), measured here without a profiler.
  Summary gpu_time;
  // Bandwidths and percentages of the roofs are derived, never stored: session/metrics.h
  // (point_rates, basis_metrics in report/time_basis.h).
  // The final noise (total.noise) stayed above the spec's target: sampling ran out of budget
  // first. Still verified and charted, flagged wherever it is shown.
  bool noisy = false;
  // The block model's count of this point's work on a GPU (counts.h: barriers, lanes, warps,
  // loads, stores over every block of the first kernel; the finishing pass; the launches):
  // exact, the same on every backend, filled by the runner for every variant with a trace
  // (model_counts.h); none for the others and in sessions saved before counts existed.
  std::optional<ModelCounts> counts;
  // Hardware counters per kernel, from a counter pass of its own after the samples
  // (counters/counter_pass.h); none when not asked for and in sessions saved before counters.
  std::optional<PointCounters> counters;
  // Warp samples per instruction (counters/line_sample_pass.h), from a pass of its own after
  // the counters; none when not asked for and in sessions saved before them.
  std::optional<PointLineSamples> line_samples;
  // Each kernel of the point as the CUDA runtime sees it on the GPU that ran it (resources and
  // resident blocks per SM at the launched block size); empty off a GPU and in older sessions.
  std::vector<KernelOccupancy> occupancy;
  std::optional<double> speedup;  // baseline total median / this total median (Ok points only)
  // The value computed, the host's expected value and, for float32, the error against a
  // double-precision sum (different summation orders round differently: shown, not hidden).
  std::string value, expected;
  double abs_error = 0, rel_error = 0;
};

// The streaming-read floor at one input size (kernels/read_floor.cu): the fastest of a few grid
// shapes of a kernel that only reads the input's bytes with 16-byte loads, timed exactly as a
// point (same L2 flush, events and stopping rule; best median). No reduction of these bytes can
// take much less. Measured on a GPU only.
struct ReadFloor {
  std::uint64_t bytes = 0;
  std::string shape;  // the best shape, "B=256 U=4 grid=1056"
  Summary time;       // events around the read kernel
  Summary gpu_time;   // the same with the timestamps' own cost taken out (one span)
  bool noisy = false;
  double gbps() const { return gbps_of(bytes, time.median_ms); }
};

struct Session {
  static constexpr int kSchemaVersion = 1;
  int schema_version = kSchemaVersion;
  std::string tool_version;  // ReductionLab version
  std::string git_commit;    // commit the binary was built from, if known
  std::string created_utc;   // ISO 8601
  DeviceInfo device;
  ExperimentSpec spec;
  std::vector<PointResult> results;
  std::vector<ReadFloor> read_floors;  // one per input size (bytes) measured; none on the host
  // Measured warp timelines recorded with the session (at most kTimelineMaxPerSession).
  std::vector<MeasuredTimeline> timelines;
  bool cancelled = false;
};

// The read floor measured for `bytes` in s, or nullptr.
const ReadFloor* find_read_floor(const std::vector<ReadFloor>& floors, std::uint64_t bytes);

// Points of s whose noise target was not met.
int count_noisy(const std::vector<PointResult>& results);

// Which point a point's speed-up is against (the baseline rule; docs/cli.md "Speed-ups"). The
// candidates are the Ok points of the baseline variant on the same data (same_data(): size,
// matrix shape and type). For a point
// of another variant: the one sharing the workspace, then the block size, then the unroll factor
// (a ladder at one block size compares like with like, and a registers-only kernel still finds
// the baseline's global run), the lowest unroll factor among equals. For a point of the
// baseline variant itself: its lowest unroll factor at the same workspace and block size
// (U=1 when it ran), so `--variants unroll --unroll 1,2,4,8` gives U=2, 4, 8 against U=1
// instead of each point against itself. Times are not looked at.

// Fills speedup (baseline total median / point total median) for every Ok point; points with
// no Ok baseline get none. Indexes the baseline's points once (BaselineIndex).
void compute_speedups(std::vector<PointResult>& results, const std::string& baseline_variant);

// The baseline point for p, or nullptr (baseline: a variant id or classic name). One scan of
// results; for many look-ups build a BaselineIndex once.
const PointResult* find_baseline(const std::vector<PointResult>& results, const PointSpec& p,
                                 const std::string& baseline);

// The same rule for many look-ups: the baseline's Ok points grouped by their data, so a
// session of n points costs about n x (points per size and type) instead of n^2. Keeps
// pointers into results: valid while results is not resized.
class BaselineIndex {
 public:
  BaselineIndex(const std::vector<PointResult>& results, const std::string& baseline);
  const PointResult* find(const PointSpec& p) const;

 private:
  using DataKey = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, int>;
  static DataKey data_key(const PointSpec& p);
  std::string baseline_;  // canonical id
  std::map<DataKey, std::vector<const PointResult*>> by_data_;
};

}  // namespace rl
