#include "multi/nvlink_discovery.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace rl {

namespace {

// What NVML says of one GPU's links.
struct GpuScan {
  std::string error;          // why NVML could not say (then nothing else is set)
  std::map<int, int> direct;  // CUDA ordinal of a listed GPU -> active links to it
  int to_switch = 0;          // active links to an NVSwitch
  int unnamed = 0;            // active links whose far end NVML does not name
  unsigned version = 0;       // the lowest nvmlNvlinkVersion_t of its active links
};

std::string gpu_name(const GpuBusId& g) {
  return "cuda:" + std::to_string(g.device) + " (PCI " + g.bus_id + ")";
}

// A link index past the GPU's links, or a GPU without NVLink: no link, not an error.
bool no_such_link(nvml::Return r) {
  return r == nvml::kErrorInvalidArgument || r == nvml::kErrorNotSupported;
}

GpuScan scan(const nvml::Api& api, const GpuBusId& g, const std::vector<GpuBusId>& gpus) {
  GpuScan out;
  auto failed = [&](const char* call, nvml::Return r, unsigned link) {
    out.error = std::string(call) + " for " + gpu_name(g) +
                (link == ~0u ? "" : ", link " + std::to_string(link)) + ": " +
                nvml::error_text(api, r);
    return out;
  };
  nvml::Device dev = nullptr;
  if (nvml::Return r = api.DeviceGetHandleByPciBusId_v2(g.bus_id.c_str(), &dev);
      r != nvml::kSuccess)
    return failed("nvmlDeviceGetHandleByPciBusId_v2", r, ~0u);
  for (unsigned link = 0; link < nvml::kMaxLinks; ++link) {
    unsigned active = 0;
    const nvml::Return rs = api.DeviceGetNvLinkState(dev, link, &active);
    if (no_such_link(rs)) continue;
    if (rs != nvml::kSuccess) return failed("nvmlDeviceGetNvLinkState", rs, link);
    if (active != nvml::kFeatureEnabled) continue;
    unsigned version = 0;
    if (api.DeviceGetNvLinkVersion(dev, link, &version) == nvml::kSuccess && version != 0)
      out.version = out.version == 0 ? version : std::min(out.version, version);
    unsigned type = ~0u;  // unknown
    if (api.DeviceGetNvLinkRemoteDeviceType &&
        api.DeviceGetNvLinkRemoteDeviceType(dev, link, &type) != nvml::kSuccess)
      type = ~0u;
    if (type == nvml::kLinkDeviceSwitch) {
      ++out.to_switch;
      continue;
    }
    nvml::PciInfo pci{};
    if (nvml::Return r = api.DeviceGetNvLinkRemotePciInfo_v2(dev, link, &pci); r != nvml::kSuccess)
      return failed("nvmlDeviceGetNvLinkRemotePciInfo_v2", r, link);
    const PciAddress far{pci.domain, pci.bus, pci.device};
    bool listed = false;
    for (const GpuBusId& other : gpus)
      if (other.device != g.device && parse_pci_bus_id(other.bus_id) == far) {
        ++out.direct[other.device];
        listed = true;
      }
    // A GPU outside the list is named by its type; anything else NVML did not name.
    if (!listed && type != nvml::kLinkDeviceGpu) ++out.unnamed;
  }
  return out;
}

int count_of(const std::map<int, int>& m, int key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

void fill(PeerLink& l, const GpuScan& a, const GpuScan& b) {
  // Both ends should agree; the smaller count is what both sides see.
  const int direct = std::min(count_of(a.direct, l.to), count_of(b.direct, l.from));
  const int switched = a.to_switch > 0 && b.to_switch > 0 ? std::min(a.to_switch, b.to_switch) : 0;
  l.nvlinks = direct + switched;
  l.nvswitch = switched > 0;
  if (l.nvlinks == 0 && (a.unnamed > 0 || b.unnamed > 0)) {
    l.link_source =
        "NVML does not name the far end of cuda:" + std::to_string(a.unnamed > 0 ? l.from : l.to) +
        "'s active NVLinks (no nvmlDeviceGetNvLinkRemoteDeviceType): link unknown";
    return;
  }
  unsigned v = a.version;
  if (b.version != 0) v = v == 0 ? b.version : std::min(v, b.version);
  l.nvlink_version = l.nvlinks > 0 ? nvlink_version_name(v) : "";
  l.nvlink_gbps = nvlink_roof_gbps(l.nvlinks, l.nvlink_version);
  l.link_source = std::string(PeerLink::kNvmlSource);
}

}  // namespace

std::optional<PciAddress> parse_pci_bus_id(std::string_view text) {
  const std::string s(text);
  PciAddress a;
  unsigned function = 0;
  int used = 0;
  if (std::sscanf(s.c_str(), "%x:%x:%x.%x%n", &a.domain, &a.bus, &a.device, &function, &used) ==
          4 &&
      used == int(s.size()))
    return a;
  a = PciAddress{};
  if (std::sscanf(s.c_str(), "%x:%x.%x%n", &a.bus, &a.device, &function, &used) == 3 &&
      used == int(s.size()))
    return a;
  return std::nullopt;
}

void add_nvlinks(std::vector<PeerLink>& links, const std::vector<GpuBusId>& gpus,
                 const nvml::Api& api) {
  if (links.empty()) return;
  if (nvml::Return r = api.Init_v2(); r != nvml::kSuccess) {
    for (PeerLink& l : links)
      l.link_source = "NVML unavailable: nvmlInit_v2 failed: " + nvml::error_text(api, r);
    return;
  }
  std::map<int, GpuScan> scans;
  for (const GpuBusId& g : gpus)
    scans[g.device] = g.bus_id.empty()
                          ? GpuScan{"no PCI bus id for cuda:" + std::to_string(g.device)}
                          : scan(api, g, gpus);
  api.Shutdown();
  for (PeerLink& l : links) {
    auto a = scans.find(l.from), b = scans.find(l.to);
    if (a == scans.end() || b == scans.end())
      l.link_source = "NVML not asked: a GPU of the pair has no PCI bus id";
    else if (!a->second.error.empty())
      l.link_source = "NVML: " + a->second.error;
    else if (!b->second.error.empty())
      l.link_source = "NVML: " + b->second.error;
    else
      fill(l, a->second, b->second);
  }
}

void add_nvlinks(std::vector<PeerLink>& links, const std::vector<GpuBusId>& gpus,
                 const nvml::Loaded& lib) {
  if (!lib.ok()) {
    for (PeerLink& l : links) l.link_source = "NVML unavailable: " + lib.error;
    return;
  }
  add_nvlinks(links, gpus, lib.api);
}

}  // namespace rl
