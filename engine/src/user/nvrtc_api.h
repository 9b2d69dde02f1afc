// NVRTC, the CUDA toolkit's runtime compiler, opened with dlopen as CUPTI and NCCL are: the app
// starts, runs and times without it; only compiling a user kernel needs it. It comes with the
// toolkit (/usr/local/cuda/lib64) or NVIDIA's PyPI package (nvidia-cuda-nvrtc).
#pragma once

#include <nvrtc.h>

#include <string>

namespace rl {

struct NvrtcApi {
  decltype(&::nvrtcVersion) version = nullptr;
  decltype(&::nvrtcGetErrorString) error_string = nullptr;
  decltype(&::nvrtcCreateProgram) create = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy = nullptr;
  decltype(&::nvrtcCompileProgram) compile = nullptr;
  decltype(&::nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&::nvrtcGetProgramLog) log = nullptr;
  decltype(&::nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&::nvrtcGetCUBIN) cubin = nullptr;
  decltype(&::nvrtcGetPTXSize) ptx_size = nullptr;  // optional: null where the library lacks it
  decltype(&::nvrtcGetPTX) ptx = nullptr;
  std::string file;  // the library opened
};

// The API, loaded once per process; null with *why ("libnvrtc.so.13: cannot open shared object
// file ...; install the CUDA toolkit or `pip install nvidia-cuda-nvrtc`") where it cannot be had.
// RL_NVRTC_LIBRARY names a file to try first.
const NvrtcApi* nvrtc_api(std::string* why);

// The toolkit's include folder for the compiler's #include <...> (cooperative_groups.h, cub),
// or "" where none is found.
std::string cuda_include_dir();

}  // namespace rl
