// Errors that carry their context: which call failed, for which variant and size.
#pragma once

#include <stdexcept>
#include <string>

namespace rl {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA runtime call failed. what() reads e.g.
// "cudaMalloc(input, 1073741824 bytes) failed: out of memory (cudaErrorMemoryAllocation) [variant
// interleaved, N=268435456]".
class CudaError : public Error {
 public:
  CudaError(const std::string& call, int code, const std::string& context);
  int code() const { return code_; }

 private:
  int code_;
};

}  // namespace rl
