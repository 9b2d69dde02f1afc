// EpochPass: the whole reduction in one launch in which nothing waits, at its start or its end.
//  phase 0: block 0's first warp zeroes the accumulator the next launch adds into and writes the
//           next epoch (the host passes the launch's number on this scratch, `epoch`; this
//           launch adds into accumulator epoch % 2), and asks L2 for this launch's accumulator
//           lines (modern_epoch.cuh epoch_ready_next, epoch_prefetch).
//  phase 1: block b reads tile b as single_pass does (B x U 16-byte vectors, U loads in flight
//           per thread, one block per tile; modern_tiles.cuh).
//  phase 2: warp sums (int32: REDUX; float32: each lane rounded onto the warp's fixed-point
//           grid and added with REDUX, NaN and infinities counted apart; modern_epoch.cuh
//           warp_sum_fixed); on grids of more than kMaxWarpSlots warps, the block sum from them
//           (one __syncthreads(); float32: the warps' exact window entries added as integers,
//           block_window_hand_on).
//  phase 3: the slot's leader adds its sum into accumulator epoch % 2 with RED (int32: one
//           64-bit word, kEpochInt32Word; float32: its exponent window) and exits: no atomic comes
//           back.
// The total is the accumulator once the kernel has ended; the host reads it from scratch
// (kernels/epoch_total.h, read_total in launch.h). The idea: single_pass's last slot waits for
// its atomic to return, behind every other slot's; here nothing returns (modern_epoch.cuh says
// what that saves on the H200).
#include <type_traits>

#include "dispatch.cuh"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"  // kMaxSlots
#include "modern_launchers.cuh"
#include "modern_stream.cuh"
#include "modern_tiles.cuh"

namespace rl::kernels::modern {
namespace {

// At most this many blocks (the window sums take 16384 slots), as single_pass.
constexpr std::size_t kMaxBlocks = kMaxSlots;
// Grids of at most this many warps hand on per warp (no block barrier on the critical path), as
// single_pass (ncu on the H200: per warp and per block within 0.1 us of each other at
// 2^16..2^24).
constexpr unsigned kMaxWarpSlots = 512;

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    epoch_pass(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch, unsigned epoch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  constexpr unsigned kFirstWord = kInt32 ? unsigned(kEpochInt32Word) : 0u;
  constexpr unsigned kWords = kInt32 ? 1u : unsigned(kEpochTotalWords);
  const bool per_warp = gridDim.x * kWarps <= kMaxWarpSlots;
  if (blockIdx.x == 0 && threadIdx.x < kWarp) epoch_ready_next(scratch, epoch, kFirstWord, kWords);
  epoch_prefetch(scratch, epoch, !kInt32);
  A sum = tile_thread_sum<T, B, U>(x, n);
  int word = int(kFirstWord);
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
      block_window_hand_on<kWarps>(sum, scratch, epoch);
      return;
    }
    add = warp_window_entry(sum, &word, &special);
  }
  if (threadIdx.x % kWarp == 0) epoch_hand_on(word, add, special, scratch, epoch);
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

// The launch's number on the scratch is *a.epoch; a launch that is enqueued adds 1 to it. One
// captured into a graph (the occupancy query captures and never runs it) does not: the next
// launch must still find its accumulator zeroed.
cudaError_t launch_epoch_pass(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input) || p.grid == 0 || a.scratch == nullptr || p.grid > kMaxBlocks ||
      p.scratch_bytes < kEpochScratchBytes || a.epoch == nullptr) {
    return cudaErrorInvalidValue;
  }
  // The legacy default stream is never captured (CCCL's is_stream_capturing answers false for it
  // without asking): only other streams are asked.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (a.stream != nullptr)
    if (const cudaError_t err = cudaStreamIsCapturing(a.stream, &capture); err != cudaSuccess)
      return err;
  const unsigned epoch = *a.epoch;
  const cudaError_t err = with_kernel(a, [&](auto kernel, int block, auto t) {
    using T = typename decltype(t)::type;
    kernel<<<p.grid, block, 0, a.stream>>>(static_cast<const T*>(a.input), a.n,
                                           static_cast<char*>(a.scratch), epoch);
    return cudaGetLastError();
  });
  if (err == cudaSuccess && capture == cudaStreamCaptureStatusNone) ++*a.epoch;
  return err;
}

}  // namespace rl::kernels::modern
