// rl_fault_worker: reductionlab-worker whose CUDA backend launches a kernel that faults
// (fault_kernel.h: cudaErrorIllegalAddress) in place of the first kernel of one point, for the
// GPU-fault test (fault_gpu_test.cpp). The point: kFaultVariant at kFaultSize (fault_points.h).
#include <utility>

#include "engine/process/worker.h"
#include "fault_kernel.h"
#include "fault_points.h"

int main(int argc, char** argv) {
  return rl::worker_main(argc, argv, [](int device) {
    rl::LaunchOverride fault;
    fault.applies = rl::testing::is_fault_point;
    fault.launch = [](void* stream) {
      return int(rl::testing::launch_illegal_address_kernel(static_cast<cudaStream_t>(stream)));
    };
    return rl::make_cuda_backend(device, std::move(fault));
  });
}
