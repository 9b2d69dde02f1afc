// Traces of the #pragma unroll lab (kernels/lab_unroll.cu), one block, registers or the shared
// workspace as the values.
//   unroll_pragma       the 32-trip load loop as the compiler runs it under #pragma unroll U:
//                       32 / U iterations, each with U loads in flight (U = 32: one straight
//                       run, no loop left), then the warp-shuffle block sum and the partial
//   tree_loop_rolled    one element per thread into shared memory, then the interleaved tree as
//   tree_loop_unrolled  a loop (#pragma unroll 1) or written out with the block size known
// Every block does the same steps; only its reads differ (the tail reads fewer).
#include <algorithm>

#include "kernels/lab.h"

#include "engine/experiment/input_data.h"
#include "trace/trace_internal.h"
#include "trace/trace_warp_builder.h"

namespace rl {

namespace {
namespace lab = kernels::lab;
using warp_trace::Builder;
using warp_trace::num;

constexpr unsigned kTrip = lab::kUnrollTrip;

std::uint64_t tile_of(const Trace& t, KernelId k) {
  return std::uint64_t(t.block_size) * (k == KernelId::UnrollPragma ? kTrip : 1);
}

std::int32_t value_at(const Trace& t, std::uint64_t i) {
  return i < t.size ? input_i32_at(i) : 0;
}

std::string iteration_caption(unsigned U, unsigned g, unsigned first_j) {
  const std::string loads = "x[base + tid + j * blockDim.x] for j = " + num(first_j) +
                            (U > 1 ? ".." + num(first_j + U - 1) : "");
  if (U == kTrip)
    return "#pragma unroll 32: the whole loop written out. Every thread issues its 32 loads (" +
           loads +
           ") before the first add: 32 loads in flight, no counter, no compare, no branch, "
           "32 registers held for them.";
  const std::string head = "iteration " + num(g + 1) + " of " + num(kTrip / U) + ": ";
  if (U == 1)
    return head + "one load, " + loads +
           ", then its add, the counter's increment, compare and branch back (#pragma unroll 1: "
           "one load in flight at a time).";
  return head + num(U) + " loads in flight (" + loads + "), then their adds, then one compare " +
         "and branch for all " + num(U) + " (#pragma unroll " + num(U) + ").";
}

void build_unroll_pragma(Trace& t) {
  const unsigned B = t.block_size, U = t.unroll;
  const std::uint64_t first = std::uint64_t(t.block_index) * B * kTrip;
  Builder<std::int32_t> b(t, warp_trace::WarpOp::ShuffleDown);
  t.initial_values.assign(B, 0.0);
  for (unsigned tid = 0; tid < B; ++tid) t.initial_values[tid] = value_at(t, first + tid);
  std::vector<std::int32_t>& sum = b.regs();
  for (unsigned g = 0; g < kTrip / U; ++g) {
    std::uint64_t reads = 0;
    for (unsigned j = g * U; j < (g + 1) * U; ++j)
      for (unsigned tid = 0; tid < B; ++tid) {
        const std::uint64_t i = first + tid + std::uint64_t(j) * B;
        if (i < t.size) ++reads;
        sum[tid] = warp_trace::add(sum[tid], value_at(t, i));
      }
    TraceStep& s = b.push("load", iteration_caption(U, g, g * U));
    for (unsigned tid = 0; tid < B; ++tid) s.masks[tid / 32] |= 1u << (tid % 32);
    s.counters.loads = reads;
    b.snapshot(s);
  }
  if (first + std::uint64_t(B) * kTrip > t.size)
    t.steps.front().caption +=
        " This is the tail block: each load checks i < N (the whole "
        "tiles skip the check).";
  warp_trace::block_reduce_steps(b, t.warps());
  TraceStep& partial = b.push("write_partial", "");
  partial.masks[0] = 1u;
  partial.counters.stores = 1;
  b.snapshot(partial);
  t.partial = double(sum[0]);
  partial.caption = "thread 0 writes its register (" + num(std::uint64_t(t.partial)) +
                    ") to partials[" + num(t.block_index) + "]: the block's partial sum.";
}

void build_tree_loop(Trace& t, bool unrolled) {
  const unsigned B = t.block_size;
  const std::uint64_t first = std::uint64_t(t.block_index) * B;
  Builder<std::int32_t> b(t, warp_trace::WarpOp::ShuffleDown);
  t.initial_values.assign(B, 0.0);
  std::uint64_t reads = 0;
  for (unsigned tid = 0; tid < B; ++tid) {
    b.regs()[tid] = value_at(t, first + tid);
    t.initial_values[tid] = b.regs()[tid];
    if (first + tid < t.size) ++reads;
  }
  TraceStep& load = b.push("load",
                           "ws[tid] = x[blockIdx.x * blockDim.x + tid] (0 past N) into shared "
                           "memory, then __syncthreads().");
  for (unsigned tid = 0; tid < B; ++tid) load.masks[tid / 32] |= 1u << (tid % 32);
  load.counters.loads = reads;
  load.barrier = true;
  load.counters.barriers = 1;
  b.snapshot(load);
  warp_trace::shared_tree_steps(
      b, B,
      unrolled ? "Written out by #pragma unroll (B = " + num(B) +
                     " is a template parameter): this level's stride is a constant, and no loop "
                     "counter, compare or branch runs between levels."
               : "A loop iteration (#pragma unroll 1): the stride is shifted, compared with 0 and "
                 "branched on at run time, then ws[tid] += ws[tid + stride] and __syncthreads().");
  TraceStep& partial = b.push("write_partial", "");
  partial.masks[0] = 1u;
  partial.counters.loads = 1;
  partial.counters.stores = 1;
  b.snapshot(partial);
  t.partial = double(b.regs()[0]);
  partial.caption = "thread 0 copies ws[0] (" + num(std::uint64_t(t.partial)) + ") to partials[" +
                    num(t.block_index) + "]: the block's partial sum.";
}

}  // namespace

Trace make_unroll_lab_trace(Trace t, KernelId k) {
  const std::uint64_t tile = tile_of(t, k);
  t.grid = (t.size + tile - 1) / tile;
  check_block_index(t);
  if (k == KernelId::UnrollPragma)
    build_unroll_pragma(t);
  else
    build_tree_loop(t, k == KernelId::TreeLoopUnrolled);
  finish_tiled_lab_trace(t);
  const std::uint64_t traced = std::min(tile, t.size - std::uint64_t(t.block_index) * tile);
  fill_launch_totals(t, tile, t.size - (t.grid - 1) * tile, traced);
  return t;
}

}  // namespace rl
