// Internal to the traces of kernels that reduce a block in registers (trace_modern.cpp: the
// warp-level kernels; trace_single_pass.cpp): each thread's register as the trace's values, and
// the steps of a block sum built from warp-level reductions (kernels/modern_common.cuh,
// block_sum_shfl): every warp reduces its 32 registers, lane 0 of each stores the warp's sum in
// shared memory, one __syncthreads(), warp 0 reduces those the same way.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/core/types.h"
#include "engine/trace/trace.h"

namespace rl::warp_trace {

constexpr std::uint32_t kFull = 0xffffffffu;

// Fixed: the epoch pass's float32 warp sums (kernels/modern_epoch.cuh warp_sum_fixed): each
// lane rounded onto the warp's fixed-point grid, the integers added with REDUX.
enum class WarpOp { ShuffleDown, Xor, Redux, Fixed };

// The epoch pass's fixed-point warp sum of 32 floats, as the GPU computes it: each lane's value
// rounded (nearest, ties away) to kGuard = 2 bits below the warp's largest exponent, the
// integers added. Exact as a double (|sum| < 2^31). No lane may hold NaN or an infinity.
double fixed_warp_sum(const float* lanes);

inline WarpOp op_of(KernelId k) {
  if (k == KernelId::ReduceAddSync) return WarpOp::Redux;
  return k == KernelId::CgReduce ? WarpOp::Xor : WarpOp::ShuffleDown;
}

inline std::int32_t add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline float add(float a, float b) {
  return a + b;
}
// The rows kernels' int32 accumulator (kernels/segmented_common.cuh Accum): no wrap in range.
inline std::int64_t add(std::int64_t a, std::int64_t b) {
  return a + b;
}

inline std::string num(std::uint64_t v) {
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

  // The exact value of each warp's last fixed-point sum (WarpOp::Fixed), by warp.
  const std::vector<double>& exact_warp_sums() const { return exact_; }

  // One warp-level reduction (five shuffle steps, or one REDUX) in warps [0, warps).
  void warp_level(unsigned warps, const std::string& who) {
    if constexpr (std::is_same_v<T, float>) {
      if (op_ == WarpOp::Fixed) {
        fixed_level(warps, who);
        return;
      }
    }
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

  // The epoch pass's float32 block level (kernels/modern_epoch.cuh block_window_hand_on): warp 0
  // adds the `warps` exact fixed-point sums of the warp level as integers (entries of the
  // accumulator's windows), with no second rounding. The registers get the sum as a float.
  void exact_block_level(unsigned warps) {
    TraceStep& s =
        push("warp_reduce", "warp 0: REDUX.SUM adds the " + num(warps) +
                                " warps' fixed-point sums as integers (entries of one exponent "
                                "window, exact: no maximum to find, no second rounding), and a "
                                "REDUX.OR beside it checks that they share that window. One step "
                                "after the barrier, as int32's.");
    double total = 0;
    for (unsigned w = 0; w < warps && w < exact_.size(); ++w) total += exact_[w];
    exact_.assign(1, total);
    for (unsigned l = 0; l < 32; ++l) v_[l] = static_cast<T>(total);
    for (unsigned l = 1; l < warps; ++l) {
      s.ops.emplace_back(0, l);
      s.threads.push_back(0);
    }
    s.masks[0] = kFull;
    s.counters.shuffles = 32;
    snapshot(s);
  }

 private:
  // Registers get the warp's sum rounded once to float (what the block level adds next); the
  // exact sum is kept for the slot's hand-on, which adds it without that rounding.
  void fixed_level(unsigned warps, const std::string& who) {
    TraceStep& s = push(
        "warp_reduce",
        "fixed-point warp sums in " + who +
            ": REDUX.MAX finds the warp's largest exponent, each lane rounds its float onto the "
            "grid 2 bits below it, and one REDUX.SUM adds the 32 integers, exactly and in no "
            "order: the same bits on every run, with no shuffle tree.");
    exact_.assign(warps, 0.0);
    for (unsigned w = 0; w < warps; ++w) {
      exact_[w] = fixed_warp_sum(&v_[w * 32]);
      for (unsigned l = 0; l < 32; ++l) v_[w * 32 + l] = static_cast<T>(exact_[w]);
      for (unsigned l = 1; l < 32; ++l) s.ops.emplace_back(w * 32, w * 32 + l);
      s.threads.insert(s.threads.end(), 31, w * 32);
      s.masks[w] = kFull;
    }
    s.counters.shuffles = 32ull * warps;
    snapshot(s);
  }

  Trace& t_;
  WarpOp op_;
  unsigned W_;
  std::vector<T> v_;
  std::vector<double> exact_;
};

// The block sum's steps after the load: the warp-level reduction in every warp, then (W > 1)
// the warp sums through shared memory and warp 0's reduction of them (`exact_entries`: the epoch
// pass's float32, whose warp 0 adds the warps' exact fixed-point sums). Thread 0's register ends
// with the block's sum.
template <typename T>
void block_reduce_steps(Builder<T>& b, unsigned W, bool exact_entries = false) {
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
    if constexpr (std::is_same_v<T, float>) {
      if (exact_entries) {
        b.exact_block_level(W);
        return;
      }
    }
    b.warp_level(1, "warp 0");
  }
}

// The interleaved shared-memory tree over a block's B values (stride B/2 .. 1: thread tid < stride
// adds ws[tid + stride], then __syncthreads()), one step per level; `what` opens each caption.
template <typename T>
void shared_tree_steps(Builder<T>& b, unsigned B, const std::string& what) {
  for (unsigned stride = B / 2; stride > 0; stride >>= 1) {
    TraceStep& s = b.push(
        "tree", "stride " + num(stride) + ": threads 0.." + num(stride - 1) + " act. " + what);
    s.stride = stride;
    s.barrier = true;
    s.counters.barriers = 1;
    s.counters.loads = 2ull * stride;
    s.counters.stores = stride;
    std::vector<T>& v = b.regs();
    for (unsigned tid = 0; tid < stride; ++tid) {
      v[tid] = add(v[tid], v[tid + stride]);
      s.ops.emplace_back(tid, tid + stride);
      s.threads.push_back(tid);
      s.masks[tid / 32] |= 1u << (tid % 32);
    }
    b.snapshot(s);
  }
}

}  // namespace rl::warp_trace
