// Internal to the block models: the order in which a warp and a block add their threads' values
// on the GPU (kernels/modern_common.cuh warp_sum_shfl and block_sum_shfl), which the models of
// the kernels past the classic ladder and of the rows kernels replay, so that their float sums
// match the GPU's bit for bit.
#pragma once

#include <array>
#include <cstdint>

namespace rl::model {

inline constexpr unsigned kWarp = 32;

// Adds as the GPU's adds do: int32 and int64 wrap (no overflow for the input contract anyway).
inline std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline std::int64_t wrap_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
inline float wrap_add(float a, float b) {
  return a + b;
}

// warp_sum_shfl, lane 0's value: at offset o (16, 8, 4, 2, 1) lane i adds lane i + o. Lanes
// i < o only read lanes that are still in range, and lane 0 depends on no other. cg::reduce's
// xor butterfly (masks 16..1) adds the same pairs in the same operand order for lane 0.
template <typename T>
T warp_tree(std::array<T, kWarp> lanes) {
  for (unsigned offset = kWarp / 2; offset > 0; offset >>= 1)
    for (unsigned i = 0; i < offset; ++i) lanes[i] = wrap_add(lanes[i], lanes[i + offset]);
  return lanes[0];
}

// block_sum_shfl over `block` threads whose values thread_value(t) gives: a tree per warp, then
// warp 0 adds the warp sums padded with zeros to 32 lanes; a single warp skips the second level.
template <typename T, typename F>
T block_tree(unsigned block, F&& thread_value) {
  const unsigned warps = block / kWarp;
  std::array<T, kWarp> sums{};
  for (unsigned w = 0; w < warps; ++w) {
    std::array<T, kWarp> lanes{};
    for (unsigned lane = 0; lane < kWarp; ++lane) lanes[lane] = thread_value(w * kWarp + lane);
    sums[w] = warp_tree(lanes);
  }
  return warps == 1 ? sums[0] : warp_tree(sums);
}

}  // namespace rl::model
