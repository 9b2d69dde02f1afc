// Between the timed twins (timeline_ladder.cu) and their host side (timeline_record.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/launch.h"
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

cudaError_t launch_twin(const TwinLaunch& l);
cudaError_t launch_spin_barrier(int block_size, unsigned spin_warp, unsigned long long spin_cycles,
                                const RlTimelineSink& sink);

}  // namespace rl::kernels::timeline
