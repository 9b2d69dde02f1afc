// The GPUs of one (size, type, GPU count) group: each holds its shard, and one sample of an
// exchange runs on all of them at once. Times come from each GPU's own CUDA events: events of
// different GPUs cannot be subtracted, so each GPU's phases are its own and the point's total
// is the slowest GPU's (multi_results.h, MultiPoint::times).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/experiment/multi_spec.h"
#include "multi/shard_gpu.h"

namespace rl {

class NcclClique;

// One GPU's phases in one sample, ms; -1 where the GPU has no part in the exchange.
struct RankTimes {
  double local = -1, exchange = -1, total = -1;
};

// What the host expects: each shard's sum and the total (int64 exactly; double for float32).
struct ExpectedSums {
  std::vector<std::int64_t> shard_i64;
  std::vector<double> shard_f64;
  std::int64_t total_i64 = 0;
  double total_f64 = 0;
};
ExpectedSums expected_sums(const InputData& input, const std::vector<std::uint64_t>& shards);

// The values a sample left on the GPUs, read back after the last one.
struct RigValues {
  std::vector<std::int64_t> partial_i64, total_i64;  // per rank (int32 input)
  std::vector<float> partial_f32, total_f32;         // per rank (float32 input)
};

class Rig {
 public:
  // Uploads each GPU's shard; with gather_at_root the root's buffer has room for the whole
  // input (gather_shards). Throws rl::CudaError naming the GPU and the size.
  Rig(const std::vector<DeviceInfo>& gpus, const InputData& input, const LocalKernel& kernel,
      bool gather_at_root);

  int count() const { return int(ranks_.size()); }
  ShardGpu& rank(int r) { return *ranks_[r]; }
  const std::vector<std::uint64_t>& shards() const { return shards_; }

  // One sample: every GPU idle (and L2 flushed when cold), then the exchange timed on each.
  // clique: needed by the NCCL exchanges only.
  std::vector<RankTimes> sample(Exchange e, NcclClique* clique, bool cold_l2);

  RigValues read_values();

 private:
  void local_then_nccl(Exchange e, NcclClique& clique);
  void local_then_peer_partials();
  void gather_then_reduce();
  void add_gathered_partials();

  std::vector<std::unique_ptr<ShardGpu>> ranks_;
  std::vector<std::uint64_t> shards_;
  DType type_;
  std::string context_;
};

}  // namespace rl
