// Plain value types shared by every consumer of a run: CLI printers, CSV/JSON exporters and
// GUI models. No behaviour beyond small helpers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "device.h"
#include "spec.h"
#include "stats.h"
#include "types.h"

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
  Summary first_kernel;  // the first kernel alone (what the seed times); may be empty
  Summary total;         // the whole reduction to one value on the device
  std::vector<double> first_samples_ms, total_samples_ms;
  // What the timestamps themselves cost: an empty event pair after the same L2 flush, one
  // after every timed sample. Empty where nothing was timed on a GPU (host backend).
  Summary timestamp_floor;
  std::vector<double> floor_samples_ms;
  int event_spans = 0;  // spans per sample (1, or 2 with a middle event); 0: none
  // The whole reduction's time on the GPU with the timestamps taken out: every total sample
  // minus event_spans x the floor's median. What ncu's gpu__time_duration counts (summed over
  // the kernels), measured here without a profiler; docs/benchmarks.md gives how close.
  Summary gpu_time;
  // Bandwidth = input bytes / median time, GB/s (1e9 bytes/s).
  double first_gbps = 0, total_gbps = 0;
  double pct_of_theoretical = 0;  // total_gbps / device theoretical, percent; 0 if unknown
  double pct_of_copy = 0;         // total_gbps / measured copy bandwidth, percent; 0 if unknown
  std::optional<double> speedup;  // baseline total median / this total median (Ok points only)
  // The value computed, the host's expected value and, for float32, the error against a
  // double-precision sum (different summation orders round differently: shown, not hidden).
  std::string value, expected;
  double abs_error = 0, rel_error = 0;
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
  bool cancelled = false;
};

// Fills speedup (baseline total median / point total median) for every Ok point. The baseline
// point has the same size and type; among several, the one sharing the workspace, then the
// block size, then the unroll factor. Points with no Ok baseline get no speed-up.
void compute_speedups(std::vector<PointResult>& results, const std::string& baseline_variant);

// The baseline point for p (baseline: a variant id): an Ok point of that variant with the same
// size and type; among those, the same workspace, then block size, then unroll factor (so a
// ladder at one block size compares like with like, and a registers-only kernel still finds the
// baseline's global run). nullptr when there is none. Times are not looked at.
const PointResult* find_baseline(const std::vector<PointResult>& results, const PointSpec& p,
                                 const std::string& baseline);

}  // namespace rl
