// Instrumented warp-level kernels past the classic ladder (see instrumented.h for what is recorded
// and how). The kernel below is modern_warp.cu's warp_shuffle (block_sum_shfl), reduce_add_sync and
// cg_reduce in one body, the warp-level reduction picked at compile time, with a Recorder call
// at every step of the model's trace (engine/trace_modern.cpp): a ballot of the step's
// condition before it, each thread's register after it. Registers need no snapshot barrier,
// so the only __syncthreads() is the kernels' own (cg_reduce's block.sync() is one).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common.cuh"
#include "dispatch.cuh"
#include "instrumented_record.cuh"
#include "kernels/instrumented.h"
#include "kernels/lab.h"
#include "modern_common.cuh"

namespace rl::kernels {
namespace {

namespace cg = cooperative_groups;
using instrumented::RecordBuffers;
using instrumented::Recorder;
using modern::kFullMask;
using modern::kWarp;

enum class WarpOp { ShuffleDown, Redux, CgReduce };

// modern_warp.cu's warp_sum_redux. Below sm_80 the host refuses to launch (REDUX does not
// exist there); the branch only keeps the build valid for those targets.
__device__ __forceinline__ int redux_sum(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kFullMask, v);
#else
  return modern::warp_sum_shfl(v);
#endif
}

// One warp-level reduction, called by all 32 lanes of a warp; records its steps from rec.step
// on (five shuffle steps, or one REDUX step) and returns the lane's register.
template <WarpOp Op, typename T>
__device__ T warp_level(T v, const cg::thread_block_tile<kWarp>& tile, Recorder<T>& rec) {
  if constexpr (Op == WarpOp::Redux) {
    rec.mask(rec.step, true);
    v = redux_sum(v);
    rec.value(rec.step++, threadIdx.x, v);
    return v;
  } else {
    // cg::reduce runs as one call; its result replaces the last butterfly step (see
    // instrumented.h), so what is recorded there, and what the kernel goes on with, is the
    // library's own answer.
    T library = T(0);
    if constexpr (Op == WarpOp::CgReduce) library = cg::reduce(tile, v, cg::plus<T>());
    for (int offset = kWarp / 2; offset > 0; offset >>= 1) {
      rec.mask(rec.step, true);
      if constexpr (Op == WarpOp::ShuffleDown) {
        v += __shfl_down_sync(kFullMask, v, offset);  // modern_common.cuh's warp_sum_shfl
      } else {
        v = v + tile.shfl_xor(v, offset);  // coalesced_reduce.h: out = op(out, shfl_xor(out, m))
        if (offset == 1) v = library;
      }
      rec.value(rec.step++, threadIdx.x, v);
    }
    return v;
  }
}

template <WarpOp Op>
constexpr unsigned level_steps() {
  return Op == WarpOp::Redux ? 1u : 5u;
}

template <WarpOp Op, typename T, int U>
__global__ void __launch_bounds__(1024)
    warp_family(const T* __restrict__ x, std::size_t n, typename Accum<T>::type* partials,
                RecordBuffers rb) {
  __shared__ T warp_sums[kWarp];
  Recorder<T> rec(rb);
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<kWarp> tile = cg::tiled_partition<kWarp>(block);
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const unsigned nwarps = blockDim.x / kWarp;

  rec.mask(rec.step, true);  // load: every thread pre-reduces its U elements
  T v = detail::load_pre_reduced<U>(x, n);
  rec.value(rec.step++, threadIdx.x, v);

  v = warp_level<Op>(v, tile, rec);
  if (nwarps > 1) {
    rec.mask(rec.step, lane == 0);  // warp_sums: lane 0 of each warp stores its sum
    if (lane == 0) warp_sums[warp] = v;
    rec.value(rec.step++, threadIdx.x, v);
    __syncthreads();
    if (warp == 0) {
      rec.mask(rec.step, true);  // gather: warp 0 loads the warp sums, zeros past nwarps
      v = lane < nwarps ? warp_sums[lane] : T(0);
      rec.value(rec.step++, threadIdx.x, v);
      v = warp_level<Op>(v, tile, rec);
    } else {
      rec.step += 1 + level_steps<Op>();  // warps 1.. skip warp 0's steps: "exited" there
    }
  }
  rec.mask(rec.step, threadIdx.x == 0);  // write_partial
  if (threadIdx.x == 0) partials[blockIdx.x] = static_cast<typename Accum<T>::type>(v);
  rec.value(rec.step++, threadIdx.x, v);
  rec.finish();
}

// The divergence lab's map kernel (lab_divergence.cu) with the same recording: load, then the
// model's map steps (engine/trace_labs.cpp: path A and path B, each a ballot of "this lane
// takes the path", plus select_costly's select; one "map" step for the one-body kernels), then
// warp_shuffle's block sum as above. The paths are the kernels' own functions (kernels/lab.h).
template <KernelId K>
__global__ void __launch_bounds__(1024)
    branch_lab_recorded(const std::int32_t* __restrict__ x, std::size_t n, long long* partials,
                        int knob, RecordBuffers rb) {
  __shared__ std::int32_t warp_sums[kWarp];
  Recorder<std::int32_t> rec(rb);
  const cg::thread_block_tile<kWarp> tile = cg::tiled_partition<kWarp>(cg::this_thread_block());
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const unsigned nwarps = blockDim.x / kWarp;
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool in = i < n;
  const int xv = in ? x[i] : 0;
  rec.mask(rec.step, in);  // load
  std::int32_t v = xv;
  rec.value(rec.step++, threadIdx.x, v);
  constexpr bool select = K == KernelId::SelectCostly;
  constexpr bool two_paths = K == KernelId::BranchDivergent || K == KernelId::BranchUniform ||
                             K == KernelId::BranchData || K == KernelId::BranchPartitioned ||
                             K == KernelId::IfElseCostly || select;
  if constexpr (two_paths) {
    const bool b = !select && lab::branch_takes_b(K, xv, threadIdx.x, knob);
    rec.mask(rec.step, in && (select || !b));  // path A
    if (in && !select && !b) v = lab::costly_a(xv);
    rec.value(rec.step++, threadIdx.x, v);
    rec.mask(rec.step, in && (select || b));  // path B
    if (in && !select && b) v = lab::costly_b(xv);
    rec.value(rec.step++, threadIdx.x, v);
  }
  if constexpr (!two_paths || select) {
    rec.mask(rec.step, in);  // map (or select_costly's select)
    if (in) v = lab::branch_value(K, xv, threadIdx.x, knob);
    rec.value(rec.step++, threadIdx.x, v);
  }
  v = warp_level<WarpOp::ShuffleDown>(v, tile, rec);
  if (nwarps > 1) {
    rec.mask(rec.step, lane == 0);  // warp_sums
    if (lane == 0) warp_sums[warp] = v;
    rec.value(rec.step++, threadIdx.x, v);
    __syncthreads();
    if (warp == 0) {
      rec.mask(rec.step, true);  // gather
      v = lane < nwarps ? warp_sums[lane] : 0;
      rec.value(rec.step++, threadIdx.x, v);
      v = warp_level<WarpOp::ShuffleDown>(v, tile, rec);
    } else {
      rec.step += 1 + level_steps<WarpOp::ShuffleDown>();
    }
  }
  rec.mask(rec.step, threadIdx.x == 0);  // write_partial
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
  rec.value(rec.step++, threadIdx.x, v);
  rec.finish();
}

bool is_branch_lab(KernelId k) {
  return int(k) >= int(KernelId::BranchDivergent) && int(k) <= int(KernelId::AbsBitTrick);
}

cudaError_t launch_branch_lab(const MaskRecordingRequest& r, unsigned grid, const void* input,
                              void* partials, const RecordBuffers& rb) {
  const auto* in = static_cast<const std::int32_t*>(input);
  auto* out = static_cast<long long*>(partials);
  switch (r.kernel) {
#define RL_RECORDED_LAB(K)                                                                \
  case KernelId::K:                                                                       \
    branch_lab_recorded<KernelId::K><<<grid, r.block_size>>>(in, r.n, out, r.unroll, rb); \
    return cudaGetLastError();
    RL_RECORDED_LAB(BranchDivergent)
    RL_RECORDED_LAB(BranchUniform)
    RL_RECORDED_LAB(BranchData)
    RL_RECORDED_LAB(BranchPartitioned)
    RL_RECORDED_LAB(IfElseCheap)
    RL_RECORDED_LAB(SelectCheap)
    RL_RECORDED_LAB(IfElseCostly)
    RL_RECORDED_LAB(SelectCostly)
    RL_RECORDED_LAB(LoopInvariantInside)
    RL_RECORDED_LAB(LoopInvariantHoisted)
    RL_RECORDED_LAB(AbsBranch)
    RL_RECORDED_LAB(AbsBitTrick)
#undef RL_RECORDED_LAB
    default:
      return cudaErrorInvalidValue;
  }
}

template <WarpOp Op, typename T>
cudaError_t launch_op(const MaskRecordingRequest& r, unsigned grid, const void* input,
                      void* partials, const RecordBuffers& rb) {
  const T* in = static_cast<const T*>(input);
  auto* out = static_cast<typename Accum<T>::type*>(partials);
  return detail::with_unroll(r.unroll, [&](auto u) -> cudaError_t {
    constexpr int U = decltype(u)::value;
    warp_family<Op, T, U><<<grid, r.block_size>>>(in, r.n, out, rb);
    return cudaGetLastError();
  });
}

cudaError_t launch_instrumented(const MaskRecordingRequest& r, unsigned grid, const void* input,
                                void* partials, const RecordBuffers& rb) {
  const bool i32 = r.type == DType::Int32;
  if (is_branch_lab(r.kernel))
    return i32 ? launch_branch_lab(r, grid, input, partials, rb) : cudaErrorInvalidValue;
  switch (r.kernel) {
    case KernelId::WarpShuffle:
      return i32 ? launch_op<WarpOp::ShuffleDown, std::int32_t>(r, grid, input, partials, rb)
                 : launch_op<WarpOp::ShuffleDown, float>(r, grid, input, partials, rb);
    case KernelId::CgReduce:
      return i32 ? launch_op<WarpOp::CgReduce, std::int32_t>(r, grid, input, partials, rb)
                 : launch_op<WarpOp::CgReduce, float>(r, grid, input, partials, rb);
    case KernelId::ReduceAddSync:
      return i32 ? launch_op<WarpOp::Redux, std::int32_t>(r, grid, input, partials, rb)
                 : cudaErrorInvalidValue;
    default:
      return cudaErrorInvalidValue;
  }
}

std::string check_request(const MaskRecordingRequest& r) {
  if (is_branch_lab(r.kernel)) {
    if (!accepts_launch(r.kernel, r.block_size, r.unroll, r.type, r.workspace))
      return "the divergence lab takes int32, registers, blocks of 32..1024 and its own factors";
    return instrumented::check_input_and_blocks(r);
  }
  if (r.kernel != KernelId::WarpShuffle && r.kernel != KernelId::ReduceAddSync &&
      r.kernel != KernelId::CgReduce)
    return "not a warp-level kernel (warp_shuffle, reduce_add_sync, cg_reduce)";
  if (!detail::is_pow2_block(r.block_size))
    return "block size must be a power of two from 32 to 1024";
  if (r.unroll != 1 && r.unroll != 2 && r.unroll != 4 && r.unroll != 8 && r.unroll != 16)
    return "unroll must be 1, 2, 4, 8 or 16";
  if (r.workspace != Workspace::Registers) return "the warp-level kernels work in registers";
  if (r.kernel == KernelId::ReduceAddSync && r.type != DType::Int32)
    return "reduce_add_sync takes int32 only (REDUX has no float form)";
  return instrumented::check_input_and_blocks(r);
}

}  // namespace

cudaError_t record_warp_masks(const MaskRecordingRequest& r, MaskRecording* out,
                              std::string* where) {
  std::string dummy;
  if (where == nullptr) where = &dummy;
  if (out == nullptr) return *where = "record_warp_masks: no output", cudaErrorInvalidValue;
  if (const std::string bad = check_request(r); !bad.empty()) {
    *where = "record_warp_masks: " + bad;
    return cudaErrorInvalidValue;
  }
  if (r.kernel == KernelId::ReduceAddSync) {
    int device = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
      e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess)
      e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (e != cudaSuccess) return *where = "record_warp_masks: compute capability", e;
    if (major < 8) {
      *where = "record_warp_masks: reduce_add_sync needs sm_80 or newer (this GPU is sm_" +
               std::to_string(major) + std::to_string(minor) + ")";
      return cudaErrorInvalidDeviceFunction;
    }
  }
  return instrumented::record_blocks(
      r,
      [&r](unsigned grid, void* input, void* partials, const RecordBuffers& rb) {
        return launch_instrumented(r, grid, input, partials, rb);
      },
      out, where);
}

}  // namespace rl::kernels
