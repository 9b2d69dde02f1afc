#include "multi/nvml_api.h"

#include <cstdlib>

#include "core/shared_library.h"

namespace rl::nvml {

namespace {

// One candidate: "" and the api filled, or why not.
std::string open_one(const std::string& name, Api* api) {
  std::string why;
  void* lib = open_shared_library(name, &why);
  if (!lib) return why;
  std::string missing;
  look_up(lib, "nvmlInit_v2", api->Init_v2, &missing);
  look_up(lib, "nvmlShutdown", api->Shutdown, &missing);
  look_up(lib, "nvmlErrorString", api->ErrorString, &missing);
  look_up(lib, "nvmlDeviceGetHandleByPciBusId_v2", api->DeviceGetHandleByPciBusId_v2, &missing);
  look_up(lib, "nvmlDeviceGetNvLinkState", api->DeviceGetNvLinkState, &missing);
  look_up(lib, "nvmlDeviceGetNvLinkVersion", api->DeviceGetNvLinkVersion, &missing);
  look_up(lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2", api->DeviceGetNvLinkRemotePciInfo_v2,
          &missing);
  look_up(lib, "nvmlDeviceGetNvLinkRemoteDeviceType", api->DeviceGetNvLinkRemoteDeviceType,
          nullptr);  // optional
  if (missing.empty()) return {};
  *api = Api{};  // no pointers into the closed file
  return reject_shared_library(lib, missing, "the driver's NVML is older than this build needs");
}

}  // namespace

std::vector<std::string> library_candidates() {
  if (const char* env = std::getenv("RL_NVML_LIBRARY"); env && *env) return {env};
  return {"libnvidia-ml.so.1"};
}

Loaded load(const std::vector<std::string>& candidates) {
  Loaded out;
  std::string tried;
  for (const std::string& name : candidates) {
    const std::string why = open_one(name, &out.api);
    if (why.empty()) {
      out.library = name;
      return out;
    }
    tried += (tried.empty() ? "" : "; ") + name + ": " + why;
  }
  out.error = candidates.empty() ? "no NVML library named" : tried;
  out.error += " (NVML ships with the NVIDIA driver)";
  return out;
}

const Loaded& loaded() {
  static const Loaded l = load(library_candidates());
  return l;
}

std::string error_text(const Api& api, Return r) {
  const char* s = api.ErrorString ? api.ErrorString(r) : nullptr;
  return (s && *s ? std::string(s) : std::string("NVML error")) + " (code " + std::to_string(r) +
         ")";
}

}  // namespace rl::nvml
