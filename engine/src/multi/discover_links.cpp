// The links between the GPUs (multi_run.h): the CUDA runtime's P2P attributes of every ordered
// pair, then the driver's NVML for what joins them (multi/nvlink_discovery.h).
#include <cuda_runtime_api.h>

#include "engine/multi/multi_run.h"
#include "multi/nvlink_discovery.h"

namespace rl {

std::vector<PeerLink> discover_links(const std::vector<int>& devices) {
  std::vector<PeerLink> out;
  for (int a : devices)
    for (int b : devices) {
      if (a == b) continue;
      PeerLink l;
      l.from = a;
      l.to = b;
      int v = 0;
      if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, a, b) == cudaSuccess)
        l.access = v != 0;
      if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, a, b) == cudaSuccess)
        l.performance_rank = v;
      if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, a, b) == cudaSuccess)
        l.native_atomics = v != 0;
      cudaGetLastError();  // a failed query is "no access", not an error for later calls
      out.push_back(l);
    }
  if (out.empty()) return out;
  // NVML knows GPUs by PCI bus id, CUDA by ordinal: the bus id joins them.
  std::vector<GpuBusId> gpus;
  for (int d : devices) {
    char bus[32] = {};
    GpuBusId g{d, {}};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) g.bus_id = bus;
    cudaGetLastError();
    gpus.push_back(g);
  }
  add_nvlinks(out, gpus);
  return out;
}

Discovery discover_devices_with_links() {
  Discovery d = discover_devices();
  std::vector<int> ordinals;
  for (const DeviceInfo& g : d.gpus) ordinals.push_back(g.index);
  d.links = discover_links(ordinals);
  return d;
}

}  // namespace rl
