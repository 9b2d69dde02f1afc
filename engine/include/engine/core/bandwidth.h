// Bandwidth from bytes and a time: the one rule every number in GB/s comes from (points, read
// floors, copies, peer links, multi-GPU totals). It needs nothing of a session, so the value
// types include it.
#pragma once

#include <cstdint>

namespace rl {

// bytes / time, GB/s (1e9 bytes/s); 0 for a time <= 0.
inline double gbps_of(std::uint64_t bytes, double ms) {
  return ms > 0 ? double(bytes) / (ms * 1e-3) / 1e9 : 0;
}

}  // namespace rl
