// The driver's NVML (libnvidia-ml.so.1), opened at run time with dlopen as NCCL and CUPTI are:
// it ships with the driver, not the toolkit, and nvml.h is not on every build machine, so the
// few types and functions used are declared here. They follow nvml.h of NVML API version 13
// (NVML_API_VERSION 13, as shipped with CUDA 13). Only NVLink discovery uses them
// (multi/nvlink_discovery.h).
#pragma once

#include <string>
#include <vector>

namespace rl::nvml {

using Return = int;  // nvmlReturn_t
constexpr Return kSuccess = 0;
constexpr Return kErrorInvalidArgument = 2;  // also: a link index past the GPU's links
constexpr Return kErrorNotSupported = 3;     // this GPU has no NVLink

struct DeviceSt;
using Device = DeviceSt*;  // nvmlDevice_t

// nvmlPciInfo_t (nvml.h: NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE 16, _BUFFER_SIZE 32).
struct PciInfo {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];  // "00000000:1B:00.0"
};

constexpr unsigned kFeatureEnabled = 1;  // nvmlEnableState_t NVML_FEATURE_ENABLED
// nvmlIntNvLinkDeviceType_t: what is at the other end of a link.
constexpr unsigned kLinkDeviceGpu = 0, kLinkDeviceSwitch = 2;
// NVML_NVLINK_MAX_LINKS of NVML 13 (18 on Hopper and Blackwell; older GPUs have fewer and
// answer NVML_ERROR_INVALID_ARGUMENT past their last link).
constexpr unsigned kMaxLinks = 36;

// The functions used, as pointers; a test fills them with fakes. RemoteDeviceType may be null
// (an NVML older than 10): then only links whose far end is one of the GPUs asked about count.
struct Api {
  Return (*Init_v2)() = nullptr;
  Return (*Shutdown)() = nullptr;
  const char* (*ErrorString)(Return) = nullptr;
  Return (*DeviceGetHandleByPciBusId_v2)(const char*, Device*) = nullptr;
  Return (*DeviceGetNvLinkState)(Device, unsigned, unsigned*) = nullptr;  // nvmlEnableState_t*
  Return (*DeviceGetNvLinkVersion)(Device, unsigned, unsigned*) = nullptr;
  Return (*DeviceGetNvLinkRemotePciInfo_v2)(Device, unsigned, PciInfo*) = nullptr;
  Return (*DeviceGetNvLinkRemoteDeviceType)(Device, unsigned, unsigned*) = nullptr;
};

// $RL_NVML_LIBRARY when set (then only it), else libnvidia-ml.so.1 from the loader's path.
std::vector<std::string> library_candidates();

struct Loaded {
  Api api;
  std::string library;  // the file opened
  std::string error;    // why none could be used: every file tried and what it said
  bool ok() const { return error.empty(); }
};

// Opens the first candidate that loads and has every function needed (kept open for the life
// of the process). Not cached: tests point it at a fake library or a missing file.
Loaded load(const std::vector<std::string>& candidates);

// The process' NVML, loaded once (library_candidates()).
const Loaded& loaded();

// "NVML_ERROR_..." text for a code, through the library's nvmlErrorString when it has one.
std::string error_text(const Api& api, Return r);

}  // namespace rl::nvml
