// Instrumented classic-ladder kernels (see instrumented.h for what is recorded and how).
// Each kernel below is its counterpart in seed_ladder.cu / seed_warp.cu with a Recorder call
// at every step: a ballot of the step's condition before it, a snapshot of the workspace after.
#include "common.cuh"
#include "dispatch.cuh"
#include "instrumented_record.cuh"
#include "kernels/instrumented.h"

namespace rl::kernels {
namespace {

using instrumented::RecordBuffers;
using instrumented::Recorder;

// common.cuh's load_pre_reduced with U at run time: the same adds in the same order.
template <typename T>
__device__ T load_pre_reduced_rt(const T* x, std::size_t n, unsigned U) {
  const std::size_t idx = static_cast<std::size_t>(blockIdx.x) * U * blockDim.x + threadIdx.x;
  T sum = idx < n ? x[idx] : T(0);
  for (unsigned k = 1; k < U; ++k) {
    const std::size_t i = idx + static_cast<std::size_t>(k) * blockDim.x;
    sum += i < n ? x[i] : T(0);
  }
  return sum;
}

// common.cuh's prepare_workspace; the load step is recorded when it writes the workspace.
template <typename T>
__device__ T* prepare(T* input, std::size_t n, Workspace w, unsigned U, Recorder<T>& rec) {
  T* tile = input + static_cast<std::size_t>(blockIdx.x) * U * blockDim.x;
  T* ws = w == Workspace::Shared ? detail::dynamic_smem<T>() : tile;
  const bool load_step = w == Workspace::Shared || U > 1;
  if (load_step) {
    rec.mask(rec.step, true);
    const T sum = load_pre_reduced_rt(input, n, U);
    ws[threadIdx.x] = sum;
  }
  __syncthreads();
  if (load_step) rec.snapshot(ws);
  return ws;
}

template <typename T>
__device__ void tree_step(T* ws, bool cond, unsigned dst, unsigned stride, Recorder<T>& rec) {
  rec.mask(rec.step, cond);
  if (cond) ws[dst] += ws[dst + stride];
  __syncthreads();
  rec.snapshot(ws);
}

template <bool Volatile, typename T>
__device__ void last_warp(T* ws, unsigned tid, Recorder<T>& rec) {
  if (tid < 32) {
    if constexpr (Volatile) {
      volatile T* v = ws;
      for (unsigned offset = 32, s = rec.step; offset > 0; offset >>= 1, ++s) {
        rec.mask(s, true);
        v[tid] += v[tid + offset];
        rec.value(s, tid, v[tid]);
      }
    } else {
      T v = ws[tid];
      for (unsigned offset = 32, s = rec.step; offset > 0; offset >>= 1, ++s) {
        rec.mask(s, true);
        v += ws[tid + offset];
        __syncwarp();
        ws[tid] = v;
        __syncwarp();
        rec.value(s, tid, v);
      }
    }
  }
  rec.step += 6;  // warps 1.. skip the six steps (they record nothing: "exited")
}

template <typename T>
__device__ void write_partial(const T* ws, typename Accum<T>::type* partials, Recorder<T>& rec) {
  rec.mask(rec.step, threadIdx.x == 0);
  detail::write_partial(ws, partials);
  ++rec.step;
  rec.finish();
}

template <typename T>
__global__ void neighbored(T* in, std::size_t n, typename Accum<T>::type* out, Workspace w,
                           unsigned U, bool less, RecordBuffers rb) {
  Recorder<T> rec(rb);
  T* ws = prepare(in, n, w, U, rec);
  const unsigned tid = threadIdx.x;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (less) {
      const unsigned index = 2 * stride * tid;
      tree_step(ws, index < blockDim.x, index, stride, rec);
    } else {
      tree_step(ws, tid % (2 * stride) == 0, tid, stride, rec);
    }
  }
  write_partial(ws, out, rec);
}

template <typename T>
__global__ void interleaved(T* in, std::size_t n, typename Accum<T>::type* out, Workspace w,
                            unsigned U, RecordBuffers rb) {
  Recorder<T> rec(rb);
  T* ws = prepare(in, n, w, U, rec);
  const unsigned tid = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1)
    tree_step(ws, tid < stride, tid, stride, rec);
  write_partial(ws, out, rec);
}

template <typename T, bool Volatile>
__global__ void unroll_warp(T* in, std::size_t n, typename Accum<T>::type* out, Workspace w,
                            unsigned U, RecordBuffers rb) {
  Recorder<T> rec(rb);
  T* ws = prepare(in, n, w, U, rec);
  const unsigned tid = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1)
    tree_step(ws, tid < stride, tid, stride, rec);
  last_warp<Volatile>(ws, tid, rec);
  write_partial(ws, out, rec);
}

// The blockDim.x if-chain: every barrier runs, false steps included.
template <typename T, bool Volatile>
__global__ void complete_unroll_warp(T* in, std::size_t n, typename Accum<T>::type* out,
                                     Workspace w, unsigned U, RecordBuffers rb) {
  Recorder<T> rec(rb);
  T* ws = prepare(in, n, w, U, rec);
  const unsigned tid = threadIdx.x;
  tree_step(ws, blockDim.x >= 1024 && tid < 512, tid, 512, rec);
  tree_step(ws, blockDim.x >= 512 && tid < 256, tid, 256, rec);
  tree_step(ws, blockDim.x >= 256 && tid < 128, tid, 128, rec);
  tree_step(ws, blockDim.x >= 128 && tid < 64, tid, 64, rec);
  last_warp<Volatile>(ws, tid, rec);
  write_partial(ws, out, rec);
}

// The template block size: steps that do not apply are compiled out with their barriers.
template <typename T, bool Volatile, int B>
__global__ void __launch_bounds__(B)
    complete_unroll(T* in, std::size_t n, typename Accum<T>::type* out, Workspace w, unsigned U,
                    RecordBuffers rb) {
  Recorder<T> rec(rb);
  T* ws = prepare(in, n, w, U, rec);
  const unsigned tid = threadIdx.x;
  if constexpr (B >= 1024) tree_step(ws, tid < 512, tid, 512, rec);
  if constexpr (B >= 512) tree_step(ws, tid < 256, tid, 256, rec);
  if constexpr (B >= 256) tree_step(ws, tid < 128, tid, 128, rec);
  if constexpr (B >= 128) tree_step(ws, tid < 64, tid, 64, rec);
  last_warp<Volatile>(ws, tid, rec);
  write_partial(ws, out, rec);
}

template <typename T>
cudaError_t launch_instrumented(const MaskRecordingRequest& r, unsigned grid, void* input,
                                void* partials, const RecordBuffers& rb) {
  using P = typename Accum<T>::type;
  T* in = static_cast<T*>(input);
  P* out = static_cast<P*>(partials);
  const unsigned B = static_cast<unsigned>(r.block_size), U = static_cast<unsigned>(r.unroll);
  const std::size_t smem = r.workspace == Workspace::Shared ? sizeof(T) * B : 0;
  const Workspace w = r.workspace;
  switch (r.kernel) {
    case KernelId::Neighbored:
    case KernelId::NeighboredLess:
      neighbored<T>
          <<<grid, B, smem>>>(in, r.n, out, w, U, r.kernel == KernelId::NeighboredLess, rb);
      break;
    case KernelId::Interleaved:
    case KernelId::Unroll:
      interleaved<T><<<grid, B, smem>>>(in, r.n, out, w, U, rb);
      break;
    case KernelId::UnrollWarpVolatile:
      unroll_warp<T, true><<<grid, B, smem>>>(in, r.n, out, w, U, rb);
      break;
    case KernelId::UnrollWarpSync:
      unroll_warp<T, false><<<grid, B, smem>>>(in, r.n, out, w, U, rb);
      break;
    case KernelId::CompleteUnrollWarpVolatile:
      complete_unroll_warp<T, true><<<grid, B, smem>>>(in, r.n, out, w, U, rb);
      break;
    case KernelId::CompleteUnrollWarpSync:
      complete_unroll_warp<T, false><<<grid, B, smem>>>(in, r.n, out, w, U, rb);
      break;
    case KernelId::CompleteUnrollVolatile:
    case KernelId::CompleteUnrollSync: {
      const bool vol = r.kernel == KernelId::CompleteUnrollVolatile;
      return detail::with_block_size(r.block_size, [&](auto b) -> cudaError_t {
        constexpr int BS = decltype(b)::value;
        if constexpr (BS < 64) {
          return cudaErrorInvalidValue;
        } else {
          if (vol)
            complete_unroll<T, true, BS><<<grid, BS, smem>>>(in, r.n, out, w, U, rb);
          else
            complete_unroll<T, false, BS><<<grid, BS, smem>>>(in, r.n, out, w, U, rb);
          return cudaGetLastError();
        }
      });
    }
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

std::string check_request(const MaskRecordingRequest& r) {
  const int k = static_cast<int>(r.kernel);
  if (k < 0 || k > static_cast<int>(KernelId::CompleteUnrollSync))
    return "not a classic-ladder kernel";
  if (!detail::is_pow2_block(r.block_size))
    return "block size must be a power of two from 32 to 1024";
  if (k >= static_cast<int>(KernelId::UnrollWarpVolatile) && r.block_size < 64)
    return "the last-warp kernels need at least 64 threads";
  if (r.unroll != 1 && r.unroll != 2 && r.unroll != 4 && r.unroll != 8 && r.unroll != 16)
    return "unroll must be 1, 2, 4, 8 or 16";
  if (r.workspace == Workspace::Registers) return "the ladder reduces in global or shared memory";
  return instrumented::check_input_and_blocks(r);
}

}  // namespace

cudaError_t record_ladder_masks(const MaskRecordingRequest& r, MaskRecording* out,
                                std::string* where) {
  std::string dummy;
  if (where == nullptr) where = &dummy;
  if (out == nullptr) return *where = "record_ladder_masks: no output", cudaErrorInvalidValue;
  if (const std::string bad = check_request(r); !bad.empty()) {
    *where = "record_ladder_masks: " + bad;
    return cudaErrorInvalidValue;
  }
  return instrumented::record_blocks(
      r,
      [&r](unsigned grid, void* input, void* partials, const RecordBuffers& rb) {
        return r.type == DType::Int32
                   ? launch_instrumented<std::int32_t>(r, grid, input, partials, rb)
                   : launch_instrumented<float>(r, grid, input, partials, rb);
      },
      out, where);
}

}  // namespace rl::kernels
