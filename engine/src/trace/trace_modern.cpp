// Traces of the warp-level kernels past the classic ladder (kernels/modern_warp.cu,
// modern_common.cuh): the block works in registers, so the trace's values are each thread's
// register.
//   load        v = load_pre_reduced(U)                        (common.cuh, no barrier)
//   level 1     every warp reduces its 32 registers:
//                 warp_shuffle: v += __shfl_down_sync(v, o), o = 16..1 (lanes past 31 get
//                               their own value back, so they add v to itself)
//                 cg_reduce:    v += shfl_xor(v, o), o = 16..1 (the butterfly cg::reduce runs
//                               where it does not use REDUX; every lane ends with the sum)
//                 reduce_add_sync: one REDUX instruction, every lane gets the warp sum
//   warp_sums   lane 0 of each warp stores its sum in shared memory; __syncthreads()
//   gather      warp 0 lane l loads warp_sums[l] (0 for l >= warps)
//   level 2     warp 0 reduces those 32 values the same way
//   partial     thread 0 writes v
// Lane 0's additions are the ones engine/block_model_modern.cpp models; the tests check that
// the traced partial equals its partial bit for bit.
#include <algorithm>

#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/model/block_model_ladder.h"
#include "trace/trace_internal.h"
#include "trace/trace_warp_builder.h"

namespace rl {

namespace {

using warp_trace::Builder;
using warp_trace::kFull;
using warp_trace::num;
using warp_trace::op_of;
using warp_trace::WarpOp;

template <typename T>
void build(Trace& t, WarpOp op, const InputData& input) {
  const T* x;
  if constexpr (std::is_same_v<T, float>)
    x = input.f32.data();
  else
    x = input.i32.data();
  const unsigned B = t.block_size, W = t.warps();
  Builder<T> b(t, op);
  ladder::BlockPlan shape;  // only the tile shape is used by load_block
  shape.block_size = B;
  shape.unroll = static_cast<unsigned>(t.unroll);
  const std::uint64_t base = std::uint64_t(t.block_index) * shape.tile();
  t.initial_values.assign(B, 0.0);
  for (unsigned i = 0; i < B; ++i)
    if (base + i < t.size) t.initial_values[i] = double(x[base + i]);

  ladder::load_block(x, t.size, t.block_index, shape, b.regs().data());
  TraceStep& load = b.push(
      "load", t.unroll == 1 ? "load: every thread reads its element x[base + tid] into a register."
                            : "pre-reduce: every thread adds its " + num(t.unroll) +
                                  " elements x[base + tid + k*" + num(B) +
                                  "] into a register (no shared memory, no barrier).");
  load.masks.assign(W, kFull);
  b.snapshot(load);

  warp_trace::block_reduce_steps(b, W);
  TraceStep& partial = b.push("write_partial", "");
  partial.masks[0] = 1u;
  partial.counters.loads = 0;
  partial.counters.stores = 1;
  b.snapshot(partial);
  t.partial = double(b.regs()[0]);
  partial.caption = "thread 0 writes its register (" +
                    (t.type == DType::Int32 ? num(static_cast<std::int64_t>(t.partial))
                                            : std::to_string(t.partial)) +
                    ") to partials[" + num(t.block_index) + "]: the block's partial sum.";
}

std::uint64_t reads_of_block(const Trace& t, std::uint64_t b) {
  const std::uint64_t tile = std::uint64_t(t.block_size) * t.unroll, base = b * tile;
  if (base >= t.size) return 0;
  return std::min(tile, t.size - base);
}

}  // namespace

bool has_warp_family_trace(KernelId k) {
  return k == KernelId::WarpShuffle || k == KernelId::ReduceAddSync || k == KernelId::CgReduce;
}

void check_register_trace(const TraceRequest& r, const VariantInfo& v, int unroll,
                          const std::string& name) {
  if (!is_block_size(r.block_size))
    throw Error("block size " + std::to_string(r.block_size) + ": " + kBlockSizeRule);
  if (!v.takes_block_size(r.block_size))
    throw Error("block size " + std::to_string(r.block_size) + ": " + name + " does not take it");
  if (!v.takes_unroll(unroll)) {
    std::string list;
    for (int u : v.unroll_factors) list += (list.empty() ? "" : ", ") + std::to_string(u);
    throw Error("unroll " + std::to_string(unroll) + ": " + name + " takes " + list);
  }
  if (!v.takes_workspace(r.workspace))
    throw Error("workspace " + std::string(to_string(r.workspace)) + ": " + name +
                " works in registers");
}

Trace make_warp_family_trace(const TraceRequest& r, const VariantInfo& v, int unroll) {
  if (!has_warp_family_trace(v.kernel)) throw Error("no step-by-step trace for " + v.id);
  const std::string name = v.seed_label(unroll);
  check_register_trace(r, v, unroll, name);
  if (std::find(v.types.begin(), v.types.end(), r.type) == v.types.end())
    throw Error("type " + std::string(to_string(r.type)) + ": " + name + " takes int32 only");

  Trace t = trace_shell(r, v, unroll);
  const std::uint64_t tile = std::uint64_t(r.block_size) * unroll;
  t.size = r.size == 0 ? tile : r.size;
  t.grid = (t.size + tile - 1) / tile;
  check_block_index(t);
  const InputData input = trace_input(std::min<std::uint64_t>(t.size, (r.block_index + 1) * tile),
                                      r.type, r.block_index, tile);
  if (r.type == DType::Int32)
    build<std::int32_t>(t, op_of(v.kernel), input);
  else
    build<float>(t, op_of(v.kernel), input);

  const std::uint64_t traced_reads = reads_of_block(t, t.block_index);
  total_block_steps(t, traced_reads);
  fill_launch_totals(t, reads_of_block(t, 0), reads_of_block(t, t.grid - 1), traced_reads);
  return t;
}

}  // namespace rl
