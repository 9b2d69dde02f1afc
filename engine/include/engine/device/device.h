// Device discovery: what GPU is there (or why none), its limits, its theoretical DRAM
// bandwidth and a measured device-to-device copy bandwidth (the practical roof).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/device/links.h"

namespace rl {

struct DeviceInfo {
  std::string backend = "host";  // "cuda" or "host"
  int index = -1;                // CUDA ordinal; -1 for the host
  std::string name;              // "NVIDIA H200" or the host CPU's model name
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t total_memory = 0, free_memory = 0;
  int max_threads_per_block = 1024;
  int memory_clock_khz = 0, memory_bus_bits = 0;
  double theoretical_gbps = 0;  // 2 * clock * bus / 8; 0 when unknown
  // cudaMemcpyAsync D2D read+write bytes / time; 0 if not measured. Information only: a copy
  // reads and writes, so it is no roof for a kernel that only reads.
  double measured_copy_gbps = 0;
  // The streaming-read floor at a large size (read_floor_bytes; ReadFloor in results.h): the
  // practical roof of a reduction. 0 if not measured.
  double measured_read_gbps = 0;
  std::uint64_t read_floor_bytes = 0;
  int driver_version = 0, runtime_version = 0;
  std::string note;  // for the host: why no GPU is used

  std::string label() const;  // "cuda:0 NVIDIA H200 (sm_90)" / "cpu (host emulation)"
  int compute_capability() const { return cc_major * 10 + cc_minor; }
};

struct Discovery {
  std::vector<DeviceInfo> gpus;
  DeviceInfo host;            // always present
  std::string no_gpu_reason;  // set when gpus is empty: which call said what
  // Every ordered pair of the GPUs: filled by discover_devices_with_links (multi/multi_run.h),
  // what `devices` and the app's Devices panel show; empty from discover_devices alone.
  std::vector<PeerLink> links;
};

// Never throws: no driver or no GPU becomes Discovery::no_gpu_reason.
Discovery discover_devices();

// "no such GPU; 2 found (cuda:0..cuda:1)": what every check of a GPU's ordinal says.
std::string no_such_gpu(int found);

// Measures D2D copy bandwidth on the device (a few hundred ms). Throws rl::CudaError.
double measure_copy_bandwidth_gbps(int device, std::size_t bytes = std::size_t(1) << 30);

}  // namespace rl
