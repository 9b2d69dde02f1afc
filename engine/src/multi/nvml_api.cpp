#include "multi/nvml_api.h"

#include <dlfcn.h>

#include <cstdlib>

namespace rl::nvml {

namespace {

template <typename F>
void look_up(void* lib, const char* name, F& fn, std::string* missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn && missing) *missing += (missing->empty() ? "" : ", ") + std::string(name);
}

// One candidate: "" and the api filled, or why not.
std::string open_one(const std::string& name, Api* api) {
  void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    std::string text = why ? why : "not found";
    if (text.rfind(name + ": ", 0) == 0) text.erase(0, name.size() + 2);  // said once
    return text;
  }
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
  if (!missing.empty()) {
    dlclose(lib);
    *api = Api{};
    return "has no " + missing + " (the driver's NVML is older than this build needs)";
  }
  return {};
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
