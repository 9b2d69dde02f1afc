#include "engine/core/error.h"

#include <cuda_runtime_api.h>

namespace rl {

namespace {
std::string describe(const std::string& call, int code, const std::string& context) {
  const auto err = static_cast<cudaError_t>(code);
  std::string msg =
      call + " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")";
  if (!context.empty()) msg += " [" + context + "]";
  return msg;
}
}  // namespace

CudaError::CudaError(const std::string& call, int code, const std::string& context)
    : Error(describe(call, code, context)), code_(code) {}

}  // namespace rl
