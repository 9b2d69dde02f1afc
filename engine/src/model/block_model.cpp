// model_reduce for the classic ladder: every block's partial with the GPU's per-block algorithm
// (the shared plan in block_model_ladder.h), then the finishing pass of kernels/finish.cu.
#include "engine/model/block_model.h"

#include "kernels/launch.h"

#include <array>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/model/block_model_ladder.h"

namespace rl {

namespace {

const VariantInfo& variant_of(const PointSpec& p) {
  const VariantInfo* v = find_variant_by_id(p.variant);
  if (v == nullptr) throw Error("unknown variant '" + p.variant + "' [" + p.label() + "]");
  return *v;
}

void check_input(const PointSpec& p, const InputData& input) {
  if (input.type != p.type)
    throw Error("host model: input is " + std::string(to_string(input.type)) + ", point is " +
                std::string(to_string(p.type)) + " [" + p.label() + "]");
  if (input.size() != p.size)
    throw Error("host model: input has " + std::to_string(input.size()) + " elements, point has " +
                std::to_string(p.size) + " [" + p.label() + "]");
  if (p.size == 0) throw Error("host model: size 0: N must be at least 1 [" + p.label() + "]");
}

// Runs every block of the launch; the block arithmetic is in T (int32 wraps as on the GPU),
// each partial is widened to the partial type P as write_partial() does.
template <typename T, typename P>
std::vector<P> first_pass(const ladder::BlockPlan& plan, const T* x, std::uint64_t n) {
  const std::uint64_t grid = ladder::grid_for(plan, n);
  std::vector<P> partials(grid);
  std::array<T, 1024> ws{};
  for (std::uint64_t b = 0; b < grid; ++b) {
    ladder::load_block(x, n, b, plan, ws.data());
    for (const ladder::Step& s : plan.steps) ladder::apply_step(s, ws.data());
    partials[b] = static_cast<P>(ws[0]);
  }
  return partials;
}

// kernels/finish.cu: thread tid accumulates partials tid, tid + 1024, ... in order, then an
// interleaved tree over the 1024 accumulators.
template <typename P>
P finish_pass(const std::vector<P>& partials) {
  constexpr unsigned kBlock = kernels::kFinishBlockSize;
  std::array<P, kBlock> s{};
  const std::size_t m = partials.size();
  for (std::size_t base = 0; base < m; base += kBlock) {
    const std::size_t count = std::min<std::size_t>(kBlock, m - base);
    for (std::size_t t = 0; t < count; ++t) s[t] += partials[base + t];
  }
  for (unsigned stride = kBlock / 2; stride > 0; stride >>= 1)
    for (unsigned t = 0; t < stride; ++t) s[t] += s[t + stride];
  return s[0];
}

}  // namespace

std::optional<ReductionOutput> model_first_pass(const PointSpec& p, const InputData& input) {
  const VariantInfo& v = variant_of(p);
  if (v.family != VariantFamily::SeedLadder) return std::nullopt;
  check_input(p, input);
  ladder::BlockPlan plan;
  try {
    plan = ladder::make_plan(v, p.workspace, p.block_size, p.unroll);
  } catch (const Error& e) {
    throw Error(std::string("host model: ") + e.what() + " [" + p.label() + "]");
  }
  ReductionOutput out;
  out.type = p.type;
  if (p.type == DType::Int32) {
    out.partials_i64 = first_pass<std::int32_t, std::int64_t>(plan, input.i32.data(), p.size);
  } else {
    out.partials_f32 = first_pass<float, float>(plan, input.f32.data(), p.size);
  }
  return out;
}

void model_finish(ReductionOutput& out) {
  if (out.type == DType::Int32) {
    out.total_i64 = finish_pass(out.partials_i64);
  } else {
    out.total_f32 = finish_pass(out.partials_f32);
  }
}

std::optional<ReductionOutput> model_reduce(const PointSpec& p, const InputData& input) {
  const VariantInfo& v = variant_of(p);
  if (is_lab(v.family)) return model_reduce_labs(p, input);
  if (v.is_segmented()) return model_reduce_segmented(p, input);
  if (v.family != VariantFamily::SeedLadder) return model_reduce_modern(p, input);
  std::optional<ReductionOutput> out = model_first_pass(p, input);
  model_finish(*out);
  return out;
}

}  // namespace rl
