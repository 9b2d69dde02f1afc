// NVLink versions and their rates (device/links.h): pure functions, no NVML and no CUDA.
#include "engine/device/links.h"

#include <array>

namespace rl {

namespace {

struct Generation {
  unsigned nvml;         // nvmlNvlinkVersion_t (nvml.h, NVML API 12.8 and later)
  const char* name;      // the version as NVIDIA names it
  double gbps_per_link;  // per direction, GB/s; 0: not known to this build
};

// Per-link rates per direction, from NVIDIA's published per-GPU totals (both directions
// together) divided by the GPU's links and by 2:
//   1.0 P100 SXM2: 4 links, 160 GB/s             -> 20 GB/s
//   2.0 V100 SXM2: 6 links, 300 GB/s             -> 25 GB/s
//   3.0 A100 SXM:  12 links, 600 GB/s            -> 25 GB/s
//   4.0 H100/H200 SXM: 18 links, 900 GB/s        -> 25 GB/s (18 links: 450 GB/s per direction)
//   5.0 B200: 18 links, 1.8 TB/s                 -> 50 GB/s
// 2.2 and 6.0 have no per-link figure this build can cite, and 3.1 is answered by GPUs of two
// rates (hwloc reports an A100, 25 GB/s a link, answering 5; nvtop an RTX 3090, whose bridge
// gives 14.06 GB/s a link, too): their roof is left unknown rather than guessed.
constexpr std::array<Generation, 8> kGenerations{{
    {1, "1.0", 20},
    {2, "2.0", 25},
    {3, "2.2", 0},
    {4, "3.0", 25},
    {5, "3.1", 0},
    {6, "4.0", 25},
    {7, "5.0", 50},
    {8, "6.0", 0},
}};

}  // namespace

std::string nvlink_version_name(unsigned nvml_version) {
  for (const Generation& g : kGenerations)
    if (g.nvml == nvml_version) return g.name;
  return {};
}

double nvlink_gbps_per_link(std::string_view version) {
  for (const Generation& g : kGenerations)
    if (version == g.name) return g.gbps_per_link;
  return 0;
}

double nvlink_roof_gbps(int links, std::string_view version) {
  return links > 0 ? links * nvlink_gbps_per_link(version) : 0;
}

std::string nvlink_name(std::string_view version) {
  if (version.empty()) return "NVLink (version unknown)";
  std::string v(version);
  if (v.size() > 2 && v.compare(v.size() - 2, 2, ".0") == 0) v.resize(v.size() - 2);
  return "NVLink " + v;
}

}  // namespace rl
