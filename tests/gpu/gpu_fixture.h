// Shared by the GPU tests: one CUDA backend per test binary, or the reason there is none, so
// every GPU test skips with that reason on machines without a usable GPU (CI, laptops).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/backend/backend.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/experiment/input_data.h"

namespace rl::testing {

struct GpuEnvironment {
  std::unique_ptr<Backend> backend;
  std::string skip_reason;
  static GpuEnvironment& get() {
    static GpuEnvironment env = [] {
      GpuEnvironment e;
      const Discovery d = discover_devices();
      if (d.gpus.empty()) {
        e.skip_reason = "no usable GPU: " + d.no_gpu_reason;
        return e;
      }
      try {
        e.backend = make_cuda_backend(d.gpus.front().index);
      } catch (const Error& err) {
        e.skip_reason = std::string("GPU present but unusable: ") + err.what();
      }
      return e;
    }();
    return env;
  }
};

// Inputs are expensive at 2^24 + 7: build each (size, type) once per binary.
inline const InputData& cached_input(std::uint64_t n, DType t) {
  static std::map<std::pair<std::uint64_t, int>, InputData> cache;
  auto key = std::make_pair(n, static_cast<int>(t));
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, make_input(n, t)).first;
  return it->second;
}

}  // namespace rl::testing

#define RL_REQUIRE_GPU()                                       \
  do {                                                         \
    auto& rl_env_ = ::rl::testing::GpuEnvironment::get();      \
    if (!rl_env_.backend) GTEST_SKIP() << rl_env_.skip_reason; \
  } while (0)
