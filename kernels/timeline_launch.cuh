// Between the timed twins (timeline_ladder.cu) and their host side (timeline_record.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/launch.h"
#include "kernels/timeline_marks.cuh"

namespace rl::kernels::timeline {

struct TwinLaunch {
  KernelId kernel = KernelId::Interleaved;
  DType type = DType::Int32;
  Workspace workspace = Workspace::Global;
  int block_size = 1024;
  int unroll = 1;
  std::size_t n = 0;
  unsigned grid = 0;
  void* input = nullptr;
  void* partials = nullptr;
  RlTimelineSink sink{};
  unsigned stage_offset = 0;  // bytes of dynamic shared memory before the marks' stage
  std::size_t smem_bytes = 0;
  cudaStream_t stream = nullptr;
  // Set: launch nothing, write how many blocks of the twin one SM holds at once.
  int* occupancy = nullptr;
};

cudaError_t launch_twin(const TwinLaunch& l);
cudaError_t launch_spin_barrier(int block_size, unsigned spin_warp, unsigned long long spin_cycles,
                                const RlTimelineSink& sink);

}  // namespace rl::kernels::timeline
