// SinglePass: the whole reduction in one launch.
//  phase 1: grid-stride loop of 16-byte loads, U in flight per thread, grid = resident blocks
//           (modern_stream.cuh), or fewer for a small input;
//  phase 2: block sum with warp shuffles;
//  phase 3: thread 0 stores the block's partial, __threadfence(), atomicAdd on a counter;
//  phase 4: the block that brings the counter to gridDim.x is the last one: it sums every
//           block's partial the same way, writes the total and resets the counter to 0.
// The idea: the second launch of a two-pass reduction costs a launch gap and a kernel that
// mostly waits; letting the last block to finish do that work removes both. Deterministic:
// the partials are summed in block order, not in arrival order.
//
// Scratch (zeroed once by the caller when it is allocated, never again): the counter, then the
// partials. The last block puts the counter back to 0, so the next launch starts clean.
#include "dispatch.cuh"
#include "modern_launchers.cuh"
#include "modern_stream.cuh"

namespace rl::kernels::modern {
namespace {

// The partials start here in scratch, past the counter, at an alignment any type accepts.
constexpr std::size_t kPartialsOffset = 256;

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    single_pass(const T* __restrict__ x, std::size_t n,
                typename Accum<T>::type* __restrict__ result,
                typename Accum<T>::type* block_partials, unsigned* counter) {
  using A = typename Accum<T>::type;
  __shared__ bool is_last;
  const A sum = block_sum_shfl(stream_thread_sum<T, B, U>(x, n), B / kWarp);
  if (threadIdx.x == 0) {
    block_partials[blockIdx.x] = sum;
    // Release: the partial reaches device scope before the counter can say it is there.
    __threadfence();
    is_last = atomicAdd(counter, 1u) == gridDim.x - 1;
    // Acquire: every other block fenced its partial before its increment, which we have seen.
    if (is_last) __threadfence();
  }
  __syncthreads();
  if (!is_last) return;
  // Phase 4. __ldcg reads L2, where the other SMs' partials are; this SM's L1 never held them.
  A acc = A(0);
  for (unsigned j = threadIdx.x; j < gridDim.x; j += B) acc += __ldcg(block_partials + j);
  acc = block_sum_shfl(acc, B / kWarp);
  if (threadIdx.x == 0) {
    *result = acc;
    *counter = 0;  // every block has counted; the next launch on the stream sees 0
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
  return with_kernel(a, [&](auto kernel, int block, auto) {
    unsigned grid = 0;
    const cudaError_t err = resident_grid(reinterpret_cast<const void*>(kernel), block,
                                          stream_blocks_needed(a.n, block, a.unroll), &grid);
    if (err != cudaSuccess) return err;
    *plan = LaunchPlan{};
    plan->grid = grid;
    plan->partial_count = 0;  // the block partials live in scratch; nothing to finish
    plan->input_capacity = a.n;
    plan->scratch_bytes = kPartialsOffset + std::size_t(grid) * accum_size(a.type);
    plan->needs_finish = false;
    return cudaSuccess;
  });
}

cudaError_t launch_single_pass(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input) || p.grid == 0 || a.scratch == nullptr ||
      p.scratch_bytes < kPartialsOffset + std::size_t(p.grid) * accum_size(a.type)) {
    return cudaErrorInvalidValue;
  }
  return with_kernel(a, [&](auto kernel, int block, auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    char* scratch = static_cast<char*>(a.scratch);
    kernel<<<p.grid, block, 0, a.stream>>>(
        static_cast<const T*>(a.input), a.n, static_cast<A*>(a.result),
        reinterpret_cast<A*>(scratch + kPartialsOffset), reinterpret_cast<unsigned*>(scratch));
    return cudaGetLastError();
  });
}

}  // namespace rl::kernels::modern
