// What a multi-GPU run measured: plain value types, written to JSON and CSV by the io layer
// (engine/io/export.h) and read back by the app.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/bandwidth.h"
#include "engine/core/stats.h"
#include "engine/device/device.h"
#include "engine/device/links.h"  // PeerLink
#include "engine/experiment/multi_spec.h"
#include "engine/session/results.h"  // PointStatus

namespace rl {

// The phases of one reduction across GPUs, each a summary of per-sample CUDA-event times.
//  local:    the local reduction (each GPU its shard; for gather_shards the root's reduction of
//            all N, after the copies)
//  exchange: the exchange (NCCL's collective, or the peer copies and the root's addition; for
//            gather_shards the copies of the shards). A GPU's exchange includes waiting for
//            the slowest peer: a collective cannot end before every partial exists.
//  total:    from the start event to the end event.
struct PhaseTimes {
  Summary local, exchange, total;
};

// One GPU's part of a point.
struct GpuShare {
  int device = -1;             // CUDA ordinal
  std::uint64_t elements = 0;  // the shard it holds
  PhaseTimes times;            // its own events (empty for a GPU that does nothing timed)
  std::vector<double> local_samples_ms, exchange_samples_ms, total_samples_ms;
  // Its local reduction's value against the host's sum of its shard (not for gather_shards,
  // where only the root reduces).
  std::string partial, expected_partial;
};

struct MultiPoint {
  MultiPointSpec point;
  std::vector<int> devices;  // the GPUs it ran on, rank order (root first)
  PointStatus status = PointStatus::Ok;
  std::string message;  // why Wrong / Failed / Skipped
  // Over the GPUs, per sample: total = the slowest GPU's total, local = the slowest GPU's
  // local, exchange = total - local (what the exchange adds after the last partial exists;
  // for gather_shards the root's copy time). Each GPU's own phases are in `gpus`.
  PhaseTimes times;
  std::vector<double> local_samples_ms, exchange_samples_ms, total_samples_ms;
  std::vector<GpuShare> gpus;
  bool noisy = false;  // total.noise stayed above the spec's target
  // Input bytes / total median, 1e9 B/s: derived, never stored (the file writes it for readers).
  double total_gbps() const {
    return gbps_of(point.size * dtype_size(point.type), times.total.median_ms);
  }
  // The sum over the point's GPUs of each one's streaming-read floor at its shard's size
  // (measured, ReadFloor in results.h): the roof of reading every shard at once. 0: unknown.
  double read_roof_gbps = 0;
  std::string value, expected;  // the total (the root's; for nccl_allreduce every GPU's agrees)
  double rel_error = 0;         // float32: against the double-precision sum
};

// One GPU's read floor at one size (the best of kernels/read_floor.cu's shapes).
struct ShardFloor {
  int device = -1;
  std::uint64_t bytes = 0;
  double median_ms = 0;
  double gbps() const { return gbps_of(bytes, median_ms); }
};

struct MultiSession {
  static constexpr int kSchemaVersion = 1;
  static constexpr const char* kKind = "multi_gpu";  // tells it from a one-GPU session
  int schema_version = kSchemaVersion;
  std::string tool_version, git_commit, created_utc;
  std::vector<DeviceInfo> devices;  // every GPU of the spec, rank order
  std::vector<PeerLink> links;      // every ordered pair of them
  std::string nccl;                 // "NCCL 2.28.9 (libnccl.so.2)" or why it is unavailable
  bool nccl_available = false;
  MultiSpec spec;
  std::vector<MultiPoint> points;
  std::vector<ShardFloor> read_floors;
  bool cancelled = false;
};

}  // namespace rl
