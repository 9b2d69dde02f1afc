// Host models of the lab kernels (kernels/lab_*.cu): every block's partial from the same
// per-element functions (kernels/lab.h) over the same partition into blocks. All int32, so the
// order of additions does not matter: partials and total equal the GPU's exactly.
// The costly paths depend on the element's value alone, so they are tabled for the input's
// 256 values; a value outside [0, 255] (not produced by make_input) is computed directly.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "kernels/lab.h"

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {

namespace {
namespace lab = kernels::lab;

struct CostlyTable {
  std::array<int, 256> a{}, b{};
  CostlyTable() {
    for (int x = 0; x < 256; ++x) {
      a[x] = lab::costly_a(x);
      b[x] = lab::costly_b(x);
    }
  }
};

// lab::branch_value with the costly paths read from the table.
int branch_value_fast(KernelId k, int x, unsigned tid, int knob) {
  static const CostlyTable table;
  if (x < 0 || x > 255) return lab::branch_value(k, x, tid, knob);
  switch (k) {
    case KernelId::IfElseCheap:
    case KernelId::SelectCheap:
    case KernelId::AbsBranch:
    case KernelId::AbsBitTrick:
      return lab::branch_value(k, x, tid, knob);
    case KernelId::LoopInvariantInside:
    case KernelId::LoopInvariantHoisted:
      return lab::kLoopMode != 0 ? table.a[x] : table.b[x];
    default:
      return lab::branch_takes_b(k, x, tid, knob) ? table.b[x] : table.a[x];
  }
}

std::vector<std::int64_t> branch_partials(const PointSpec& p, const std::int32_t* x) {
  const KernelId k = find_variant_by_id(p.variant)->kernel;
  const std::uint64_t block = p.block_size;
  std::vector<std::int64_t> partials((p.size + block - 1) / block);
  for (std::uint64_t b = 0; b < partials.size(); ++b) {
    std::int64_t sum = 0;
    const std::uint64_t end = std::min(p.size, (b + 1) * block);
    for (std::uint64_t i = b * block; i < end; ++i)
      sum += branch_value_fast(k, x[i], static_cast<unsigned>(i - b * block), p.unroll);
    partials[b] = sum;
  }
  return partials;
}

// The predicate and unroll labs: a block owns `tile` consecutive elements; its partial is
// fold(its elements).
template <typename Fold>
std::vector<std::int64_t> tiled_partials(const PointSpec& p, const std::int32_t* x,
                                         std::uint64_t tile, Fold fold) {
  std::vector<std::int64_t> partials((p.size + tile - 1) / tile);
  for (std::uint64_t b = 0; b < partials.size(); ++b)
    partials[b] = fold(x + b * tile, std::min(p.size, (b + 1) * tile) - b * tile);
  return partials;
}

std::vector<std::int64_t> lab_partials(const PointSpec& p, const InputData& input) {
  const KernelId k = find_variant_by_id(p.variant)->kernel;
  const std::int32_t* x = input.i32.data();
  const std::uint64_t block = p.block_size;
  const auto count = [](const std::int32_t* e, std::uint64_t m) {
    return std::int64_t(std::count_if(e, e + m, [](std::int32_t v) { return lab::counted(v); }));
  };
  const auto any = [](const std::int32_t* e, std::uint64_t m) {
    return std::int64_t(std::any_of(e, e + m, [](std::int32_t v) { return lab::searched(v); }));
  };
  const auto sum = [](const std::int32_t* e, std::uint64_t m) {
    std::int64_t s = 0;
    for (std::uint64_t i = 0; i < m; ++i) s += e[i];
    return s;
  };
  switch (k) {
    case KernelId::BranchPartitioned:
      return branch_partials(p, cub_partitioned(input.i32, p.unroll).data());
    case KernelId::CountSyncthreadsCount:
    case KernelId::CountSharedTree:
    case KernelId::CountBallot:
      return tiled_partials(p, x, block * p.unroll, count);
    case KernelId::AnyEarlyExit:
    case KernelId::AnyFullScan:
      return tiled_partials(p, x, block * p.unroll, any);
    case KernelId::UnrollPragma:
      return tiled_partials(p, x, block * lab::kUnrollTrip, sum);
    case KernelId::TreeLoopRolled:
    case KernelId::TreeLoopUnrolled:
      return tiled_partials(p, x, block, sum);
    default:
      return branch_partials(p, x);
  }
}

}  // namespace

std::vector<std::int32_t> cub_partitioned(const std::vector<std::int32_t>& x, int k) {
  std::vector<std::int32_t> out(x.size());
  std::size_t front = 0, back = x.size();
  for (std::int32_t v : x) {
    if (lab::takes_path_b(v, k))
      out[front++] = v;
    else
      out[--back] = v;
  }
  return out;
}

std::optional<ReductionOutput> model_reduce_labs(const PointSpec& p, const InputData& input) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  if (v == nullptr || !kernels::is_lab_kernel(v->kernel)) return std::nullopt;
  if (p.type != DType::Int32 || input.type != DType::Int32)
    throw Error("host model: the labs take int32 only [" + p.label() + "]");
  if (input.size() != p.size)
    throw Error("host model: the input does not match the point [" + p.label() + "]");
  if (!v->takes_block_size(p.block_size) || !v->takes_unroll(p.unroll))
    throw Error("host model: " + v->id + " does not take B=" + std::to_string(p.block_size) +
                " U=" + std::to_string(p.unroll) + " [" + p.label() + "]");
  ReductionOutput out;
  out.type = DType::Int32;
  out.partials_i64 = lab_partials(p, input);
  model_finish(out);
  return out;
}

}  // namespace rl
