// The CUDA backend's occupancy query (run/kernel_occupancy.h): which kernels a launch step starts
// and how many of their blocks fit on an SM, asked of the runtime without running them.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/run/kernel_occupancy.h"

namespace rl {

// Records what launch(stream) enqueues on `stream` into a graph (stream capture: nothing runs),
// then asks the runtime about each kernel node: one KernelOccupancy per kernel, in launch order,
// named `role`, role_2, ... Throws rl::CudaError naming the call and `context`.
// loaded: the handle of a kernel loaded at run time (a user kernel's cudaKernel_t), asked about
// in place of a node whose function the runtime does not describe (a graph node of such a
// kernel holds the context's own function, which cudaFuncGetAttributes refuses).
std::vector<KernelOccupancy> captured_occupancy(
    const std::function<cudaError_t(cudaStream_t)>& launch, cudaStream_t stream, int device,
    const std::string& role, const std::string& context, const void* loaded = nullptr);

}  // namespace rl
