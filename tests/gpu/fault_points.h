// Where the GPU-fault test (fault_gpu_test.cpp, fault_worker.cpp) faults: one variant at one size
// of a small ladder.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/experiment/spec.h"

namespace rl::testing {

inline constexpr std::uint64_t kFaultSize = (1u << 16) + 1;
inline constexpr std::uint64_t kLaterSize = (1u << 18) + 3;
inline constexpr const char* kFaultVariant = "reduceInterleaved";

inline bool is_fault_point(const PointSpec& p) {
  return p.label().rfind(std::string(kFaultVariant) + "/", 0) == 0 && p.size == kFaultSize;
}

inline ExperimentSpec fault_spec(std::vector<std::uint64_t> sizes) {
  ExperimentSpec s;
  s.variants = {"reduceNeighbored", kFaultVariant};
  s.workspaces = {Workspace::Global};
  s.block_sizes = {256};
  s.sizes = std::move(sizes);
  s.timing.budget_ms = 10;
  return s;
}

}  // namespace rl::testing
