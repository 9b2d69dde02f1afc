// RAII owners for CUDA resources and the checked-call macro. Every CUDA call in the engine goes
// through RL_CUDA_CHECK so a failure names the call and the point it was working on.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "engine/core/error.h"

// Throws rl::CudaError("call text", code, context) when the call fails.
#define RL_CUDA_CHECK(call, context)                                              \
  do {                                                                            \
    const cudaError_t rl_err_ = (call);                                           \
    if (rl_err_ != cudaSuccess) throw ::rl::CudaError(#call, rl_err_, (context)); \
  } while (0)

namespace rl {

// Errors that leave the context unusable until cudaDeviceReset(): every later call returns them.
inline bool is_sticky_cuda_error(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(std::size_t bytes, const std::string& what) { allocate(bytes, what); }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  void allocate(std::size_t bytes, const std::string& what) {
    reset();
    if (bytes == 0) return;
    RL_CUDA_CHECK(cudaMalloc(&ptr_, bytes), what + ", " + std::to_string(bytes) + " bytes");
    bytes_ = bytes;
  }
  void reset() {
    if (ptr_) cudaFree(ptr_);  // cannot fail usefully in a destructor
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

class Stream {
 public:
  Stream() {
    // Non-blocking: the legacy default stream must not serialise us with other threads' work.
    RL_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "runner stream");
  }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { RL_CUDA_CHECK(cudaEventCreate(&e_), "timing event"); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace rl
