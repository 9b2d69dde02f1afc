// VectorizedGridStride: the classic two-pass reduction done the modern way.
//  phase 1: grid-stride loop of 16-byte loads, U in flight per thread (modern_stream.cuh);
//           the grid is the number of blocks the GPU keeps resident (occupancy API x SMs),
//           so there is no tail of late blocks and as few partials as possible;
//  phase 2: block sum with warp shuffles (modern_common.cuh);
//  phase 3: thread 0 writes the block's partial; the common finishing pass (finish.cu) adds them.
// The idea: bytes in flight, not thread count, set the bandwidth of a streaming kernel.
#include "dispatch.cuh"
#include "modern_launchers.cuh"
#include "modern_stream.cuh"

namespace rl::kernels::modern {
namespace {

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    vectorized_grid_stride(const T* __restrict__ x, std::size_t n,
                           typename Accum<T>::type* __restrict__ partials) {
  using A = typename Accum<T>::type;
  const A sum = block_sum_shfl(stream_thread_sum<T, B, U>(x, n), B / kWarp);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// Calls f(kernel, B, T) for the instantiation a launch asks for.
template <typename F>
cudaError_t with_kernel(const LaunchArgs& a, F&& f) {
  return detail::with_type(a.type, [&](auto t) {
    using T = typename decltype(t)::type;
    return with_stream_block(a.block_size, [&](auto b) {
      constexpr int B = decltype(b)::value;
      return with_stream_vectors(a.unroll, [&](auto u) {
        return f(vectorized_grid_stride<T, B, decltype(u)::value>, B, t);
      });
    });
  });
}

}  // namespace

cudaError_t plan_vectorized(const LaunchArgs& a, LaunchPlan* plan) {
  if (a.workspace != Workspace::Registers) return cudaErrorInvalidValue;
  return with_kernel(a, [&](auto kernel, int block, auto) {
    unsigned grid = 0;
    const cudaError_t err = resident_grid(reinterpret_cast<const void*>(kernel), block,
                                          stream_blocks_needed(a.n, block, a.unroll), &grid);
    if (err != cudaSuccess) return err;
    *plan = LaunchPlan{};
    plan->grid = grid;
    plan->partial_count = grid;
    plan->input_capacity = a.n;
    return cudaSuccess;
  });
}

cudaError_t launch_vectorized(const LaunchArgs& a, const LaunchPlan& p) {
  if (!is_vector_aligned(a.input) || p.grid == 0) return cudaErrorInvalidValue;
  return with_kernel(a, [&](auto kernel, int block, auto t) {
    using T = typename decltype(t)::type;
    using A = typename Accum<T>::type;
    kernel<<<p.grid, block, 0, a.stream>>>(static_cast<const T*>(a.input), a.n,
                                           static_cast<A*>(a.partials));
    return cudaGetLastError();
  });
}

}  // namespace rl::kernels::modern
