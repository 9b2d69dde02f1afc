// A user kernel compiled for a point's shape and loaded on the current device: what the CUDA
// backend launches. Compiled once per (source, block size, unroll, type, architecture) and
// loaded once per process (a library loaded with cudaLibraryLoadData serves every context).
#pragma once

#include <string>

#include "engine/experiment/spec.h"
#include "engine/user/user_kernel.h"
#include "kernels/launch.h"

namespace rl {

struct LoadedUserKernel {
  const void* kernel = nullptr;  // a cudaKernel_t, for cudaLaunchKernel
  UserKernelContract contract;
  double compile_ms = 0;          // 0 when it came from the cache
  void* timeline_sink = nullptr;  // timeline mode: the module's rl_timeline_sink (device address)
};

// The shape a point is compiled for on an sm_<cc> device.
UserCompileShape user_shape_of(const PointSpec& p, int cc_major, int cc_minor);

// Throws rl::Error naming the kernel and the compiler's first messages when it does not compile,
// and the CUDA error when it cannot be loaded. timeline: the kernel compiled in timeline mode
// (UserCompileShape::timeline), its entry kUserTimelineEntry.
LoadedUserKernel load_user_kernel(const PointSpec& p, int cc_major, int cc_minor,
                                  bool timeline = false);

// For a user kernel's point, compiles and loads it for `device` (the current device) and fills
// the launch's user fields; other points are left as they are. Throws as load_user_kernel.
void attach_user_kernel(kernels::LaunchArgs& a, const PointSpec& p, int device);

}  // namespace rl
