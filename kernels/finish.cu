// The finishing pass: one block of kFinishBlockSize threads reduces the first kernel's partials
// to the total. Phase 1: each thread accumulates partials tid, tid + 1024, ... in order.
// Phase 2: an interleaved shared-memory tree. engine/block_model replays exactly this, so the
// host total equals the GPU total bit for bit, float included.
#include "dispatch.cuh"
#include "ladder_launchers.h"

namespace rl::kernels {
namespace {

template <typename P>
__global__ void __launch_bounds__(kFinishBlockSize)
    finish_partials(const P* __restrict__ partials, std::size_t m, P* __restrict__ result) {
  __shared__ P s[kFinishBlockSize];
  const unsigned tid = threadIdx.x;
  P acc = P(0);
  for (std::size_t i = tid; i < m; i += kFinishBlockSize) acc += partials[i];
  s[tid] = acc;
  __syncthreads();
  for (unsigned stride = kFinishBlockSize / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) *result = s[0];
}

}  // namespace

cudaError_t launch_finish_pass(const LaunchArgs& a, const LaunchPlan& p) {
  return detail::with_type(a.type, [&](auto t) {
    using P = typename Accum<typename decltype(t)::type>::type;
    finish_partials<P><<<1, kFinishBlockSize, 0, a.stream>>>(
        static_cast<const P*>(a.partials), p.partial_count, static_cast<P*>(a.result));
    return cudaGetLastError();
  });
}

}  // namespace rl::kernels
