// Theoretical occupancy from recorded resource usage, the CUDA occupancy calculator's formula,
// for when there is no GPU to ask (the views never call CUDA). Per-architecture limits are the
// CUDA C++ Programming Guide's table of compute capabilities.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rl::code {

struct SmLimits {
  int max_warps = 0;        // resident warps per SM
  int max_blocks = 0;       // resident blocks per SM
  int registers = 65536;    // 32-bit registers per SM
  int register_unit = 256;  // registers are allocated per warp in units of this many
  int shared_bytes = 0;     // shared memory per SM at the largest carve-out
  int shared_unit = 128;    // shared memory allocation granularity
  int shared_reserved = 0;  // bytes the system reserves per block (sm_80 and later: 1 KB)
};

// "sm_90" -> its limits; nullopt for an architecture the table does not know.
std::optional<SmLimits> sm_limits(std::string_view arch);

struct Occupancy {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double fraction = 0;  // warps_per_sm / max_warps
  std::string limiter;  // "warps", "blocks", "registers" or "shared memory"
};

// registers per thread, static + dynamic shared bytes per block, threads per block.
Occupancy theoretical_occupancy(const SmLimits& sm, int registers, int shared_bytes,
                                int block_size);

}  // namespace rl::code
