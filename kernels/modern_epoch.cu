// EpochPass: the whole reduction in one launch in which nothing waits at the end.
//  phase 0: each slot's leader (lane 0 of each warp on small grids, thread 0 of each block on
//           large ones) adds 1 to the epoch word (modern_epoch.cuh): the launch number and its
//           ticket come back while the tile loads are in flight. Block 0 asks L2 for the
//           accumulators' lines.
//  phase 1: block b reads tile b as single_pass does (B x U 16-byte vectors, U loads in flight
//           per thread, one block per tile; modern_tiles.cuh).
//  phase 2: warp sums (int32: REDUX; float32: each lane rounded onto the warp's fixed-point
//           grid and added with REDUX, NaN and infinities counted apart; modern_epoch.cuh
//           warp_sum_fixed); on grids of more than kMaxWarpSlots warps, the block sum from them
//           (one __syncthreads(); float32: the warps' exact window entries added as integers,
//           block_window_hand_on).
//  phase 3: the slot's leader adds its sum into accumulator epoch % 2 with RED (int32: one
//           64-bit word, kEpochInt32Word; float32: its exponent window) and exits: no atomic comes
//           back. The slot with the last ticket zeroes the other accumulator and writes the next
//           epoch.
// The total is the accumulator once the kernel has ended; the host reads it from scratch
// (kernels/epoch_total.h, read_total in launch.h). The idea: single_pass's last slot waits for
// its atomic to return, behind every other slot's; here the one returning atomic is taken at
// the start, where the loads hide it (ncu on the H200: docs/benchmarks.md section 5.5).
#include <type_traits>

#include "dispatch.cuh"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"  // kMaxSlots
#include "modern_launchers.cuh"
#include "modern_stream.cuh"
#include "modern_tiles.cuh"

namespace rl::kernels::modern {
namespace {

// At most this many blocks (the ticket and window sums take 16384 slots), as single_pass.
constexpr std::size_t kMaxBlocks = kMaxSlots;
// Grids of at most this many warps hand on per warp (no block barrier on the critical path), as
// single_pass (ncu on the H200, docs/experiments/float_finish_apart.cu run 4: per warp and per
// block within 0.1 us of each other at 2^16..2^24).
constexpr unsigned kMaxWarpSlots = 512;

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    epoch_pass(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= kMaxWarpSlots;
  epoch_prefetch(scratch, !kInt32);
  unsigned long long began = 0;
  if (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0) began = epoch_begin(scratch);
  A sum = tile_thread_sum<T, B, U>(x, n);
  int word = kInt32 ? kEpochInt32Word : 0;
  long long add = 0;
  unsigned long long special = 0;
  if constexpr (kInt32) {
    if (!per_warp) {
      sum = block_total(sum, kWarps);
      if (threadIdx.x >= kWarp) return;  // warp 0 hands on for the block
    }
    add = per_warp ? warp_total(sum) : sum;
  } else {
    if (!per_warp) {  // warp 0 hands on for the block, inside
      block_window_hand_on<kWarps>(sum, scratch, began, gridDim.x);
      return;
    }
    add = warp_window_entry(sum, &word, &special);
  }
  epoch_hand_on(word, add, special, scratch, began, per_warp ? warp_slots : gridDim.x,
                kInt32 ? unsigned(kEpochInt32Word) : 0u, kInt32 ? 1u : unsigned(kEpochTotalWords));
}

template <typename F>
cudaError_t with_kernel(const LaunchArgs& a, F&& f) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_stream_block(a.block_size, [&](auto b) {
      constexpr int B = decltype(b)::value;
      return with_stream_vectors(
          a.unroll, [&](auto u) { return f(epoch_pass<T, B, decltype(u)::value>, B, t); });
    });
  });
}

}  // namespace

// The single pass's plan (the same tiles, grid cap and limits), with the epoch pass's scratch,
// which also holds the total.
cudaError_t plan_epoch_pass(const LaunchArgs& a, LaunchPlan* plan) {
  if (const cudaError_t err = plan_single_pass(a, plan); err != cudaSuccess) return err;
  plan->scratch_bytes = kEpochScratchBytes;
  plan->total_in_scratch = true;
  return cudaSuccess;
}

cudaError_t launch_epoch_pass(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input) || p.grid == 0 || a.scratch == nullptr || p.grid > kMaxBlocks ||
      p.scratch_bytes < kEpochScratchBytes) {
    return cudaErrorInvalidValue;
  }
  return with_kernel(a, [&](auto kernel, int block, auto t) {
    using T = typename decltype(t)::type;
    kernel<<<p.grid, block, 0, a.stream>>>(static_cast<const T*>(a.input), a.n,
                                           static_cast<char*>(a.scratch));
    return cudaGetLastError();
  });
}

}  // namespace rl::kernels::modern
