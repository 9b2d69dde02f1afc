// The links between two GPUs of one host: what the CUDA runtime says of the pair (P2P access,
// its performance rank), what the driver's NVML says (how many NVLinks join them, their
// version), the NVLink roof that follows, and the peer copy a multi-GPU run measures.
// Discovery is multi/multi_run.h's discover_links; the NVML part is engine/src/multi/nvml_*.
#pragma once

#include <string>
#include <string_view>

namespace rl {

// One ordered pair of GPUs. The NVLink fields are the driver's (NVML): the CUDA runtime says
// whether a pair has direct access, not over what, so without NVML the link's kind stays
// unknown and link_source says why (never a guess from the speed).
struct PeerLink {
  int from = -1, to = -1;
  bool access = false;          // cudaDevP2PAttrAccessSupported: direct loads and stores
  int performance_rank = 0;     // cudaDevP2PAttrPerformanceRank: lower is faster
  bool native_atomics = false;  // cudaDevP2PAttrNativeAtomicSupported
  double measured_gbps = 0;     // cudaMemcpyPeerAsync bytes / time (median); 0: not measured
  // Active NVLinks joining the two GPUs: direct links, or through NVSwitch the smaller of the
  // two GPUs' active links to the switches (traffic between them spreads over every switch).
  int nvlinks = 0;
  bool nvswitch = false;       // the links go through NVSwitch, not GPU to GPU
  std::string nvlink_version;  // "4.0" (NVML's nvmlNvlinkVersion_t, named); "" unknown
  double nvlink_gbps = 0;      // the NVLink roof per direction: links x per-link rate; 0 unknown
  // "NVML" when the driver was asked and answered for this pair (nvlinks 0: no NVLink), else
  // why the link's kind is unknown ("NVML unavailable: libnvidia-ml.so.1: cannot open ...").
  // Empty: not asked (a session written before links were named).
  std::string link_source;

  bool nvml_answered() const { return link_source == kNvmlSource; }
  static constexpr std::string_view kNvmlSource = "NVML";
};

// NVML's nvmlDeviceGetNvLinkVersion answers with an nvmlNvlinkVersion_t, not the version's
// number (nvml.h of NVML API 12.8 and later: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1,
// 6 = 4.0, 7 = 5.0, 8 = 6.0; an H100 or H200 is NVLink 4.0). "" for 0 (invalid) and values
// this build does not know.
std::string nvlink_version_name(unsigned nvml_version);

// The nominal rate of one NVLink per direction in GB/s (1e9 B/s) for a version ("4.0"); 0 where
// this build does not know it.
double nvlink_gbps_per_link(std::string_view version);

// links x per-link rate: the NVLink roof per direction between two GPUs; 0 when unknown.
double nvlink_roof_gbps(int links, std::string_view version);

// "NVLink 4" for "4.0", "NVLink 3.1" for "3.1", "NVLink (version unknown)" for "".
std::string nvlink_name(std::string_view version);

}  // namespace rl
