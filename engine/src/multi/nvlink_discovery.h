// Which NVLinks join the GPUs of one host, from the driver's NVML (multi/nvml_api.h): for each
// GPU, each active link and what is at its other end (another of the GPUs, or an NVSwitch),
// then per pair the links, their version and the roof that follows (device/links.h). The CUDA
// runtime says whether two GPUs have direct access, never over what; NVML names the link, as
// `nvidia-smi topo -m` does (NV18 between two H200s).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/device/links.h"
#include "multi/nvml_api.h"

namespace rl {

// A GPU to ask NVML about: its CUDA ordinal and its PCI bus id (cudaDeviceGetPCIBusId:
// "0000:1B:00.0"; NVML writes "00000000:1B:00.0").
struct GpuBusId {
  int device = -1;
  std::string bus_id;
};

struct PciAddress {
  unsigned domain = 0, bus = 0, device = 0;
  bool operator==(const PciAddress&) const = default;
};
// "0000:1b:00.0", "00000000:1B:00.0" or "1b:00.0" (domain 0); the function is not compared (a
// GPU is function 0). nullopt for anything else.
std::optional<PciAddress> parse_pci_bus_id(std::string_view text);

// Fills the NVLink fields of every link whose two GPUs are among `gpus` through `api`: NVML is
// initialised, asked, and shut down. Never throws; where NVML cannot say, link_source says why
// and the link's kind stays unknown.
void add_nvlinks(std::vector<PeerLink>& links, const std::vector<GpuBusId>& gpus,
                 const nvml::Api& api);

// The same through a loaded NVML (by default the process' own); where it could not be opened
// every link's link_source is "NVML unavailable: <every file tried and why>".
void add_nvlinks(std::vector<PeerLink>& links, const std::vector<GpuBusId>& gpus,
                 const nvml::Loaded& lib = nvml::loaded());

}  // namespace rl
