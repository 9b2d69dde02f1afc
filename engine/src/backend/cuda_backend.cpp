// The CUDA backend: one device, one non-blocking stream, CUDA-event timing, L2 flush between
// cold samples, and the classic ladder's in-place input restored before every sample outside the
// timing.
#include <algorithm>
#include <cstring>
#include <utility>

#include "backend/launch_args.h"
#include "backend/user_module.h"
#include "core/cuda_raii.h"
#include "device/cuda_occupancy.h"
#include "engine/backend/backend.h"
#include "engine/catalog/catalog.h"
#include "kernels/launch.h"

namespace rl {

namespace {

class CudaBackend final : public Backend {
 public:
  CudaBackend(int device, LaunchOverride test_override)
      : device_(device), override_(std::move(test_override)) {
    const std::string ctx = "opening cuda:" + std::to_string(device);
    int count = 0;
    RL_CUDA_CHECK(cudaGetDeviceCount(&count), ctx);
    if (device < 0 || device >= count)
      throw Error("cuda:" + std::to_string(device) + ": " + no_such_gpu(count));
    // The worker thread that creates the backend is the one that uses it; bind it here.
    RL_CUDA_CHECK(cudaSetDevice(device), ctx);
    const Discovery all = discover_devices();
    for (const auto& d : all.gpus)
      if (d.index == device) info_ = d;
    info_.measured_copy_gbps = measure_copy_bandwidth_gbps(device);
    create_resources();
  }

  const DeviceInfo& device() const override { return info_; }
  bool is_gpu() const override { return true; }

  std::string unsupported_reason(const PointSpec& p) const override {
    const VariantInfo* v = find_variant_by_id(p.variant);
    if (!v) return "unknown variant " + p.variant;
    if (info_.compute_capability() < v->min_compute_capability)
      return v->id + " needs compute capability " + std::to_string(v->min_compute_capability / 10) +
             "." + std::to_string(v->min_compute_capability % 10) + "; this GPU is " +
             std::to_string(info_.cc_major) + "." + std::to_string(info_.cc_minor);
    return {};
  }

  void prepare(const PointSpec& p, const InputData& input) override {
    ctx_ = p.label();
    // A query the runtime answered with a refusal (an occupancy or a name, asked of a kernel
    // loaded at run time) leaves a non-sticky error behind; the launches below read the last
    // error to check themselves and must not take it for theirs.
    cudaGetLastError();
    RL_CUDA_CHECK(cudaSetDevice(device_), ctx_);
    args_ = launch_args_for(p);
    attach_user_kernel(args_, p, device_);  // compiled and loaded once, outside any timing
    args_.stream = stream_->get();
    args_.epoch = &scratch_launches_;
    overridden_ = override_.applies && override_.launch && override_.applies(p);
    RL_CUDA_CHECK(kernels::plan_launch(args_, &plan_), "planning " + ctx_);

    const std::size_t elem = dtype_size(p.type);
    const std::size_t in_bytes = plan_.input_capacity * elem;
    // Upload only when the data changed: points come ordered by size and type.
    const bool same_data = uploaded_data_ == input.data() && uploaded_n_ == p.size &&
                           uploaded_type_ == p.type && pristine_.bytes() >= in_bytes;
    if (!same_data) {
      if (pristine_.bytes() < in_bytes) {
        pristine_.reset();
        work_.reset();
        pristine_.allocate(in_bytes, "input for " + ctx_);
      }
      RL_CUDA_CHECK(cudaMemcpyAsync(pristine_.get(), input.data(), p.size * elem,
                                    cudaMemcpyHostToDevice, stream_->get()),
                    "uploading the input, " + ctx_);
      uploaded_data_ = input.data();
      uploaded_n_ = p.size;
      uploaded_type_ = p.type;
    }
    // Zero padding up to a whole number of tiles (the in-place tree reads it).
    RL_CUDA_CHECK(cudaMemsetAsync(static_cast<char*>(pristine_.get()) + p.size * elem, 0,
                                  in_bytes - p.size * elem, stream_->get()),
                  "zeroing the padding, " + ctx_);
    in_place_ = p.workspace == Workspace::Global;
    if (in_place_ && work_.bytes() < in_bytes)
      work_.allocate(in_bytes, "in-place work copy for " + ctx_);
    args_.input = in_place_ ? work_.get() : pristine_.get();
    restore_bytes_ = in_bytes;

    const std::size_t accum = kernels::accum_size(p.type);
    if (partials_.bytes() < std::max<std::size_t>(plan_.partial_count, 1) * accum)
      partials_.allocate(std::max<std::size_t>(plan_.partial_count, 1) * accum,
                         "partials for " + ctx_);
    if (!result_.get()) result_.allocate(8, "result");
    if (scratch_.bytes() < plan_.scratch_bytes)
      scratch_.allocate(plan_.scratch_bytes, "scratch for " + ctx_);
    if (plan_.scratch_bytes)
      RL_CUDA_CHECK(cudaMemsetAsync(scratch_.get(), 0, plan_.scratch_bytes, stream_->get()), ctx_);
    scratch_launches_ = 0;
    args_.partials = partials_.get();
    args_.result = result_.get();
    args_.scratch = scratch_.get();
    RL_CUDA_CHECK(cudaStreamSynchronize(stream_->get()), ctx_);
  }

  unsigned grid() const override { return plan_.grid; }

  SampleTimes run_sample(bool cold_l2) override {
    cudaStream_t s = stream_->get();
    if (in_place_)
      RL_CUDA_CHECK(cudaMemcpyAsync(work_.get(), pristine_.get(), restore_bytes_,
                                    cudaMemcpyDeviceToDevice, s),
                    "restoring the input, " + ctx_);
    if (cold_l2)
      RL_CUDA_CHECK(kernels::flush_l2(flush_.get(), flush_.bytes(), s), "flushing L2, " + ctx_);
    // A third event costs about a microsecond of its own on an H200 (measured: an empty
    // event pair reads ~1.3 us), so it is recorded only when a finishing pass follows.
    RL_CUDA_CHECK(cudaEventRecord(start_->get(), s), ctx_);
    RL_CUDA_CHECK(launch_first(), "launching the first kernel, " + ctx_);
    if (plan_.needs_finish) {
      RL_CUDA_CHECK(cudaEventRecord(mid_->get(), s), ctx_);
      RL_CUDA_CHECK(kernels::launch_finish(args_, plan_), "launching the finishing pass, " + ctx_);
    }
    RL_CUDA_CHECK(cudaEventRecord(stop_->get(), s), ctx_);
    RL_CUDA_CHECK(cudaEventSynchronize(stop_->get()), "running " + ctx_);
    float first = 0, total = 0;
    RL_CUDA_CHECK(cudaEventElapsedTime(&total, start_->get(), stop_->get()), ctx_);
    if (plan_.needs_finish)
      RL_CUDA_CHECK(cudaEventElapsedTime(&first, start_->get(), mid_->get()), ctx_);
    else
      first = total;  // one kernel does the whole reduction
    SampleTimes t;
    if (plan_.has_first_kernel) t.first_ms = first;
    t.total_ms = total;
    t.spans = plan_.needs_finish ? 2 : 1;
    return t;
  }

  // Measured on the H200: 1.25-1.31 us, constant to the 32 ns tick of the event clock.
  std::optional<double> timestamp_floor_sample(bool cold_l2) override {
    cudaStream_t s = stream_->get();
    if (cold_l2)
      RL_CUDA_CHECK(kernels::flush_l2(flush_.get(), flush_.bytes(), s), "flushing L2, " + ctx_);
    RL_CUDA_CHECK(cudaEventRecord(start_->get(), s), "timestamp floor, " + ctx_);
    RL_CUDA_CHECK(cudaEventRecord(stop_->get(), s), "timestamp floor, " + ctx_);
    RL_CUDA_CHECK(cudaEventSynchronize(stop_->get()), "timestamp floor, " + ctx_);
    float ms = 0;
    RL_CUDA_CHECK(cudaEventElapsedTime(&ms, start_->get(), stop_->get()),
                  "timestamp floor, " + ctx_);
    return double(ms);
  }

  int read_floor_shapes() const override { return kernels::read_floor_shape_count(); }

  std::string read_floor_shape_label(int shape, std::uint64_t bytes) const override {
    const kernels::ReadFloorShape s = kernels::read_floor_shape(shape);
    return "B=" + std::to_string(s.block_size) + " U=" + std::to_string(s.unroll) +
           " grid=" + std::to_string(kernels::read_floor_grid(s, bytes, info_.sm_count));
  }

  double read_floor_sample(std::uint64_t bytes, int shape, bool cold_l2) override {
    const std::string ctx = "read floor over " + std::to_string(bytes) + " bytes";
    cudaGetLastError();  // as in prepare(): an answered query's refusal is not this launch's
    cudaStream_t s = stream_->get();
    const void* data = pristine_.bytes() >= bytes && uploaded_data_ ? pristine_.get() : nullptr;
    if (!data) {
      if (floor_data_.bytes() < bytes) {
        floor_data_.allocate(bytes, ctx);
        RL_CUDA_CHECK(cudaMemsetAsync(floor_data_.get(), 0, bytes, s), ctx);
      }
      data = floor_data_.get();
    }
    if (!result_.get()) result_.allocate(8, "result");
    if (cold_l2) RL_CUDA_CHECK(kernels::flush_l2(flush_.get(), flush_.bytes(), s), ctx);
    RL_CUDA_CHECK(cudaEventRecord(start_->get(), s), ctx);
    RL_CUDA_CHECK(kernels::launch_read_floor(data, bytes, shape, info_.sm_count,
                                             static_cast<int*>(result_.get()), s),
                  ctx);
    RL_CUDA_CHECK(cudaEventRecord(stop_->get(), s), ctx);
    RL_CUDA_CHECK(cudaEventSynchronize(stop_->get()), ctx);
    float ms = 0;
    RL_CUDA_CHECK(cudaEventElapsedTime(&ms, start_->get(), stop_->get()), ctx);
    return double(ms);
  }

  int counter_steps() const override { return plan_.needs_finish ? 2 : 1; }

  void counter_setup(int step, bool flush_l2) override {
    cudaStream_t s = stream_->get();
    if (in_place_)
      RL_CUDA_CHECK(cudaMemcpyAsync(work_.get(), pristine_.get(), restore_bytes_,
                                    cudaMemcpyDeviceToDevice, s),
                    "restoring the input for counters, " + ctx_);
    if (step > 0)
      RL_CUDA_CHECK(kernels::launch_first(args_, plan_), "counters: first kernel, " + ctx_);
    if (flush_l2)
      RL_CUDA_CHECK(kernels::flush_l2(flush_.get(), flush_.bytes(), s), "flushing L2, " + ctx_);
    RL_CUDA_CHECK(cudaStreamSynchronize(s), "counter set-up, " + ctx_);
  }

  std::vector<KernelOccupancy> occupancy() override {
    // A refused query leaves its error as the runtime's last one: cleared, so that the next
    // launch's check does not report it as its own.
    struct ClearLastError {
      ~ClearLastError() { cudaGetLastError(); }
    } clear;
    const int steps = counter_steps();
    std::vector<KernelOccupancy> out;
    for (int k = 0; k < steps; ++k) {
      const std::string role = steps == 1 ? "whole" : k == 0 ? "first_kernel" : "finish";
      if (k == 0 && args_.user_kernel) {
        out.push_back(function_occupancy(args_.user_kernel, plan_.grid, args_.block_size, device_,
                                         role, ctx_));
        continue;
      }
      auto step = captured_occupancy(
          [&](cudaStream_t s) {
            kernels::LaunchArgs a = args_;
            a.stream = s;
            return k == 0 ? kernels::launch_first(a, plan_) : kernels::launch_finish(a, plan_);
          },
          stream_->get(), device_, role, ctx_);
      out.insert(out.end(), step.begin(), step.end());
    }
    return out;
  }

  void counter_flush() override {
    RL_CUDA_CHECK(kernels::flush_l2(flush_.get(), flush_.bytes(), stream_->get()),
                  "flushing L2 for counters, " + ctx_);
    RL_CUDA_CHECK(cudaStreamSynchronize(stream_->get()), "counters: flushing L2, " + ctx_);
  }

  void counter_launch(int step) override {
    RL_CUDA_CHECK(
        step == 0 ? kernels::launch_first(args_, plan_) : kernels::launch_finish(args_, plan_),
        "counters: launching step " + std::to_string(step) + ", " + ctx_);
    RL_CUDA_CHECK(cudaStreamSynchronize(stream_->get()), "counters: running " + ctx_);
  }

  ReductionOutput read_output() override {
    ReductionOutput out;
    out.type = args_.type;
    cudaStream_t s = stream_->get();
    // The rows and columns kernels write one sum per row (column) to partials and no total.
    const bool segmented = kernels::is_segmented_kernel(args_.kernel);
    out.has_partials =
        segmented || (plan_.has_first_kernel && plan_.needs_finish && plan_.partial_count > 0);
    const bool i32 = args_.type == DType::Int32;  // int64 partials and total, else float
    const std::size_t n = plan_.partial_count, elem = i32 ? 8 : 4;
    if (out.has_partials) {
      i32 ? out.partials_i64.resize(n) : out.partials_f32.resize(n);
      void* host = i32 ? static_cast<void*>(out.partials_i64.data()) : out.partials_f32.data();
      RL_CUDA_CHECK(cudaMemcpyAsync(host, partials_.get(), n * elem, cudaMemcpyDeviceToHost, s),
                    "reading partials, " + ctx_);
    }
    if (segmented) {
      RL_CUDA_CHECK(cudaStreamSynchronize(s), "reading the sums, " + ctx_);
      total_from_segments(out);
      return out;
    }
    // From the result, or from the scratch where the kernel keeps it (the epoch pass); it waits
    // for the stream, the partials' copy included.
    void* total = i32 ? static_cast<void*>(&out.total_i64) : &out.total_f32;
    RL_CUDA_CHECK(kernels::read_total(args_, plan_, total), "reading the total, " + ctx_);
    return out;
  }

  void release() override {
    work_.reset();
    pristine_.reset();
    partials_.reset();
    scratch_.reset();
    floor_data_.reset();
    uploaded_data_ = nullptr;
    uploaded_n_ = 0;
  }

  std::string recover() override {
    const cudaError_t last = cudaGetLastError();  // clears an error that is not sticky
    const cudaError_t sync = cudaDeviceSynchronize();
    const cudaError_t err = sync != cudaSuccess ? sync : last;
    if (sync == cudaSuccess && !is_sticky_cuda_error(last)) return {};
    const std::string dev = "cuda:" + std::to_string(device_);
    const std::string why = std::string(cudaGetErrorName(err));
    // Everything goes before the reset: afterwards the old handles could name new resources.
    release();
    result_.reset();
    flush_.reset();
    start_.reset();
    mid_.reset();
    stop_.reset();
    stream_.reset();
    RL_CUDA_CHECK(cudaDeviceReset(), "resetting " + dev + " after " + why);
    RL_CUDA_CHECK(cudaSetDevice(device_), "selecting " + dev + " after its reset");
    create_resources();
    RL_CUDA_CHECK(cudaDeviceSynchronize(), "checking " + dev + " after its reset");
    return dev + " was reset after " + why + " and its context created again";
  }

 private:
  // Stream, events and the L2 flush buffer: at start and after a reset.
  void create_resources() {
    stream_ = std::make_unique<Stream>();
    start_ = std::make_unique<Event>();
    mid_ = std::make_unique<Event>();
    stop_ = std::make_unique<Event>();
    // Flushing: reading a buffer twice the L2's size (kernels::flush_l2 says why).
    flush_.allocate(std::max<std::size_t>(info_.l2_bytes * 2, 1 << 20), "L2 flush buffer");
    RL_CUDA_CHECK(cudaMemsetAsync(flush_.get(), 0, flush_.bytes(), stream_->get()),
                  "zeroing the L2 flush buffer");
    RL_CUDA_CHECK(cudaStreamSynchronize(stream_->get()), "zeroing the L2 flush buffer");
  }

  cudaError_t launch_first() {
    if (overridden_) return static_cast<cudaError_t>(override_.launch(stream_->get()));
    return kernels::launch_first(args_, plan_);
  }

  int device_;
  LaunchOverride override_;  // tests only
  bool overridden_ = false;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<Event> start_, mid_, stop_;  // created after cudaSetDevice
  DeviceBuffer pristine_, work_, partials_, result_, scratch_, flush_;
  DeviceBuffer floor_data_;  // read-floor input where no point's input is prepared
  kernels::LaunchArgs args_;
  kernels::LaunchPlan plan_;
  std::uint32_t scratch_launches_ = 0;  // the epoch pass's launches on scratch_ (args_.epoch)
  std::string ctx_;
  const void* uploaded_data_ = nullptr;
  std::uint64_t uploaded_n_ = 0;
  DType uploaded_type_ = DType::Int32;
  std::size_t restore_bytes_ = 0;
  bool in_place_ = false;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(int device_index) {
  return std::make_unique<CudaBackend>(device_index, LaunchOverride{});
}

std::unique_ptr<Backend> make_cuda_backend(int device_index, LaunchOverride test_override) {
  return std::make_unique<CudaBackend>(device_index, std::move(test_override));
}

}  // namespace rl
