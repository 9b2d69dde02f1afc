// One interface, two implementations: the CUDA backend (streams, events, L2 flush) and the host
// backend (the block model run over every block). The runner drives either the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/device/kernel_occupancy.h"
#include "engine/experiment/input_data.h"
#include "engine/experiment/spec.h"

namespace rl {

// What a whole reduction produced: the first kernel's per-block partials and the total, in the
// partial type (int64 for int32 input, float for float32).
struct ReductionOutput {
  DType type = DType::Int32;
  std::vector<std::int64_t> partials_i64;
  std::vector<float> partials_f32;
  std::int64_t total_i64 = 0;
  float total_f32 = 0;
  bool has_partials = true;  // false for variants that never write partials (CUB, single pass)
  std::size_t partial_count() const {
    return type == DType::Int32 ? partials_i64.size() : partials_f32.size();
  }
  double total() const { return type == DType::Int32 ? double(total_i64) : double(total_f32); }
};

// For the rows and columns variants, whose partials are one sum per row (column): the total as
// their sum, the same on every backend. int64 exactly; float32 added in double in order and
// rounded to float once.
void total_from_segments(ReductionOutput& out);

struct SampleTimes {
  std::optional<double> first_ms;  // the first kernel alone; none if the variant has no split
  double total_ms = 0;             // the whole reduction
  // How many timestamp-to-timestamp spans total_ms is made of: 1, or 2 when a middle event
  // splits off the first kernel. Each span carries the timestamps' own cost once.
  int spans = 1;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const DeviceInfo& device() const = 0;
  virtual bool is_gpu() const = 0;
  // Why a point cannot run here (e.g. "needs compute capability 8.0; this GPU is 7.5");
  // empty when it can.
  virtual std::string unsupported_reason(const PointSpec& p) const = 0;
  // Allocates and uploads for a point. Throws rl::Error with the point in its message.
  virtual void prepare(const PointSpec& p, const InputData& input) = 0;
  virtual unsigned grid() const = 0;
  // One timed run of the prepared point (restoring an in-place input first, outside the timing).
  virtual SampleTimes run_sample(bool cold_l2) = 0;
  // One empty timestamp pair taken exactly as a sample's are (after the same L2 flush when
  // cold): what the timestamps themselves cost, ms. None where nothing is timed on a device.
  virtual std::optional<double> timestamp_floor_sample(bool /*cold_l2*/) { return std::nullopt; }
  // The streaming-read floor (ReadFloor in results.h): read_floor_shapes() grid shapes of a
  // kernel that only reads; one timed run of `shape` over `bytes` of the prepared input (of a
  // zeroed buffer when more than is prepared), after the same L2 flush and between the same
  // events as a sample, ms. None off a GPU.
  virtual int read_floor_shapes() const { return 0; }
  virtual std::string read_floor_shape_label(int /*shape*/, std::uint64_t /*bytes*/) const {
    return {};
  }
  virtual double read_floor_sample(std::uint64_t /*bytes*/, int /*shape*/, bool /*cold_l2*/) {
    return 0;
  }
  // The counter pass (counters/counter_pass.h), untimed: the prepared point's launch steps one
  // at a time. counter_steps(): 2 (first kernel, finishing pass), 1 (one launch reduces to the
  // total), 0 where there are no hardware counters (the host). counter_setup(k, flush): restores
  // the input, runs the steps before k, flushes L2 when asked, and waits. counter_launch(k):
  // launches step k and waits. counter_flush(): empties L2 (the timed samples' cold-L2 flush)
  // and waits.
  virtual int counter_steps() const { return 0; }
  virtual void counter_setup(int /*step*/, bool /*flush_l2*/) {}
  virtual void counter_flush() {}
  // The prepared point's kernels as the runtime sees them (device/kernel_occupancy.h), asked
  // without running them; none off a GPU. Throws rl::CudaError.
  virtual std::vector<KernelOccupancy> occupancy() { return {}; }
  virtual void counter_launch(int /*step*/) {}
  // The output of the last sample.
  virtual ReductionOutput read_output() = 0;
  virtual void release() = 0;
  // After a point failed: where the failure left the device unusable (a sticky CUDA error, e.g.
  // an illegal address or a failed launch), drops every resource held, resets the device and
  // creates them again. Returns what was done, empty when nothing was needed. Throws rl::Error
  // when the device cannot be brought back.
  virtual std::string recover() { return {}; }
};

// Tests only (tests/gpu/fault_gpu_test.cpp): a launch run in place of the first kernel of the
// points where applies(point) holds. launch gets the backend's stream (a cudaStream_t) and
// returns its cudaError_t as an int.
struct LaunchOverride {
  std::function<bool(const PointSpec&)> applies;
  std::function<int(void* stream)> launch;
};

// Throws rl::Error when the device cannot be used. Measures copy bandwidth once.
std::unique_ptr<Backend> make_cuda_backend(int device_index);
std::unique_ptr<Backend> make_cuda_backend(int device_index, LaunchOverride test_override);
std::unique_ptr<Backend> make_host_backend();

}  // namespace rl
