// SinglePass: the whole reduction in one launch, one tile per block.
//  phase 1: block b reads tile b: B x U 16-byte vectors, one contiguous chunk of B*U*16 bytes;
//           thread t issues its U loads (vectors t, t + B, ..., t + (U-1)B of the tile, each
//           load instruction of the block covers B*16 contiguous bytes) before any addition.
//           There are as many blocks as tiles (up to 16384, see kMaxInt32Blocks): the hardware
//           block scheduler hands the next tile to whichever SM frees a slot first, so the SMs
//           that stream faster take more tiles. A grid-stride split (modern_stream.cuh) gives
//           every block the same share and waits for the slowest one.
//  phase 2: block sum with warp shuffles (modern_common.cuh).
//  phase 3, int32: thread 0 adds (1 << 48) + the block sum to one 64-bit word with a single
//           atomicAdd: the high 16 bits count the blocks that are done, the low 48 bits hold
//           their sum. The block whose atomicAdd returns the count gridDim.x - 1 is the last;
//           the returned word plus its own holds every block's sum: it writes the total and
//           puts the word back to 0. No partials array, no fence, no second atomic, no second
//           barrier: the data travels in the atomic that also counts.
//  phase 3, float32: float addition is not associative, and the total must be the same bits
//           on every run, so the blocks store partials and count with a fence and an atomic;
//           the last block sums the partials in block order.
// The idea: the second launch of a two-pass reduction costs a launch gap and a kernel that
// mostly waits; letting the last block to finish do that work removes both.
//
// Scratch (zeroed once by the caller when it is allocated, never again): the counting word at
// offset 0, the float partials at kPartialsOffset. The last block puts the word back to 0, so
// the next launch on the stream starts clean.
#include <type_traits>

#include "dispatch.cuh"
#include "modern_launchers.cuh"
#include "modern_stream.cuh"

namespace rl::kernels::modern {
namespace {

constexpr std::size_t kPartialsOffset = 256;

// The int32 counting word: count in bits 48..63, sum in bits 0..47. The sum field holds any
// total of the input contract (values in [0, 255]) up to 2^40 elements (255 * 2^40 < 2^48),
// far more than fits on a GPU; the count field holds up to 65535 blocks.
constexpr int kCountShift = 48;
constexpr unsigned long long kSumMask = (1ull << kCountShift) - 1;
constexpr std::size_t kMaxInt32Elements = std::size_t(1) << 40;
// At most this many blocks (int32); past it, blocks walk several tiles. Every block pays its
// launch and the round trip of its counting atomic, whose return it waits for before its slot
// frees. Measured on the H200 at 2^28 int32 with one tile per block (harness, cold L2,
// 2026-11-29): 8192 blocks of 128 KB 242.9 us, 16384 of 64 KB 240.9-242.2 us, 32768 of 32 KB
// 250-251 us, 65536 of 16 KB 260-270 us, 262143 of 2-4 KB 475-520 us (and 5-10% apart from one
// run to the next). With this cap every (B, U) built reads 2^28 in 241-257 us (two runs).
constexpr std::size_t kMaxInt32Blocks = 16384;
// float32: the last block reads every partial; past this many, blocks walk several tiles.
constexpr std::size_t kMaxFloatBlocks = 4096;

// Phase 1. The input is nv = n / 4 vectors in tiles of B * U; block b takes tiles b, b + grid,
// ... (one tile when the grid is the tile count, the default for int32). The one block whose
// walk ends on the partial last tile reads it with guarded loads; the n % 4 scalars past the
// last whole vector go to the first threads of block 0. int32: a tile's 4U values per thread
// are summed in int32 (<= 32 * 255), then into the 64-bit running sum.
//
// Loads: __ldg (ld.global.nc, the read-only path; what CUB uses on sm_90). Measured against
// __ldcs (evict-first) and ld.global.nc.L1::no_allocate with ncu on a clean L2 (2026-11-29):
// within 3% of each other at 2^24..2^28, no consistent winner (2^28 B=512 U=4: 230.9, 231.4,
// 231.0 us).
template <typename T, int B, int U>
__device__ __forceinline__ typename Accum<T>::type tile_thread_sum(const T* __restrict__ x,
                                                                   std::size_t n) {
  using A = typename Accum<T>::type;
  using V = typename Vec4<T>::type;
  constexpr std::size_t kTile = std::size_t(B) * U;
  const V* __restrict__ xv = reinterpret_cast<const V*>(x);
  const std::size_t nv = n / 4;
  const std::size_t full_tiles = nv / kTile;
  A acc = A(0);
  std::size_t t = blockIdx.x;
  for (; t < full_tiles; t += gridDim.x) {
    const V* p = xv + t * kTile + threadIdx.x;
    V v[U];
#pragma unroll
    for (int k = 0; k < U; ++k) v[k] = __ldg(p + k * B);
    T s = lanes_sum(v[0]);
#pragma unroll
    for (int k = 1; k < U; ++k) s += lanes_sum(v[k]);
    acc += s;
  }
  if (t == full_tiles) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const std::size_t i = full_tiles * kTile + threadIdx.x + std::size_t(k) * B;
      if (i < nv) acc += lanes_sum(__ldg(xv + i));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < n % 4) acc += x[nv * 4 + threadIdx.x];
  return acc;
}

// Phase 3, int32 (see the top of the file). Thread 0 only.
__device__ __forceinline__ void finish_counted(long long block_sum, long long* result,
                                               unsigned long long* word) {
  const unsigned long long mine =
      (1ull << kCountShift) + static_cast<unsigned long long>(block_sum);
  const unsigned long long before = atomicAdd(word, mine);
  if ((before >> kCountShift) == gridDim.x - 1) {
    *result = static_cast<long long>((before + mine) & kSumMask);
    *word = 0;  // every block has counted; the next launch on the stream sees 0
  }
}

// Phase 3, float32: partials, release fence, counter; the last block (acquire fence) sums the
// partials in block order. __ldcg reads L2, where the other SMs' partials are.
template <int B>
__device__ __forceinline__ void finish_in_order(float block_sum, float* result, float* partials,
                                                unsigned* counter) {
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_sum;
    __threadfence();
    is_last = atomicAdd(counter, 1u) == gridDim.x - 1;
    if (is_last) __threadfence();
  }
  __syncthreads();
  if (!is_last) return;
  float acc = 0.0f;
  for (unsigned j = threadIdx.x; j < gridDim.x; j += B) acc += __ldcg(partials + j);
  acc = block_sum_shfl(acc, B / kWarp);
  if (threadIdx.x == 0) {
    *result = acc;
    *counter = 0;
  }
}

template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    single_pass(const T* __restrict__ x, std::size_t n,
                typename Accum<T>::type* __restrict__ result, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  A sum = tile_thread_sum<T, B, U>(x, n);
  sum = block_sum_shfl(sum, B / kWarp);
  if (gridDim.x == 1) {  // one block holds the total: no counting at all
    if (threadIdx.x == 0) *result = sum;
    return;
  }
  if constexpr (std::is_same_v<T, int32_t>) {
    if (threadIdx.x == 0)
      finish_counted(sum, result, reinterpret_cast<unsigned long long*>(scratch));
  } else {
    finish_in_order<B>(sum, result, reinterpret_cast<float*>(scratch + kPartialsOffset),
                       reinterpret_cast<unsigned*>(scratch));
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
    const cudaError_t err = capped_grid(stream_blocks_needed(a.n, block, a.unroll),
                                        is_int ? kMaxInt32Blocks : kMaxFloatBlocks, &grid);
    if (err != cudaSuccess) return err;
    *plan = LaunchPlan{};
    plan->grid = grid;
    plan->partial_count = 0;  // the float partials live in scratch; nothing to finish
    plan->input_capacity = a.n;
    plan->scratch_bytes = kPartialsOffset + (is_int ? 0 : std::size_t(grid) * sizeof(float));
    plan->needs_finish = false;
    return cudaSuccess;
  });
}

cudaError_t launch_single_pass(const LaunchArgs& a, const LaunchPlan& p) {
  const bool is_int = a.type == DType::Int32;
  if (!is_vector_aligned(a.input) || p.grid == 0 || a.scratch == nullptr ||
      p.grid > (is_int ? kMaxInt32Blocks : kMaxFloatBlocks) ||
      p.scratch_bytes < kPartialsOffset + (is_int ? 0 : std::size_t(p.grid) * sizeof(float))) {
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
