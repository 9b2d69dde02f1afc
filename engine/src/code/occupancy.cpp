#include "engine/code/occupancy.h"

#include <algorithm>
#include <array>

namespace rl::code {

namespace {

int round_up(int v, int unit) {
  return unit <= 0 ? v : (v + unit - 1) / unit * unit;
}

struct ArchRow {
  std::string_view arch;
  SmLimits limits;
};

// max_warps, max_blocks, registers, register_unit, shared_bytes (largest carve-out),
// shared_unit, shared_reserved.
constexpr std::array<ArchRow, 7> kArchs{{
    {"sm_75", {32, 16, 65536, 256, 64 * 1024, 256, 0}},
    {"sm_80", {64, 32, 65536, 256, 164 * 1024, 128, 1024}},
    {"sm_86", {48, 16, 65536, 256, 100 * 1024, 128, 1024}},
    {"sm_89", {48, 24, 65536, 256, 100 * 1024, 128, 1024}},
    {"sm_90", {64, 32, 65536, 256, 228 * 1024, 128, 1024}},
    {"sm_100", {64, 32, 65536, 256, 228 * 1024, 128, 1024}},
    {"sm_120", {48, 32, 65536, 256, 100 * 1024, 128, 1024}},
}};

}  // namespace

std::optional<SmLimits> sm_limits(std::string_view arch) {
  for (const ArchRow& row : kArchs)
    if (row.arch == arch) return row.limits;
  return std::nullopt;
}

Occupancy theoretical_occupancy(const SmLimits& sm, int registers, int shared_bytes,
                                int block_size) {
  Occupancy o;
  if (block_size <= 0 || sm.max_warps <= 0) return o;
  const int warps_per_block = (block_size + 31) / 32;
  struct Limit {
    int blocks;
    const char* name;
  };
  std::array<Limit, 4> limits{{{sm.max_warps / warps_per_block, "warps"},
                               {sm.max_blocks, "blocks"},
                               {sm.max_blocks, "registers"},
                               {sm.max_blocks, "shared memory"}}};
  if (registers > 0) {
    const int per_warp = round_up(registers * 32, sm.register_unit);
    limits[2].blocks = (sm.registers / per_warp) / warps_per_block;
  }
  const int shared = shared_bytes + sm.shared_reserved;
  if (shared > 0) limits[3].blocks = sm.shared_bytes / round_up(shared, sm.shared_unit);
  const Limit* least =
      &*std::min_element(limits.begin(), limits.end(),
                         [](const Limit& a, const Limit& b) { return a.blocks < b.blocks; });
  o.blocks_per_sm = std::max(0, least->blocks);
  o.warps_per_sm = o.blocks_per_sm * warps_per_block;
  o.fraction = static_cast<double>(o.warps_per_sm) / sm.max_warps;
  o.limiter = least->name;
  return o;
}

}  // namespace rl::code
