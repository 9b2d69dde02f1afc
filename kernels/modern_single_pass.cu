// SinglePass: the whole reduction in one launch, one tile per block.
//  phase 1: block b reads tile b: B x U 16-byte vectors, one contiguous chunk of B*U*16 bytes;
//           thread t issues its U loads (vectors t, t + B, ..., t + (U-1)B of the tile, each
//           load instruction of the block covers B*16 contiguous bytes) before any addition.
//           There are as many blocks as tiles (up to 16384, kMaxSlots): the hardware block
//           scheduler hands the next tile to whichever SM frees a slot first, so the SMs that
//           stream faster take more tiles. A grid-stride split (modern_stream.cuh) gives every
//           block the same share and waits for the slowest one.
//  phase 2: warp sums (REDUX for int32 on sm_80+, shuffles otherwise); on grids of more than
//           kMaxWarpSlots warps, the block sum from them (one __syncthreads()).
//  phase 3: each warp (small grids) or each block hands its sum on with integer atomics, and
//           the one that counts last writes the total (modern_finish.cuh): int32 in one counted
//           64-bit word, float32 in counted exponent windows, so float32 gives the same bits on
//           every run with no partials array and no fence. Block 0 prefetches the finish's
//           scratch lines into L2 first (phase 0).
// The idea: the second launch of a two-pass reduction costs a launch gap and a kernel that
// mostly waits; letting the last block to finish do that work removes both. Per warp on small
// grids because there the block barrier and second warp pass sit on the critical path while a
// few hundred atomics cost nothing (ncu on the H200).
#include <type_traits>

#include "dispatch.cuh"
#include "modern_finish.cuh"
#include "modern_launchers.cuh"
#include "modern_stream.cuh"
#include "modern_tiles.cuh"

namespace rl::kernels::modern {
namespace {

// At most this many blocks; past it, blocks walk several tiles. Every block pays its launch and
// the round trip of its counting atomic, whose return it waits for before its slot frees.
// Measured on the H200 at 2^28 int32 with one tile per block (harness, cold L2):
// 8192 blocks of 128 KB 242.9 us, 16384 of 64 KB 240.9-242.2 us, 32768 of 32 KB 250-251 us,
// 65536 of 16 KB 260-270 us, 262143 of 2-4 KB 475-520 us (and 5-10% apart from one run to the
// next). With this cap every (B, U) built reads 2^28 in 241-257 us.
constexpr std::size_t kMaxBlocks = kMaxSlots;
// Grids of at most this many warps finish per warp. ncu on the H200: per warp is faster up to
// 512 warps (2^16: 2.66 against 2.75 us, 2^18: 2.98 against 3.07 us), slower from 1024.
constexpr unsigned kMaxWarpSlots = 512;

// Phase 3 (modern_finish.cuh): every warp or every block hands its sum on.
template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    single_pass(const T* __restrict__ x, std::size_t n,
                typename Accum<T>::type* __restrict__ result, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr unsigned kWarps = B / kWarp;
  prefetch_finish_lines(scratch, !std::is_same_v<T, int32_t>);
  A sum = tile_thread_sum<T, B, U>(x, n);
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= kMaxWarpSlots;
  unsigned slots = gridDim.x;
  if (per_warp) {
    sum = warp_total(sum);
    slots = warp_slots;
  } else {
    sum = block_total(sum, kWarps);
    if (threadIdx.x >= kWarp) return;  // warp 0 finishes for the block
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (threadIdx.x % kWarp == 0)
      hand_on_counted(sum, result, reinterpret_cast<unsigned long long*>(scratch), slots);
  } else {
    hand_on_windows(sum, result, reinterpret_cast<unsigned long long*>(scratch + kWindowsOffset),
                    reinterpret_cast<unsigned*>(scratch), slots);
  }
}

template <typename F>
cudaError_t with_kernel(const LaunchArgs& a, F&& f) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_stream_block(a.block_size, [&](auto b) {
      constexpr int B = decltype(b)::value;
      return with_stream_vectors(
          a.unroll, [&](auto u) { return f(single_pass<T, B, decltype(u)::value>, B, t); });
    });
  });
}

}  // namespace

cudaError_t plan_single_pass(const LaunchArgs& a, LaunchPlan* plan) {
  if (a.workspace != Workspace::Registers) return cudaErrorInvalidValue;
  const bool is_int = a.type == DType::Int32;
  if (is_int && a.n > kMaxInt32Elements) return cudaErrorInvalidValue;
  return with_kernel(a, [&](auto, int block, auto) {
    unsigned grid = 0;
    const cudaError_t err =
        capped_grid(stream_blocks_needed(a.n, block, a.unroll), kMaxBlocks, &grid);
    if (err != cudaSuccess) return err;
    *plan = LaunchPlan{};
    plan->grid = grid;
    plan->partial_count = 0;  // the slots' sums travel in atomics; nothing to finish
    plan->input_capacity = a.n;
    plan->scratch_bytes = kFinishScratchBytes;
    plan->needs_finish = false;
    return cudaSuccess;
  });
}

cudaError_t launch_single_pass(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input) || p.grid == 0 || a.scratch == nullptr || p.grid > kMaxBlocks ||
      p.scratch_bytes < kFinishScratchBytes) {
    return cudaErrorInvalidValue;
  }
  return with_kernel(a, [&](auto kernel, int block, auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    kernel<<<p.grid, block, 0, a.stream>>>(static_cast<const T*>(a.input), a.n,
                                           static_cast<A*>(a.result),
                                           static_cast<char*>(a.scratch));
    return cudaGetLastError();
  });
}

}  // namespace rl::kernels::modern
