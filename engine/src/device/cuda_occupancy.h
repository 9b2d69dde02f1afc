// The CUDA backend's occupancy query (device/kernel_occupancy.h): which kernels a launch step
// starts and how many of their blocks fit on an SM, asked of the runtime without running them.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/device/kernel_occupancy.h"

namespace rl {

// Records what launch(stream) enqueues on `stream` into a graph (stream capture: nothing runs),
// then asks the runtime about each kernel node: one KernelOccupancy per kernel, in launch order,
// named `role`, role_2, ... Throws rl::CudaError naming the call and `context`.
std::vector<KernelOccupancy> captured_occupancy(
    const std::function<cudaError_t(cudaStream_t)>& launch, cudaStream_t stream, int device,
    const std::string& role, const std::string& context);

// One kernel asked about directly, with the grid and block of its launch: a kernel loaded at run
// time (a user kernel's cudaKernel_t), whose stream capture the runtime does not describe.
KernelOccupancy function_occupancy(const void* function, unsigned grid, int block, int device,
                                   const std::string& role, const std::string& context);

}  // namespace rl
