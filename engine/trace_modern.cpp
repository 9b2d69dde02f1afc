// Traces of the warp-level kernels past the seed (kernels/modern_warp.cu, modern_common.cuh):
// the block works in registers, so the trace's values are each thread's register.
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

#include "block_model_ladder.h"
#include "error.h"
#include "input_data.h"
#include "trace_internal.h"

namespace rl {

namespace {

constexpr std::uint32_t kFull = 0xffffffffu;

enum class WarpOp { ShuffleDown, Xor, Redux };

WarpOp op_of(KernelId k) {
  if (k == KernelId::ReduceAddSync) return WarpOp::Redux;
  return k == KernelId::CgReduce ? WarpOp::Xor : WarpOp::ShuffleDown;
}

inline std::int32_t add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline float add(float a, float b) {
  return a + b;
}

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

template <typename T>
class Builder {
 public:
  Builder(Trace& t, WarpOp op) : t_(t), op_(op), W_(t.warps()), v_(t.block_size) {}

  std::vector<T>& regs() { return v_; }

  TraceStep& push(std::string kind, std::string caption) {
    TraceStep s;
    s.kind = std::move(kind);
    s.caption = std::move(caption);
    s.masks.assign(W_, 0);
    t_.steps.push_back(std::move(s));
    return t_.steps.back();
  }
  void snapshot(TraceStep& s) { s.values.assign(v_.begin(), v_.end()); }

  // One warp-level reduction (five shuffle steps, or one REDUX) in warps [0, warps).
  void warp_level(unsigned warps, const std::string& who) {
    if (op_ == WarpOp::Redux) {
      TraceStep& s =
          push("warp_reduce", "__reduce_add_sync in " + who +
                                  ": one REDUX instruction adds the warp's 32 registers and gives "
                                  "every lane the sum; no shuffles, no shared memory, no barrier.");
      for (unsigned w = 0; w < warps; ++w) {
        T sum = v_[w * 32];
        for (unsigned l = 1; l < 32; ++l) sum = add(sum, v_[w * 32 + l]);
        for (unsigned l = 0; l < 32; ++l) v_[w * 32 + l] = sum;
        for (unsigned l = 1; l < 32; ++l) s.ops.emplace_back(w * 32, w * 32 + l);
        s.threads.insert(s.threads.end(), 31, w * 32);
        s.masks[w] = kFull;
      }
      s.counters.shuffles = 32ull * warps;
      snapshot(s);
      return;
    }
    for (unsigned o = 16; o > 0; o >>= 1) {
      const bool down = op_ == WarpOp::ShuffleDown;
      std::string cap = std::string(down ? "__shfl_down_sync" : "butterfly (shfl_xor)") +
                        ", offset " + num(o) + " in " + who + ": lane i adds lane " +
                        (down ? "i + " : "i ^ ") + num(o) + "'s register. ";
      cap += down ? (o < 16 ? "Lanes " + num(32 - o) +
                                  "..31 get their own value back and "
                                  "double it: sums nobody reads, cheaper than a branch. "
                            : "Lanes 16..31 get their own value back and double it: sums "
                              "nobody reads. ")
                  : "Every lane ends with the warp's sum. ";
      cap += "Registers only: no shared memory, no volatile, no barrier.";
      TraceStep& s = push("shuffle", cap);
      s.stride = o;
      const std::vector<T> before = v_;
      for (unsigned w = 0; w < warps; ++w) {
        for (unsigned l = 0; l < 32; ++l) {
          const unsigned src_lane = down ? (l + o < 32 ? l + o : l) : (l ^ o);
          const unsigned dst = w * 32 + l, src = w * 32 + src_lane;
          v_[dst] = add(before[dst], before[src]);
          if (src != dst) {
            s.ops.emplace_back(dst, src);
            s.threads.push_back(dst);
          }
        }
        s.masks[w] = kFull;
      }
      s.counters.shuffles = 32ull * warps;
      snapshot(s);
    }
  }

 private:
  Trace& t_;
  WarpOp op_;
  unsigned W_;
  std::vector<T> v_;
};

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

  b.warp_level(W, W == 1 ? "the block's only warp" : "all " + num(W) + " warps at once");
  if (W > 1) {
    TraceStep& sums =
        b.push("warp_sums", "lane 0 of each of the " + num(W) +
                                " warps stores its warp's sum in shared memory (warp_sums[warp]); "
                                "__syncthreads(): the block's only barrier.");
    for (unsigned w = 0; w < W; ++w) sums.masks[w] = 1u;
    sums.barrier = true;
    sums.counters.barriers = 1;
    sums.counters.stores = W;
    b.snapshot(sums);
    TraceStep& gather = b.push("gather", "warp 0: lane l loads warp_sums[l] for l < " + num(W) +
                                             ", 0 for the other lanes; the other warps are done.");
    std::vector<T>& v = b.regs();
    std::vector<T> sums_copy(W);
    for (unsigned w = 0; w < W; ++w) sums_copy[w] = v[w * 32];
    for (unsigned l = 0; l < 32; ++l) {
      v[l] = l < W ? sums_copy[l] : T(0);
      if (l < W && l != 0) {
        gather.ops.emplace_back(l, l * 32);
        gather.threads.push_back(l);
      }
    }
    gather.masks[0] = kFull;
    gather.counters.loads = W;
    b.snapshot(gather);
    b.warp_level(1, "warp 0");
  }
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

Trace make_warp_family_trace(const TraceRequest& r, const VariantInfo& v, int unroll) {
  if (!has_warp_family_trace(v.kernel)) throw Error("no step-by-step trace for " + v.id);
  const std::string name = v.seed_label(unroll);
  if (r.block_size < 32 || r.block_size > 1024 || (r.block_size & (r.block_size - 1)) != 0)
    throw Error("block size " + std::to_string(r.block_size) +
                ": must be a power of two from 32 to 1024");
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
  if (std::find(v.types.begin(), v.types.end(), r.type) == v.types.end())
    throw Error("type " + std::string(to_string(r.type)) + ": " + name + " takes int32 only");

  Trace t;
  t.variant = v.id;
  t.label = name;
  t.display_name = v.display_name;
  t.block_size = r.block_size;
  t.unroll = unroll;
  t.workspace = r.workspace;
  t.type = r.type;
  const std::uint64_t tile = std::uint64_t(r.block_size) * unroll;
  t.size = r.size == 0 ? tile : r.size;
  t.grid = (t.size + tile - 1) / tile;
  t.block_index = r.block_index;
  if (r.block_index >= t.grid)
    throw Error("block index " + std::to_string(r.block_index) +
                ": the launch of N = " + std::to_string(t.size) + " has " + std::to_string(t.grid) +
                " block" + (t.grid == 1 ? "" : "s") + " (0.." + std::to_string(t.grid - 1) + ")");
  const InputData input = trace_input(std::min<std::uint64_t>(t.size, (r.block_index + 1) * tile),
                                      r.type, r.block_index, tile);
  if (r.type == DType::Int32)
    build<std::int32_t>(t, op_of(v.kernel), input);
  else
    build<float>(t, op_of(v.kernel), input);

  mark_exited_lanes(t.steps);
  const std::uint64_t traced_reads = reads_of_block(t, t.block_index);
  for (TraceStep& s : t.steps) {
    if (s.kind == "load") s.counters.loads = traced_reads;
    recount_lanes(s);
    t.block_totals += s.counters;
  }
  fill_launch_totals(t, reads_of_block(t, 0), reads_of_block(t, t.grid - 1), traced_reads);
  return t;
}

}  // namespace rl
