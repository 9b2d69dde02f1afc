#include "device/cuda_occupancy.h"

#include <memory>

#include "core/cuda_raii.h"

namespace rl {

namespace {

struct GraphDeleter {
  void operator()(cudaGraph_t g) const { cudaGraphDestroy(g); }
};
using GraphOwner = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, GraphDeleter>;

// Capture mode "relaxed": a launcher may ask the runtime things while being captured (CUB asks
// for device attributes and its temporary storage size).
GraphOwner capture(const std::function<cudaError_t(cudaStream_t)>& launch, cudaStream_t stream,
                   const std::string& context) {
  RL_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), context);
  const cudaError_t launched = launch(stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);  // always ends the capture
  GraphOwner owner(graph);
  RL_CUDA_CHECK(launched, context);
  RL_CUDA_CHECK(ended, context);
  return owner;
}

// Kernel nodes in launch order. One stream's capture is a chain: from its root, each node's one
// dependent is the next thing enqueued.
std::vector<cudaGraphNode_t> kernel_nodes(cudaGraph_t graph, const std::string& context) {
  std::size_t count = 0;
  RL_CUDA_CHECK(cudaGraphGetRootNodes(graph, nullptr, &count), context);
  std::vector<cudaGraphNode_t> next(count);
  if (count > 0) RL_CUDA_CHECK(cudaGraphGetRootNodes(graph, next.data(), &count), context);
  if (count > 1) throw Error("occupancy: the captured launch is not one chain [" + context + "]");
  std::vector<cudaGraphNode_t> kernels;
  while (!next.empty()) {
    const cudaGraphNode_t n = next.front();
    cudaGraphNodeType type;
    RL_CUDA_CHECK(cudaGraphNodeGetType(n, &type), context);
    if (type == cudaGraphNodeTypeKernel) kernels.push_back(n);
    count = 0;
    RL_CUDA_CHECK(cudaGraphNodeGetDependentNodes(n, nullptr, nullptr, &count), context);
    if (count > 1) throw Error("occupancy: the captured launch is not one chain [" + context + "]");
    next.assign(count, nullptr);
    if (count > 0)
      RL_CUDA_CHECK(cudaGraphNodeGetDependentNodes(n, next.data(), nullptr, &count), context);
  }
  return kernels;
}

}  // namespace

namespace {

int max_warps_per_sm(int device, const std::string& ctx) {
  int max_threads = 0;
  RL_CUDA_CHECK(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device), ctx);
  return max_threads / 32;
}

// What the runtime says of one kernel function launched with this grid, block and dynamic
// shared memory.
KernelOccupancy describe(const void* function, unsigned grid, int block, std::size_t dynamic_shared,
                         int max_warps, const std::string& role, const std::string& ctx) {
  KernelOccupancy k;
  k.role = role;
  const char* name = nullptr;
  if (cudaFuncGetName(&name, function) == cudaSuccess && name) k.function = name;
  cudaGetLastError();  // a kernel without a name is still measured
  k.grid = grid;
  k.block = block;
  k.dynamic_shared = dynamic_shared;
  cudaFuncAttributes attr{};
  RL_CUDA_CHECK(cudaFuncGetAttributes(&attr, function), ctx);
  k.registers = attr.numRegs;
  k.static_shared = attr.sharedSizeBytes;
  k.local_bytes = attr.localSizeBytes;
  RL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&k.blocks_per_sm, function, block,
                                                              dynamic_shared),
                ctx);
  k.max_warps_per_sm = max_warps;
  return k;
}

}  // namespace

std::vector<KernelOccupancy> captured_occupancy(
    const std::function<cudaError_t(cudaStream_t)>& launch, cudaStream_t stream, int device,
    const std::string& role, const std::string& context) {
  const std::string ctx = "occupancy of " + role + ", " + context;
  const int max_warps = max_warps_per_sm(device, ctx);
  const GraphOwner graph = capture(launch, stream, ctx);
  std::vector<KernelOccupancy> out;
  for (cudaGraphNode_t node : kernel_nodes(graph.get(), ctx)) {
    cudaKernelNodeParams p{};
    RL_CUDA_CHECK(cudaGraphKernelNodeGetParams(node, &p), ctx);
    out.push_back(describe(p.func, p.gridDim.x * p.gridDim.y * p.gridDim.z,
                           int(p.blockDim.x * p.blockDim.y * p.blockDim.z), p.sharedMemBytes,
                           max_warps,
                           out.empty() ? role : role + "_" + std::to_string(out.size() + 1), ctx));
  }
  return out;
}

KernelOccupancy function_occupancy(const void* function, unsigned grid, int block, int device,
                                   const std::string& role, const std::string& context) {
  const std::string ctx = "occupancy of " + role + ", " + context;
  return describe(function, grid, block, 0, max_warps_per_sm(device, ctx), role, ctx);
}

}  // namespace rl
