// A stand-in for the driver's libnvidia-ml.so.1, for the NVLink discovery tests
// (nvlink_test.cpp): the functions multi/nvml_api.h opens, under their real names, answering
// for made-up GPUs. $RL_FAKE_NVML picks the machine, read at nvmlInit_v2:
//   init_fail   nvmlInit_v2 fails as without a loaded driver
//   direct18    two GPUs joined by 18 active NVLink 4.0 links (as an H200 pair's NV18)
//   switch18    two GPUs with 18 active links each to NVSwitches (an HGX board)
//   unnamed     as switch18, but NVML does not say what is at the far end
//   mixed       three GPUs: 0 and 1 joined by 18 links, the third without NVLink
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// The made-up GPUs' buses (domain 0, device 0): 00000000:1B:00.0, 00000000:43:00.0, ...:9A:00.0.
const unsigned kBusNumber[] = {0x1b, 0x43, 0x9a};
constexpr unsigned kSwitchBus = 0xe0;

std::string g_machine;

struct PciInfo {  // nvmlPciInfo_t
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

int gpu_of(void* handle) {
  return int(reinterpret_cast<std::intptr_t>(handle)) - 1;
}

int gpu_count() {
  return g_machine == "mixed" ? 3 : 2;
}

// Whether `link` of GPU `gpu` exists and is active on this machine.
bool active(int gpu, unsigned link) {
  if (link >= 18) return false;
  return !(g_machine == "mixed" && gpu == 2);
}

bool switched() {
  return g_machine == "switch18" || g_machine == "unnamed";
}

}  // namespace

extern "C" {

int nvmlInit_v2() {
  const char* m = std::getenv("RL_FAKE_NVML");
  g_machine = m ? m : "";
  return g_machine == "init_fail" ? 9 : 0;  // NVML_ERROR_DRIVER_NOT_LOADED
}

int nvmlShutdown() {
  return 0;
}

const char* nvmlErrorString(int r) {
  switch (r) {
    case 2:
      return "Invalid Argument";
    case 3:
      return "Not Supported";
    case 6:
      return "Not Found";
    case 9:
      return "Driver Not Loaded";
    default:
      return "Unknown Error";
  }
}

int nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, void** device) {
  unsigned domain = 0, bus = 0, dev = 0, fn = 0;
  if (std::sscanf(bus_id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) return 2;
  for (int i = 0; i < gpu_count(); ++i)
    if (bus == kBusNumber[i] && domain == 0 && dev == 0) {
      *device = reinterpret_cast<void*>(std::intptr_t(i + 1));
      return 0;
    }
  return 6;  // NVML_ERROR_NOT_FOUND
}

int nvmlDeviceGetNvLinkState(void* device, unsigned link, unsigned* is_active) {
  const int gpu = gpu_of(device);
  if (g_machine == "mixed" && gpu == 2) return 3;  // no NVLink on this GPU
  if (link >= 18) return 2;                        // past its last link
  *is_active = active(gpu, link) ? 1 : 0;
  return 0;
}

int nvmlDeviceGetNvLinkVersion(void* device, unsigned link, unsigned* version) {
  if (!active(gpu_of(device), link)) return 2;
  *version = 6;  // NVML_NVLINK_VERSION_4_0
  return 0;
}

int nvmlDeviceGetNvLinkRemotePciInfo_v2(void* device, unsigned link, PciInfo* pci) {
  const int gpu = gpu_of(device);
  if (!active(gpu, link)) return 2;
  std::memset(pci, 0, sizeof *pci);
  const int peer = gpu == 0 ? 1 : 0;
  pci->bus = switched() ? kSwitchBus : kBusNumber[peer];
  std::snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", pci->bus);
  return 0;
}

int nvmlDeviceGetNvLinkRemoteDeviceType(void* device, unsigned link, unsigned* type) {
  if (!active(gpu_of(device), link)) return 2;
  if (g_machine == "unnamed") return 3;
  *type = switched() ? 2 : 0;  // NVML_NVLINK_DEVICE_TYPE_SWITCH / _GPU
  return 0;
}

}  // extern "C"
