// A kernel that faults on purpose, for the GPU-fault test (fault_gpu_test.cpp): it writes
// through a pointer no allocation owns, so the launch ends in cudaErrorIllegalAddress, a sticky
// error that leaves the context unusable until cudaDeviceReset().
#pragma once

#include <cuda_runtime_api.h>

namespace rl::testing {

// Launches the faulting kernel on s; returns the launch's own error (the fault comes later, at
// the next synchronisation).
cudaError_t launch_illegal_address_kernel(cudaStream_t s);

}  // namespace rl::testing
