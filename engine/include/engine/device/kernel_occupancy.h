// What the CUDA runtime says of each kernel a point launches, on the GPU that ran it: its
// resources (cudaFuncGetAttributes) and how many of its blocks an SM can hold at the launched
// block size (cudaOccupancyMaxActiveBlocksPerMultiprocessor). A plain value on PointResult
// (results.h), saved in sessions; the Code view shows it beside the occupancy it computes from
// the build's recorded resources (engine/code/occupancy.h), which is all it has without a GPU.
#pragma once

#include <cstddef>
#include <string>

namespace rl {

struct KernelOccupancy {
  std::string role;                // "first_kernel", "finish" or "whole" (then "whole_2", ...)
  std::string function;            // the kernel's name as the runtime gives it (cudaFuncGetName)
  unsigned grid = 0;               // blocks launched
  int block = 0;                   // threads per block
  std::size_t dynamic_shared = 0;  // bytes per block, as launched
  int registers = 0;               // per thread
  std::size_t static_shared = 0;   // bytes per block
  std::size_t local_bytes = 0;     // per thread (spills and local arrays)
  int blocks_per_sm = 0;           // resident blocks an SM can hold (the occupancy API)
  int max_warps_per_sm = 0;        // of the device
  int warps_per_sm() const { return blocks_per_sm * ((block + 31) / 32); }
  double fraction() const {
    return max_warps_per_sm > 0 ? double(warps_per_sm()) / max_warps_per_sm : 0;
  }
  bool operator==(const KernelOccupancy&) const = default;
};

}  // namespace rl
