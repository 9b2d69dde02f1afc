// Host models of the kernels past the classic ladder whose order of additions depends on (N, block
// size, unroll) alone: warp_shuffle, reduce_add_sync and cg_reduce (kernels/modern_warp.cu). They
// replay each block's additions in the GPU's order, so partials and total match the GPU bit for
// bit, float32 included. The grid-stride kernels (their grid comes from the occupancy API) and
// CUB (its internal order) have no model: nullopt.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {

namespace {

constexpr unsigned kWarp = 32;

bool has_modern_model(KernelId k) {
  return k == KernelId::WarpShuffle || k == KernelId::ReduceAddSync || k == KernelId::CgReduce;
}

// int32 adds wrap as the GPU's 32-bit adds do (no overflow for the input contract anyway).
inline std::int32_t add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline float add(float a, float b) {
  return a + b;
}

// kernels/common.cuh load_pre_reduced: thread t of block b sums x[base + t + k*B] for k < U
// left to right, elements at or past n read as 0 (adding +0 changes no bits of these sums).
template <typename T>
T pre_reduced(const T* x, std::uint64_t n, std::uint64_t b, unsigned t, unsigned block,
              unsigned unroll) {
  const std::uint64_t idx = b * unroll * block + t;
  T sum = idx < n ? x[idx] : T(0);
  for (unsigned k = 1; k < unroll; ++k) {
    const std::uint64_t i = idx + std::uint64_t(k) * block;
    sum = add(sum, i < n ? x[i] : T(0));
  }
  return sum;
}

// kernels/modern_common.cuh warp_sum_shfl, lane 0's value: at offset o (16, 8, 4, 2, 1) lane i
// adds lane i + o. Lanes i < o only read lanes that are still in range, and lane 0 depends on no
// other. cg::reduce's xor butterfly (masks 16..1) adds the same pairs in the same operand order
// for lane 0, and REDUX (int32) is exact, so this models all three kernels.
template <typename T>
T warp_tree(std::array<T, kWarp> lanes) {
  for (unsigned offset = kWarp / 2; offset > 0; offset >>= 1)
    for (unsigned i = 0; i < offset; ++i) lanes[i] = add(lanes[i], lanes[i + offset]);
  return lanes[0];
}

// kernels/modern_common.cuh block_sum_shfl: warp trees, then warp 0 reduces the warp sums
// padded with zeros to 32 lanes; a single warp skips the second level.
template <typename T>
T block_sum(const T* x, std::uint64_t n, std::uint64_t b, unsigned block, unsigned unroll) {
  const unsigned nwarps = block / kWarp;
  std::array<T, kWarp> sums{};
  for (unsigned w = 0; w < nwarps; ++w) {
    std::array<T, kWarp> lanes{};
    for (unsigned lane = 0; lane < kWarp; ++lane)
      lanes[lane] = pre_reduced(x, n, b, w * kWarp + lane, block, unroll);
    sums[w] = warp_tree(lanes);
  }
  return nwarps == 1 ? sums[0] : warp_tree(sums);
}

template <typename T, typename P>
std::vector<P> first_pass(const T* x, std::uint64_t n, unsigned block, unsigned unroll) {
  const std::uint64_t tile = std::uint64_t(block) * unroll;
  std::vector<P> partials((n + tile - 1) / tile);
  for (std::uint64_t b = 0; b < partials.size(); ++b)
    partials[b] = static_cast<P>(block_sum(x, n, b, block, unroll));
  return partials;
}

std::string join(const std::vector<int>& values) {
  std::string s;
  for (int v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

void check_point(const VariantInfo& v, const PointSpec& p, const InputData& input) {
  const std::string where = " [" + p.label() + "]";
  if (p.size == 0) throw Error("host model: size 0: N must be at least 1" + where);
  if (input.type != p.type || input.size() != p.size)
    throw Error("host model: the input (" + std::to_string(input.size()) + " " +
                std::string(to_string(input.type)) + ") does not match the point" + where);
  if (!v.takes_block_size(p.block_size))
    throw Error("host model: block size " + std::to_string(p.block_size) + ": " + v.id + " takes " +
                join(v.block_sizes) + where);
  if (!v.takes_unroll(p.unroll))
    throw Error("host model: unroll " + std::to_string(p.unroll) + ": " + v.id + " takes " +
                join(v.unroll_factors) + where);
  bool type_ok = false;
  for (DType t : v.types) type_ok = type_ok || t == p.type;
  if (!type_ok)
    throw Error("host model: " + v.id + " does not take " + std::string(to_string(p.type)) + where);
}

}  // namespace

std::optional<ReductionOutput> model_reduce_modern(const PointSpec& p, const InputData& input) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  if (v == nullptr || !has_modern_model(v->kernel)) return std::nullopt;
  check_point(*v, p, input);
  const auto block = static_cast<unsigned>(p.block_size);
  const auto unroll = static_cast<unsigned>(p.unroll);
  ReductionOutput out;
  out.type = p.type;
  if (p.type == DType::Int32) {
    out.partials_i64 =
        first_pass<std::int32_t, std::int64_t>(input.i32.data(), p.size, block, unroll);
  } else {
    out.partials_f32 = first_pass<float, float>(input.f32.data(), p.size, block, unroll);
  }
  model_finish(out);  // kernels/finish.cu, shared with the classic ladder's model
  return out;
}

}  // namespace rl
