// The trace of single_pass (kernels/modern_single_pass.cu), one block, its registers as values:
//   load        phase 1: thread t loads vectors t, t + B, ..., t + (U-1)B of each tile the block
//               walks (tile b, b + grid, ...; one tile when the grid is the tile count), U
//               16-byte loads in flight, and adds their 4U values in a register (tile_thread_sum)
//   level 1..2  phase 2: warp sums (REDUX for int32, shuffles for float32) and, on grids of
//               more than 512 warps, the block sum from them
//   cluster     (cluster_single_pass) thread 0 stores the block sum into the leader's shared
//               memory, cluster.sync()
//   finish      phase 3: each warp, block or cluster hands its sum on with integer atomics
//               (kernels/modern_finish.cuh); the last to count writes the total
// and of epoch_pass (kernels/modern_epoch.cu), the same tiles (block 0 first readies the next
// launch's accumulator), float32 warp sums in fixed point (REDUX), and a RED that nothing waits
// for at the end.
// The register sums follow tile_thread_sum's order of additions, float included, so the traced
// block sum is the bits the GPU block computes; the tests check that every block's sum adds up
// to the total.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "kernels/launch.h"
#include "trace/trace_internal.h"
#include "trace/trace_warp_builder.h"

namespace rl {

// kernels/modern_epoch.cuh warp_sum_fixed for finite lanes: each lane rounded to nearest (ties
// up) on the grid kGuard = 2 bits below the warp's largest exponent (at least 3).
double warp_trace::fixed_warp_sum(const float* lanes) {
  auto bits_of = [](float f) {
    std::uint32_t b = 0;
    std::memcpy(&b, &f, sizeof b);
    return b;
  };
  auto exponent_of = [](std::uint32_t b) { return std::max(1u, unsigned((b >> 23) & 0xffu)); };
  unsigned top = 3;  // subnormals count as exponent 1; sums of them land on 2^-149
  for (unsigned l = 0; l < 32; ++l) top = std::max(top, exponent_of(bits_of(lanes[l])));
  std::int64_t sum = 0;
  for (unsigned l = 0; l < 32; ++l) {
    const std::uint32_t b = bits_of(lanes[l]);
    const unsigned e = (b >> 23) & 0xffu, d = top - exponent_of(b);
    const std::int32_t m = std::int32_t(((e ? 0x800000u : 0u) | (b & 0x7fffffu)) << 3);
    const std::int32_t twice = (b >> 31) ? -m : m;
    const std::int32_t shifted = d >= 32 ? (twice < 0 ? -1 : 0) : twice >> d;
    sum += (shifted + 1) >> 1;
  }
  return std::ldexp(double(sum), int(top) - 152);
}

namespace {

// kernels/modern_single_pass.cu's kMaxWarpSlots and modern_cluster.cu's kClusterBlocks.
constexpr std::uint64_t kMaxWarpSlots = 512;
constexpr unsigned kClusterBlocks = 8;

// The epoch pass's block 0 readies the next launch (modern_epoch.cuh epoch_ready_next): it zeroes
// the words the type uses of the other accumulator and writes the epoch word, once per launch.
std::uint64_t epoch_ready_stores(DType type) {
  return type == DType::Float32 ? 33 + 1 : 1 + 1;
}

using warp_trace::Builder;
using warp_trace::kFull;
using warp_trace::num;

// Sum of a vector's four lanes as the kernel pairs them: (x + y) + (z + w).
template <typename T>
T lanes_sum(const T* v) {
  return warp_trace::add(warp_trace::add(v[0], v[1]), warp_trace::add(v[2], v[3]));
}

// Elements block b reads: every vector of its tiles that lies below nv, and (block 0) the
// n % 4 scalars past the last whole vector.
std::uint64_t reads_of_block(std::uint64_t n, unsigned grid, std::uint64_t tile_vectors,
                             std::uint64_t b) {
  const std::uint64_t nv = n / 4;
  std::uint64_t vectors = 0;
  for (std::uint64_t t = b; t * tile_vectors < nv; t += grid)
    vectors += std::min(tile_vectors, nv - t * tile_vectors);
  return 4 * vectors + (b == 0 ? n % 4 : 0);
}

// Phase 1 for thread `tid` of block `b`, in tile_thread_sum's order of additions.
template <typename T>
T thread_sum(const T* x, std::uint64_t n, unsigned grid, unsigned B, unsigned U, unsigned b,
             unsigned tid) {
  const std::uint64_t nv = n / 4, tile = std::uint64_t(B) * U, full_tiles = nv / tile;
  T acc = T(0);
  std::uint64_t t = b;
  for (; t < full_tiles; t += grid) {
    const std::uint64_t first = t * tile + tid;
    T s = lanes_sum(x + 4 * first);
    for (unsigned k = 1; k < U; ++k) s = warp_trace::add(s, lanes_sum(x + 4 * (first + k * B)));
    acc = warp_trace::add(acc, s);
  }
  if (t == full_tiles)
    for (unsigned k = 0; k < U; ++k) {
      const std::uint64_t i = full_tiles * tile + tid + std::uint64_t(k) * B;
      if (i < nv) acc = warp_trace::add(acc, lanes_sum(x + 4 * i));
    }
  if (b == 0 && tid < n % 4) acc = warp_trace::add(acc, x[nv * 4 + tid]);
  return acc;
}

template <typename T>
void build(Trace& t, const InputData& input) {
  const T* x;
  if constexpr (std::is_same_v<T, float>)
    x = input.f32.data();
  else
    x = input.i32.data();
  const unsigned B = t.block_size, U = static_cast<unsigned>(t.unroll), W = t.warps();
  const unsigned grid = static_cast<unsigned>(t.grid), b = t.block_index;
  // int32 sums warps with REDUX (sm_80+, the GPUs this trace describes), float32 with shuffles
  // (the epoch pass: in fixed point, with REDUX).
  const bool epoch = t.variant == "epoch_pass";
  Builder<T> builder(t, !std::is_same_v<T, float> ? warp_trace::WarpOp::Redux
                        : epoch                   ? warp_trace::WarpOp::Fixed
                                                  : warp_trace::WarpOp::ShuffleDown);
  // The view's cells show each thread's first element: x[4(tile b * B * U + tid)].
  const std::uint64_t first = std::uint64_t(b) * B * U * 4;
  t.initial_values.assign(B, 0.0);
  for (unsigned i = 0; i < B; ++i)
    if (first + 4ull * i < t.size) t.initial_values[i] = double(x[first + 4ull * i]);
  for (unsigned tid = 0; tid < B; ++tid)
    builder.regs()[tid] = thread_sum(x, t.size, grid, B, U, b, tid);

  const std::uint64_t tiles = (t.size / 4 + std::uint64_t(B) * U - 1) / (std::uint64_t(B) * U);
  std::string cap =
      "phase 1: thread t loads " +
      (U == 1 ? std::string("vector t")
              : "vectors t, t + " + num(B) + (U > 2 ? ", ..." : "") + " (" + num(U) + " of them)") +
      " of tile " + num(b) + " (16 bytes each: " + num(4 * U) +
      " values), every load issued before any addition, and adds the values in a "
      "register. Each warp load covers 512 contiguous bytes.";
  if (tiles > grid)
    cap += " The grid is capped at " + num(grid) + " blocks, so this block walks tiles " + num(b) +
           ", " + num(b + grid) + ", ...";
  if (b == 0 && t.size % 4)
    cap += " Block 0 also adds the " + num(t.size % 4) + " values past the last whole vector.";
  const bool cluster = t.variant == "cluster_single_pass";
  const bool per_warp = !cluster && std::uint64_t(grid) * W <= kMaxWarpSlots;
  if (epoch && b == 0) {
    const bool windows = t.type == DType::Float32;
    TraceStep& next = builder.push(
        "epoch",
        std::string("phase 0: the host passes the launch its number e on this scratch, and the "
                    "launch adds into accumulator e % 2. Block 0's first warp, as it starts, "
                    "zeroes the other accumulator for the next launch (") +
            (windows ? "its 33 words, one store per lane" : "int32's one word") +
            ") and writes e + 1 to the epoch word, where the host reads which accumulator "
            "holds the latest total. Fire-and-forget stores: nothing waits, and no other block "
            "does anything before its loads.");
    next.masks[0] = windows ? kFull : 1u;
    next.counters.stores = epoch_ready_stores(t.type);
    builder.snapshot(next);
  }
  TraceStep& load = builder.push("load", cap);
  load.masks.assign(W, kFull);
  builder.snapshot(load);

  if (per_warp)
    builder.warp_level(W, W == 1 ? "the block's only warp" : "all " + num(W) + " warps at once");
  else
    warp_trace::block_reduce_steps(builder, W, epoch);
  const std::uint64_t slots = cluster    ? grid / kClusterBlocks
                              : per_warp ? std::uint64_t(grid) * W
                                         : grid;
  const std::string slot = cluster ? "cluster" : per_warp ? "warp" : "block";
  if (cluster) {
    TraceStep& dsmem = builder.push(
        "cluster",
        "phase 3: thread 0 stores the block sum into the shared memory of the cluster's leader "
        "block (block " +
            num(b - b % kClusterBlocks) +
            ", on another SM of the same GPC: distributed shared memory, no trip through L2); "
            "cluster.sync() waits for the cluster's " +
            num(kClusterBlocks) + " blocks. " +
            (b % kClusterBlocks == 0 ? "This block is the leader: its warp 0 adds the 8 sums."
                                     : "This block is done; the leader goes on."));
    dsmem.masks[0] = 1u;
    dsmem.barrier = true;
    dsmem.counters.stores = 1;
    dsmem.counters.barriers = 1;
    builder.snapshot(dsmem);
  }
  TraceStep& finish = builder.push("atomic", "");
  for (unsigned w = 0; w < (per_warp ? W : 1u); ++w) finish.masks[w] = 1u;
  finish.counters.stores = per_warp ? W : 1;
  builder.snapshot(finish);
  // The block's sum: thread 0's register, or per warp the warps' sums added up (every lane of a
  // warp holds its warp's sum after REDUX, lane 0 after the shuffles).
  t.partial = double(builder.regs()[0]);
  if (per_warp)
    for (unsigned w = 1; w < W; ++w) t.partial += double(builder.regs()[w * 32]);
  if (epoch && std::is_same_v<T, float>) {  // the exact fixed-point sums, not their floats
    const std::vector<double>& exact = builder.exact_warp_sums();
    t.partial = 0.0;
    for (unsigned w = 0; w < (per_warp ? W : 1u); ++w) t.partial += exact[w];
  }
  const std::string sum =
      t.type == DType::Int32 ? num(static_cast<std::uint64_t>(static_cast<std::int64_t>(t.partial)))
                             : std::to_string(t.partial);
  const std::string who = per_warp ? "lane 0 of each warp" : cluster ? "the leader" : "thread 0";
  const std::string what = per_warp ? "its warp sum" : "the " + slot + " sum";
  if (epoch)
    finish.caption =
        "phase 3: " + who + " adds " + what + " (block sum " + sum + ") into accumulator " +
        "epoch % 2 with RED, a fire-and-forget atomic" +
        (t.type == DType::Int32 ? std::string("")
                                : std::string(" (float32: as an exact integer, into its "
                                              "exponent window)")) +
        ", and exits: nothing comes back, nobody waits. The total is the accumulator once the "
        "kernel has ended; the host reads it.";
  else if (t.type == DType::Int32)
    finish.caption = "phase " + std::string(cluster ? "4" : "3") + ": " + who + " adds 2^48 + " +
                     what + " (block sum " + sum +
                     ") to one 64-bit word with a single atomicAdd: the high bits count the " +
                     slot + "s done, the low bits add their sums. The " + slot +
                     " whose atomic sees the count " + num(slots - 1) +
                     " holds every sum: it writes the total and resets the word. No partials "
                     "array, no second kernel.";
  else
    finish.caption = "phase " + std::string(cluster ? "4" : "3") + ": " + who + " adds " + what +
                     " (block sum " + sum +
                     "), as an exact integer with a count of one, to the window word of its "
                     "exponent (atomicAdd) and takes a ticket (atomicAdd(counter, 1)), both at "
                     "once. The " +
                     slot + " with ticket " + num(slots - 1) +
                     " rounds the total once: from its own window word when that window holds "
                     "every sum (one round trip, as int32), else from the 32 windows added in a "
                     "fixed order. Integer additions do not depend on order, so every run gives "
                     "the same bits.";
  if (per_warp)
    finish.caption += " Per warp because the grid has only " + num(std::uint64_t(grid) * W) +
                      " warps: no block barrier on the way to the total.";
}

}  // namespace

Trace make_single_pass_trace(const TraceRequest& r, const VariantInfo& v, int unroll) {
  const bool cluster = v.kernel == KernelId::ClusterSinglePass;
  if (v.kernel != KernelId::SinglePass && !cluster && v.kernel != KernelId::EpochPass)
    throw Error("no single-pass trace for " + v.id);
  const std::string name = v.seed_label(unroll);
  if (!v.takes_block_size(r.block_size))
    throw Error("block size " + std::to_string(r.block_size) + ": " + name +
                " takes 128, 256, 512 or 1024");
  if (!v.takes_unroll(unroll))
    throw Error("unroll " + std::to_string(unroll) + ": " + name +
                " takes 1, 2, 4 or 8 vectors per thread");
  if (!v.takes_workspace(r.workspace))
    throw Error("workspace " + std::string(to_string(r.workspace)) + ": " + name +
                " works in registers");

  Trace t = trace_shell(r, v, unroll);
  const std::uint64_t tile_vectors = std::uint64_t(r.block_size) * unroll;
  t.size = r.size == 0 ? 4 * tile_vectors : r.size;
  // The grid the GPU launch would use (kernels' own plan: one block per tile, capped; the epoch
  // pass plans the same grid).
  kernels::LaunchArgs args;
  args.kernel = KernelId::SinglePass;
  args.type = r.type;
  args.workspace = Workspace::Registers;
  args.block_size = r.block_size;
  args.unroll = unroll;
  args.n = t.size;
  kernels::LaunchPlan plan;
  if (kernels::plan_launch(args, &plan) != cudaSuccess)
    throw Error(name + ": no launch of N = " + std::to_string(t.size) +
                " at B = " + std::to_string(r.block_size) + ", U = " + std::to_string(unroll));
  // The cluster kernel's grid: the single pass's, rounded up to whole clusters (its own plan
  // asks the GPU whether it has clusters; a trace needs no GPU).
  t.grid = cluster ? (plan.grid + kClusterBlocks - 1) / kClusterBlocks * kClusterBlocks : plan.grid;
  check_block_index(t);
  // The input up to the block's last tile, and to the end for block 0's scalar tail or a block
  // that walks several tiles.
  const std::uint64_t tiles = (t.size / 4 + tile_vectors - 1) / tile_vectors;
  std::uint64_t needed = std::min(t.size, 4 * (std::uint64_t(r.block_index) + 1) * tile_vectors);
  if (tiles > t.grid || (r.block_index == 0 && t.size % 4)) needed = t.size;
  const InputData input = trace_input(needed, r.type, r.block_index, 4 * tile_vectors);
  if (r.type == DType::Int32)
    build<std::int32_t>(t, input);
  else
    build<float>(t, input);

  const std::uint64_t traced_reads = reads_of_block(t.size, t.grid, tile_vectors, t.block_index);
  total_block_steps(t, traced_reads);
  fill_launch_totals(t, traced_reads, traced_reads, traced_reads);
  // Every element is read once, whichever block reads it; each block adds its own gather loads.
  t.launch_totals.loads = t.size + t.grid * (t.block_totals.loads - traced_reads);
  if (v.kernel == KernelId::EpochPass) {  // block 0's readying stores, once per launch
    const std::uint64_t ready = epoch_ready_stores(r.type);
    t.launch_totals.stores =
        t.launch_totals.stores - (r.block_index == 0 ? t.grid * ready : 0) + ready;
  }
  return t;
}

}  // namespace rl
