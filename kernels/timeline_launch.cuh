// Between the timed twins (timeline_ladder.cu) and their host side (timeline_record.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/launch.h"
#include "kernels/timeline.h"
#include "kernels/timeline_marks.cuh"

namespace rl::kernels::timeline {

struct TwinLaunch {
  LaunchArgs args;  // the real kernel's launch, input and partials set
  unsigned grid = 0;
  RlTimelineSink sink{};
  unsigned stage_offset = 0;  // bytes of dynamic shared memory before the marks' stage
  std::size_t smem_bytes = 0;
  // Set: launch nothing, write how many blocks of the twin one SM holds at once.
  int* occupancy = nullptr;
};

// The classic ladder's twins (timeline_ladder.cu) and those of the kernels past it that have one
// (timeline_modern.cu).
cudaError_t launch_ladder_twin(const TwinLaunch& l);
inline bool has_modern_twin(KernelId k) {
  return has_timeline_twin(k) && k > KernelId::CompleteUnrollSync;
}
cudaError_t launch_modern_twin(const TwinLaunch& l);
inline cudaError_t launch_twin(const TwinLaunch& l) {
  return has_modern_twin(l.args.kernel) ? launch_modern_twin(l) : launch_ladder_twin(l);
}
cudaError_t launch_spin_barrier(int block_size, unsigned spin_warp, unsigned long long spin_cycles,
                                const RlTimelineSink& sink);

}  // namespace rl::kernels::timeline
