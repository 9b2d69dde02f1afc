#include "multi/shard_gpu.h"

#include "engine/core/bandwidth.h"
#include "measure/sampling.h"

#include <algorithm>
#include <vector>

namespace rl {

namespace {

std::string on(int device) {
  return "cuda:" + std::to_string(device);
}

float elapsed_ms(cudaEvent_t a, cudaEvent_t b, const std::string& context) {
  float ms = 0;
  RL_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b), context);
  return ms;
}

kernels::LaunchArgs args_of(const LocalKernel& k, std::uint64_t n) {
  kernels::LaunchArgs args;
  args.kernel = k.kernel;
  args.type = k.type;
  args.workspace = k.workspace;
  args.block_size = k.block_size;
  args.unroll = k.unroll;
  args.n = n;
  return args;
}

}  // namespace

LocalReduction::LocalReduction(const LocalKernel& k, void* input, std::uint64_t n,
                               cudaStream_t stream, const std::string& context)
    : args_(args_of(k, n)), context_(context) {
  args_.input = input;
  args_.stream = stream;
  RL_CUDA_CHECK(kernels::plan_launch(args_, &plan_), "planning the local reduction, " + context);
  const std::size_t accum = kernels::accum_size(k.type);
  partials_.allocate(std::max<std::size_t>(plan_.partial_count, 1) * accum, "partials, " + context);
  if (plan_.scratch_bytes) {
    scratch_.allocate(plan_.scratch_bytes, "scratch, " + context);
    RL_CUDA_CHECK(cudaMemsetAsync(scratch_.get(), 0, plan_.scratch_bytes, stream), context);
  }
  args_.partials = partials_.get();
  args_.scratch = scratch_.get();
}

std::uint64_t LocalReduction::capacity_for(const LocalKernel& k, std::uint64_t n,
                                           const std::string& context) {
  kernels::LaunchPlan plan;
  RL_CUDA_CHECK(kernels::plan_launch(args_of(k, n), &plan),
                "planning the local reduction, " + context);
  return plan.input_capacity;
}

void LocalReduction::launch(void* result) {
  args_.result = result;
  RL_CUDA_CHECK(kernels::launch_first(args_, plan_), "local reduction, " + context_);
  RL_CUDA_CHECK(kernels::launch_finish(args_, plan_), "local finishing pass, " + context_);
}

ShardGpu::Bind::Bind(int device, const std::string& context) {
  RL_CUDA_CHECK(cudaSetDevice(device), context);
}

ShardGpu::ShardGpu(int device, std::size_t l2_bytes)
    : device_(device), context_(on(device)), bind_(device, context_) {
  // Twice the L2, as the one-GPU backend flushes (kernels/l2_flush.cu): zeroed once.
  const std::size_t flush_bytes = std::max<std::size_t>(2 * l2_bytes, std::size_t(1) << 20);
  flush_.allocate(flush_bytes, "L2 flush buffer, " + context_);
  RL_CUDA_CHECK(cudaMemsetAsync(flush_.get(), 0, flush_bytes, stream()), context_);
  const std::size_t cell = 8;  // one Accum: int64 or float
  partial_.allocate(cell, "partial, " + context_);
  total_.allocate(cell, "total, " + context_);
  gathered_.allocate(cell * kMaxRanks, "gathered partials, " + context_);
  sink_.allocate(cell, "read floor sink, " + context_);
}

ShardGpu::~ShardGpu() {
  cudaSetDevice(device_);  // the members are freed on their own GPU
  cudaStreamSynchronize(stream_.get());
}

void ShardGpu::make_current() const {
  RL_CUDA_CHECK(cudaSetDevice(device_), context_);
}

void ShardGpu::load(const InputData& input, std::uint64_t offset, std::uint64_t count,
                    std::uint64_t room, std::uint64_t whole_n, const LocalKernel& k,
                    const std::string& context) {
  make_current();
  context_ = context + " on " + on(device_);
  elem_ = dtype_size(k.type);
  shard_.reset();
  whole_.reset();
  input_.reset();
  shard_n_ = count;
  // The buffer holds whichever is largest: the room asked for, or what a plan pads to.
  const std::uint64_t capacity =
      std::max<std::uint64_t>({room, LocalReduction::capacity_for(k, count, context_),
                               whole_n ? LocalReduction::capacity_for(k, whole_n, context_) : 0});
  input_.allocate(capacity * elem_, "shard, " + context_);
  const char* host = static_cast<const char*>(input.data()) + offset * elem_;
  RL_CUDA_CHECK(
      cudaMemcpyAsync(input_.get(), host, count * elem_, cudaMemcpyHostToDevice, stream()),
      "uploading the shard, " + context_);
  RL_CUDA_CHECK(cudaMemsetAsync(input_at(count), 0, (capacity - count) * elem_, stream()),
                "zeroing the padding, " + context_);
  shard_.emplace(k, input_.get(), count, stream(), context_);
  if (whole_n) whole_.emplace(k, input_.get(), whole_n, stream(), context_ + " (whole input)");
  RL_CUDA_CHECK(cudaStreamSynchronize(stream()), context_);
}

void* ShardGpu::input_at(std::uint64_t element) const {
  return static_cast<char*>(input_.get()) + element * elem_;
}

void ShardGpu::flush_l2() {
  make_current();
  RL_CUDA_CHECK(kernels::flush_l2(flush_.get(), flush_.bytes(), stream()),
                "flushing L2, " + context_);
}

void ShardGpu::poison_cells() {
  make_current();
  RL_CUDA_CHECK(cudaMemsetAsync(partial_.get(), 0xff, partial_.bytes(), stream()), context_);
  RL_CUDA_CHECK(cudaMemsetAsync(total_.get(), 0xff, total_.bytes(), stream()), context_);
}

void ShardGpu::record(const Event& e) {
  RL_CUDA_CHECK(cudaEventRecord(e.get(), stream()), "timing event, " + context_);
}

void ShardGpu::wait_for(cudaEvent_t other_gpu_event) {
  RL_CUDA_CHECK(cudaStreamWaitEvent(stream(), other_gpu_event, 0),
                "waiting for a peer's partial, " + context_);
}

void ShardGpu::synchronize() {
  RL_CUDA_CHECK(cudaEventSynchronize(end_.get()), "running " + context_);
}

double ShardGpu::start_to_mid_ms() const {
  return elapsed_ms(start_.get(), mid_.get(), context_);
}

double ShardGpu::mid_to_end_ms() const {
  return elapsed_ms(mid_.get(), end_.get(), context_);
}

double ShardGpu::read_floor_ms(const TimingOptions& t) {
  make_current();
  const std::size_t bytes = shard_n_ * elem_;
  const std::string ctx = "read floor over " + std::to_string(bytes) + " bytes, " + context_;
  cudaDeviceProp p{};
  RL_CUDA_CHECK(cudaGetDeviceProperties(&p, device_), ctx);
  double best = 0;
  for (int shape = 0; shape < kernels::read_floor_shape_count(); ++shape) {
    const auto one = [&] {
      if (t.cold_l2) flush_l2();
      record(start_);
      RL_CUDA_CHECK(kernels::launch_read_floor(input_.get(), bytes, shape, p.multiProcessorCount,
                                               static_cast<int*>(sink_.get()), stream()),
                    ctx);
      record(end_);
      RL_CUDA_CHECK(cudaEventSynchronize(end_.get()), ctx);
      return elapsed_ms(start_.get(), end_.get(), ctx);
    };
    // Warmed up and sampled as a one-GPU point's floor is (measure/sampling.h).
    for (int w = 0; w < std::max(t.warmup, 1); ++w) one();
    std::vector<double> times;
    bool cancelled = false;
    sample_until_quiet(t, nullptr, &cancelled, times, one);
    const double median = summarize(times).median_ms;
    if (best == 0 || median < best) best = median;
  }
  return best;
}

void peer_copy(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
               cudaStream_t stream, const std::string& context) {
  RL_CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream),
                "peer copy " + on(src_device) + " -> " + on(dst_device) + ", " +
                    std::to_string(bytes) + " bytes, " + context);
}

void enable_peer_access(const std::vector<int>& devices) {
  for (int a : devices)
    for (int b : devices) {
      int can = 0;
      if (a == b || cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can) continue;
      if (cudaSetDevice(a) != cudaSuccess) continue;
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // not an error here
    }
}

double measure_peer_copy_gbps(int from, int to, std::size_t bytes) {
  const std::string ctx = "peer copy bandwidth " + on(from) + " -> " + on(to);
  RL_CUDA_CHECK(cudaSetDevice(to), ctx);
  DeviceBuffer dst(bytes, ctx);
  RL_CUDA_CHECK(cudaSetDevice(from), ctx);
  DeviceBuffer src(bytes, ctx);
  Stream stream;
  Event start, stop;
  RL_CUDA_CHECK(cudaMemsetAsync(src.get(), 1, bytes, stream.get()), ctx);
  std::vector<float> times;
  for (int i = 0; i < 12; ++i) {
    RL_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()), ctx);
    peer_copy(dst.get(), to, src.get(), from, bytes, stream.get(), ctx);
    RL_CUDA_CHECK(cudaEventRecord(stop.get(), stream.get()), ctx);
    RL_CUDA_CHECK(cudaEventSynchronize(stop.get()), ctx);
    if (i >= 2) times.push_back(elapsed_ms(start.get(), stop.get(), ctx));
  }
  std::sort(times.begin(), times.end());
  const double ms = times[times.size() / 2];
  // dst was allocated on `to`: freed there; the rest is `from`'s, freed with it current.
  RL_CUDA_CHECK(cudaStreamSynchronize(stream.get()), ctx);
  RL_CUDA_CHECK(cudaSetDevice(to), ctx);
  dst.reset();
  RL_CUDA_CHECK(cudaSetDevice(from), ctx);
  return gbps_of(bytes, ms);
}

}  // namespace rl
