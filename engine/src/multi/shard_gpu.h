// One GPU's part of a multi-GPU point: its stream, its timing events, the shard it holds and
// the local reduction planned over it (through the kernels' launch interface, as the one-GPU
// backend does), plus the cells the exchange reads and writes. Every call first makes the GPU
// current: one host thread drives every GPU.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/cuda_raii.h"
#include "engine/experiment/input_data.h"
#include "engine/experiment/spec.h"
#include "kernels/launch.h"

namespace rl {

// The local reduction as a MultiSpec names it.
struct LocalKernel {
  KernelId kernel = KernelId::SinglePass;
  Workspace workspace = Workspace::Registers;
  int block_size = 1024;
  int unroll = 4;
  DType type = DType::Int32;
};

// A planned reduction of `n` elements of a device buffer into one Accum cell.
class LocalReduction {
 public:
  // Plans on the current device; allocates partials and scratch. Throws rl::CudaError.
  LocalReduction(const LocalKernel& k, void* input, std::uint64_t n, cudaStream_t stream,
                 const std::string& context);
  // Enqueues the first kernel and the finishing pass: the total goes to `result`.
  void launch(void* result);
  // Elements a buffer reduced by (k, n) must hold (the plan's zero-padded capacity).
  static std::uint64_t capacity_for(const LocalKernel& k, std::uint64_t n,
                                    const std::string& context);

 private:
  kernels::LaunchArgs args_;
  kernels::LaunchPlan plan_;
  DeviceBuffer partials_, scratch_;
  std::string context_;
};

class ShardGpu {
 public:
  // Creates the stream, events and L2 flush buffer on `device`. Throws rl::CudaError.
  ShardGpu(int device, std::size_t l2_bytes);
  ~ShardGpu();
  ShardGpu(const ShardGpu&) = delete;
  ShardGpu& operator=(const ShardGpu&) = delete;

  int device() const { return device_; }
  cudaStream_t stream() const { return stream_.get(); }
  std::uint64_t shard_elements() const { return shard_n_; }
  void make_current() const;

  // Uploads input[offset, offset + count) to a buffer with room for `room` elements (the root
  // of gather_shards: the whole input) and plans the local reduction of the shard; with
  // whole_n > 0 also of the buffer's first whole_n elements (gather_shards at the root).
  void load(const InputData& input, std::uint64_t offset, std::uint64_t count, std::uint64_t room,
            std::uint64_t whole_n, const LocalKernel& k, const std::string& context);
  void* input_at(std::uint64_t element) const;  // device address of element i of the buffer

  void flush_l2();
  void poison_cells();  // partial and total set to all ones bits, outside the timing
  void record_start() { record(start_); }
  void record_mid() { record(mid_); }
  void record_end() { record(end_); }
  void reduce_shard() { shard_->launch(partial_.get()); }  // -> partial()
  void reduce_whole() { whole_->launch(total_.get()); }    // -> total()
  void wait_for(cudaEvent_t other_gpu_event);  // this stream waits on another GPU's event
  cudaEvent_t mid_event() const { return mid_.get(); }

  // Waits for the end event; start->mid and mid->end in ms.
  void synchronize();
  double start_to_mid_ms() const;
  double mid_to_end_ms() const;

  void* partial() const { return partial_.get(); }    // one Accum cell: the shard's sum
  void* total() const { return total_.get(); }        // one Accum cell: the exchange's result
  void* gathered() const { return gathered_.get(); }  // up to kMaxRanks Accum cells
  static constexpr int kMaxRanks = 64;

  // The read floor over the shard's bytes: the best median of kernels/read_floor.cu's shapes.
  double read_floor_ms(const TimingOptions& timing);

 private:
  void record(const Event& e);
  // Makes the GPU current before the members below are created on it.
  struct Bind {
    Bind(int device, const std::string& context);
  };
  int device_;
  std::string context_;
  Bind bind_;
  // Owned in the order they must be destroyed: on this GPU, before the device changes.
  Stream stream_;
  Event start_, mid_, end_;
  DeviceBuffer flush_, input_, partial_, total_, gathered_, sink_;
  std::optional<LocalReduction> shard_, whole_;
  std::uint64_t shard_n_ = 0;
  std::size_t elem_ = 4;
};

// Copies `bytes` from one GPU's buffer to another's on `stream` (cudaMemcpyPeerAsync: over
// NVLink or PCIe peer-to-peer where access is enabled, through the host otherwise).
void peer_copy(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
               cudaStream_t stream, const std::string& context);

// Enables peer access between every pair of `devices` the driver allows. Never throws.
void enable_peer_access(const std::vector<int>& devices);

// Peer-copy bandwidth from one GPU to another: median of several copies of `bytes`.
double measure_peer_copy_gbps(int from, int to, std::size_t bytes);

}  // namespace rl
