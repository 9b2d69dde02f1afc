#include "user/nvrtc_api.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "core/shared_library.h"

namespace rl {

namespace {

std::vector<std::string> candidates() {
  std::vector<std::string> names;
  if (const char* env = std::getenv("RL_NVRTC_LIBRARY"); env && *env) names.emplace_back(env);
  names.emplace_back("libnvrtc.so.13");
  if (const char* cuda = std::getenv("CUDA_PATH"); cuda && *cuda)
    names.push_back(std::string(cuda) + "/lib64/libnvrtc.so.13");
#ifdef RL_CUDA_TOOLKIT_LIB_DIR
  names.push_back(std::string(RL_CUDA_TOOLKIT_LIB_DIR) + "/libnvrtc.so.13");
#endif
  names.emplace_back("/usr/local/cuda/lib64/libnvrtc.so.13");
  if (const char* home = std::getenv("HOME"); home && *home) {
    // NVIDIA's PyPI package in the venv scripts/install-deps.sh makes.
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path lib = fs::path(home) / ".local/share/reductionlab/cuda-tools/lib";
    for (const auto& py : fs::directory_iterator(lib, ec))
      for (const char* sub : {"site-packages/nvidia/cu13/lib/libnvrtc.so.13",
                              "site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.13"})
        if (fs::exists(py.path() / sub, ec)) names.push_back((py.path() / sub).string());
  }
  return names;
}

NvrtcApi load(std::string* why) {
  std::string tried;
  for (const std::string& name : candidates()) {
    std::string reason;
    void* lib = open_shared_library(name, &reason);
    if (!lib) {
      if (tried.empty()) tried = name + ": " + reason;
      continue;
    }
    NvrtcApi api;
    std::string missing;
    look_up(lib, "nvrtcVersion", api.version, &missing);
    look_up(lib, "nvrtcGetErrorString", api.error_string, &missing);
    look_up(lib, "nvrtcCreateProgram", api.create, &missing);
    look_up(lib, "nvrtcDestroyProgram", api.destroy, &missing);
    look_up(lib, "nvrtcCompileProgram", api.compile, &missing);
    look_up(lib, "nvrtcGetProgramLogSize", api.log_size, &missing);
    look_up(lib, "nvrtcGetProgramLog", api.log, &missing);
    look_up(lib, "nvrtcGetCUBINSize", api.cubin_size, &missing);
    look_up(lib, "nvrtcGetCUBIN", api.cubin, &missing);
    look_up(lib, "nvrtcGetPTXSize", api.ptx_size, nullptr);
    look_up(lib, "nvrtcGetPTX", api.ptx, nullptr);
    if (!missing.empty()) {
      tried = name + ": " + reject_shared_library(lib, missing, "NVRTC 11.1 or later is needed");
      continue;
    }
    api.file = name;
    return api;  // kept loaded for the life of the process
  }
  *why = "NVRTC (the CUDA runtime compiler) is not available: " + tried +
         "; install the CUDA toolkit or `pip install nvidia-cuda-nvrtc`";
  return {};
}

}  // namespace

const NvrtcApi* nvrtc_api(std::string* why) {
  static std::once_flag once;
  static NvrtcApi api;
  static std::string reason;
  std::call_once(once, [] { api = load(&reason); });
  if (api.compile) return &api;
  if (why) *why = reason;
  return nullptr;
}

std::string cuda_include_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> dirs;
  if (const char* cuda = std::getenv("CUDA_PATH"); cuda && *cuda)
    dirs.push_back(std::string(cuda) + "/include");
#ifdef RL_CUDA_TOOLKIT_INCLUDE_DIR
  dirs.emplace_back(RL_CUDA_TOOLKIT_INCLUDE_DIR);
#endif
  dirs.emplace_back("/usr/local/cuda/include");
  for (const std::string& d : dirs)
    if (fs::exists(fs::path(d) / "cooperative_groups.h", ec)) return d;
  return {};
}

}  // namespace rl
