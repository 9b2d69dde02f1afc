// Host models of the kernels past the classic ladder whose order of additions depends on (N, block
// size, unroll) alone: warp_shuffle, reduce_add_sync and cg_reduce (kernels/modern_warp.cu). They
// replay each block's additions in the GPU's order, so partials and total match the GPU bit for
// bit, float32 included. The grid-stride kernels (their grid comes from the occupancy API) and
// CUB (its internal order) have no model: nullopt.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"
#include "model/warp_tree.h"

namespace rl {

namespace {

using model::block_tree;
using model::wrap_add;

bool has_modern_model(KernelId k) {
  return k == KernelId::WarpShuffle || k == KernelId::ReduceAddSync || k == KernelId::CgReduce;
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
    sum = wrap_add(sum, i < n ? x[i] : T(0));
  }
  return sum;
}

// kernels/modern_common.cuh block_sum_shfl over the pre-reduced values. REDUX (int32) is exact
// and cg::reduce adds the shuffle tree's pairs, so this models all three kernels.
template <typename T>
T block_sum(const T* x, std::uint64_t n, std::uint64_t b, unsigned block, unsigned unroll) {
  return block_tree<T>(block, [&](unsigned t) { return pre_reduced(x, n, b, t, block, unroll); });
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
