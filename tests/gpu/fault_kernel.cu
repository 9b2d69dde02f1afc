#include <cstdint>

#include "fault_kernel.h"

namespace rl::testing {

namespace {
__global__ void write_through_bad_pointer(int* p) {
  p[threadIdx.x] = 1;
}
}  // namespace

cudaError_t launch_illegal_address_kernel(cudaStream_t s) {
  // Page zero plus a little: never mapped on the device.
  int* bad = reinterpret_cast<int*>(std::uintptr_t{0x100});
  write_through_bad_pointer<<<1, 32, 0, s>>>(bad);
  return cudaGetLastError();
}

}  // namespace rl::testing
