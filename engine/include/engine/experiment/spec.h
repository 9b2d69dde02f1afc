// The experiment a user asks for, its validation (a message naming every bad value) and its
// expansion into points.
#pragma once

#include "engine/experiment/grammar.h"  // sizes as people type them

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/user_kernel_source.h"
#include "engine/core/types.h"

namespace rl {

struct DeviceInfo;
struct VariantInfo;

inline constexpr double kDefaultUserKernelLimitS = 10;

struct TimingOptions {
  double noise = 0.01;     // stop when the relative standard error of the mean is below this
  double budget_ms = 200;  // ... or when this much wall time was spent sampling a point
  int warmup = 2;          // untimed runs before sampling
  int min_samples = 5;
  int max_samples = 1000;
  bool cold_l2 = true;  // flush L2 before every sample (as nvbench's cold measurement)
  // A point of a kernel the user wrote that goes this long without finishing (an endless loop)
  // is stopped: its worker process is killed and the point fails saying so.
  double user_kernel_limit_s = kDefaultUserKernelLimitS;
};

// In ExperimentSpec::variants, stands for every variant that applies to the request and the
// device (resolve_all). Named variants that do not apply are errors; `all` leaves them out.
inline constexpr std::string_view kAllVariants = "all";

// The most points a spec may expand to unless it says otherwise (its max_points, the CLI's
// --max-points): a run of 100,000 points already takes hours, and a spec of 200,000 sizes must be
// refused before its points are built (they would take gigabytes).
inline constexpr std::uint64_t kDefaultMaxPoints = 100000;

// Which of the matrix variants `all` stands for on a spec with shapes: those that sum rows,
// those that sum columns, or both. Named variants are not filtered.
enum class ReduceFilter { Both, Rows, Columns };
std::string_view to_string(ReduceFilter f);  // "both", "rows", "columns"
bool parse_reduce_filter(std::string_view text, ReduceFilter* out);

struct ExperimentSpec {
  std::vector<std::string> variants;  // ids, classic names or "all" (resolved when expanded)
  std::vector<Workspace> workspaces{Workspace::Global};
  std::vector<int> block_sizes{1024};
  std::vector<int> unroll_factors;  // empty: each variant's default (the classic ladder's factor)
  std::vector<std::uint64_t> sizes{std::uint64_t(1) << 24};
  std::vector<DType> types{DType::Int32};
  // Matrices for the variants that sum each row or column (VariantInfo::is_segmented): those
  // run on every shape and never on `sizes`; the others run on `sizes` and never on shapes.
  std::vector<MatrixShape> shapes;
  ReduceFilter reduce = ReduceFilter::Both;  // what `all` means with shapes
  TimingOptions timing;
  std::string baseline = "neighbored";           // speed-ups are against this variant
  std::uint64_t max_points = kDefaultMaxPoints;  // raised on purpose for a larger run
  // Kernels the user wrote (engine/user/user_kernel.h), named in `variants` by their names; their
  // sources travel with the spec, so a session reproduces the run on another machine.
  std::vector<UserKernelSource> user_kernels;
};

// One point of an experiment: everything that decides what runs.
struct PointSpec {
  std::string variant;  // canonical id
  Workspace workspace = Workspace::Global;
  int block_size = 0;  // 0: the variant picks (CUB DeviceReduce)
  int unroll = 1;
  std::uint64_t size = 0;  // elements; rows * cols for a matrix point
  DType type = DType::Int32;
  // A matrix point (a variant that sums each row or column): its shape, row-major; 0 x 0 for a
  // whole-array point.
  std::uint64_t rows = 0, cols = 0;
  bool operator==(const PointSpec&) const = default;
  bool is_matrix() const { return rows != 0; }
  // "interleaved/global B=1024 U=1 N=16777216 int32", "row_per_warp/registers B=256 U=4
  // 4096x4096 int32"
  std::string label() const;
  // "2^24" for a whole-array point, "4096x4096" for a matrix point: the data it ran on.
  std::string size_text() const;
};

// Whether a and b ran on the same data (size, shape and type): a speed-up compares only these.
bool same_data(const PointSpec& a, const PointSpec& b);

// The baseline a spec's speed-ups use when it names none that runs: neighbored for whole
// arrays; for a spec of matrices only, cub_segmented_rows (column_tiled when `all` takes
// columns only).
std::string default_baseline(const ExperimentSpec& spec);

// A variant that `all` left out, and why: "takes int32 only, not float32", "no host model, GPU
// only", "needs sm_80; this GPU is sm_75" (several reasons joined with "; ").
struct Exclusion {
  std::string variant;  // id
  std::string reason;
  bool operator==(const Exclusion&) const = default;
};

// The spec with "all" replaced by the ids of every variant that applies to its workspaces,
// block sizes, unroll factors and types and to the device (null: the host backend), in catalog
// order; the others go to *excluded (may be null). Other names are kept as given: validate()
// reports those that do not apply. A spec without "all" comes back unchanged.
ExperimentSpec resolve_all(const ExperimentSpec& spec, const DeviceInfo* device,
                           std::vector<Exclusion>* excluded);

// The exclusions grouped by reason, one line each, for people:
// "vectorized, single_pass: no host model, GPU only".
std::vector<std::string> describe_exclusions(const std::vector<Exclusion>& excluded);

// Why the device cannot run v ("" if it can): the host backend needs a host model, a GPU the
// variant's compute capability. The backends' unsupported_reason() says the same per point.
std::string device_excludes(const VariantInfo& v, const DeviceInfo* device);

// Every problem with the spec, one message each, naming the bad value, e.g.
//  "size 0: N must be at least 1"
//  "block size 100: must be a power of two from 32 to 1024"
//  "unroll 3: reduceUnroll takes 1, 2, 4, 8, 16"
//  "size 2^34 int32 needs 68.7 GB of device memory; 141.0 GB total, 2.0 GB free"
//  "points: the spec expands to 2000000 points; at most 100000 (max_points in a spec file,
//   --max-points on the command line)"
// device may be null (host backend): memory is then checked against host RAM. "all" is
// resolved first (resolve_all); it is an error only when it leaves nothing.
std::vector<std::string> validate(const ExperimentSpec& spec, const DeviceInfo* device);

// How many points expand() makes of the spec, counted without making them (time and memory in
// proportion to the spec's own lists). Saturates at UINT64_MAX.
std::uint64_t count_points(const ExperimentSpec& spec);

// The points of a valid spec, in a stable order (size, type, variant, workspace, block, unroll;
// unroll ascending, so a variant's lowest factor, its own speed-up baseline, runs first): the
// whole-array variants at every size, then the matrix variants at every shape in the same order
// (shape, type, variant, ...).
// Axis values a variant does not take are left out for that variant (validate() reports a
// value no selected variant takes); a variant that picks its own block size gets one point
// with block_size 0. "all" still in the spec is resolved without a device: callers that know
// the device call resolve_all() first, or the points it cannot run come back SKIPPED.
// Throws rl::Error before building any point when there would be more than spec.max_points
// (validate() says the same as one of its messages).
std::vector<PointSpec> expand(const ExperimentSpec& spec);

// Bytes of device memory one point needs at most (input, pristine copy, partials, scratch, L2
// flush buffer), for the memory check.
std::uint64_t device_bytes_needed(const PointSpec& p, std::size_t l2_bytes);

}  // namespace rl
