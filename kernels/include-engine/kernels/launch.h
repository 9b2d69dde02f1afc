// Host-side interface of the kernels library: which kernels exist, how a launch is planned,
// and one entry point per phase (first kernel, finishing pass). Plain C++ with the CUDA runtime
// types only, so the engine (compiled by the host compiler) can include it.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/ids.h"

#include <cstddef>
#include <cstdint>

namespace rl::kernels {

// Partial-sum type of a data type: int32 partials are 64-bit so no N that fits on a GPU can
// overflow the total; float32 partials stay float (what every GPU float reduction does).
template <typename T>
struct Accum;
template <>
struct Accum<int32_t> {
  using type = long long;
};
template <>
struct Accum<float> {
  using type = float;
};

// Bytes of one partial (Accum entry) of a type.
inline std::size_t accum_size(DType t) {
  return t == DType::Int32 ? 8 : 4;
}

// What a launch of (kernel, n, block size, unroll, type) needs. Computed on the host; may query
// the current device (occupancy), so call it on the thread that owns the device.
struct LaunchPlan {
  unsigned grid = 0;               // blocks of the first kernel
  std::size_t partial_count = 0;   // Accum entries the first kernel writes (0: single pass)
  std::size_t input_capacity = 0;  // elements the input buffer must hold (>= n; zero padded)
  std::size_t scratch_bytes = 0;   // extra device memory (CUB temp storage, counters)
  bool has_first_kernel = true;    // false: only the whole reduction can be timed (CUB device)
  bool needs_finish = true;        // false: the first kernel already writes the total
  // true: the total stays in the scratch (the epoch pass, epoch_total.h) and args.result is not
  // written; read it with read_total.
  bool total_in_scratch = false;
};

struct LaunchArgs {
  KernelId kernel = KernelId::Interleaved;
  DType type = DType::Int32;
  Workspace workspace = Workspace::Global;
  int block_size = 256;
  int unroll = 1;
  std::size_t n = 0;
  void* input = nullptr;     // input_capacity elements; overwritten by Workspace::Global
  void* partials = nullptr;  // partial_count Accum entries
  void* result = nullptr;    // one Accum entry: the total
  void* scratch = nullptr;   // scratch_bytes
  cudaStream_t stream = nullptr;
  // The epoch pass: the launches so far on `scratch`, kept by whoever keeps the scratch (0 or
  // any count once the scratch is zeroed). The launch passes it to the kernel, which adds into
  // accumulator *epoch % 2 and zeroes the other one for the next launch, and adds 1 to it when
  // the launch is enqueued (not when it is captured into a graph). Consecutive launches on one
  // scratch must see consecutive counts: launch the same scratch through one counter. nullptr:
  // launch_first refuses the epoch pass (cudaErrorInvalidValue).
  std::uint32_t* epoch = nullptr;
  // KernelId::User: the compiled kernel (a cudaKernel_t from cudaLibraryGetKernel), and the grid
  // it declares: 0 for one block per tile of block_size x unroll elements, else this many blocks
  // per SM (a grid-stride kernel), sm_count giving the SMs; and whether it adds the whole total
  // into its partials argument itself (then that argument is the zeroed result, no finishing).
  const void* user_kernel = nullptr;
  // The rows and columns kernels (is_segmented_kernel): the matrix's shape, rows * cols == n,
  // row-major. Their plan has partial_count = rows (or cols for reduces_columns), no finishing
  // pass and no separate first kernel: launch_first writes every row's (column's) sum to
  // partials, in order, using scratch for a split's own partial sums.
  std::size_t rows = 0, cols = 0;
  int user_blocks_per_sm = 0;
  bool user_writes_total = false;
  int sm_count = 0;
};

// Fills a plan. Returns cudaErrorInvalidValue for a combination the kernel does not take
// (the engine's catalog and spec validation say why before it gets here).
cudaError_t plan_launch(const LaunchArgs& args, LaunchPlan* plan);

// Launches the first kernel (the one the classic ladder times): input -> partials (or -> result
// when plan.needs_finish is false). Asynchronous on args.stream.
cudaError_t launch_first(const LaunchArgs& args, const LaunchPlan& plan);

// Reduces plan.partial_count partials to args.result with the finishing kernel (one block,
// see finish.cu). No-op when plan.needs_finish is false.
cudaError_t launch_finish(const LaunchArgs& args, const LaunchPlan& plan);

// Copies the total of the latest launch on args.stream into `host` (one Accum entry: int64 or
// float) and waits for it: from args.result, or from the scratch where plan.total_in_scratch.
cudaError_t read_total(const LaunchArgs& args, const LaunchPlan& plan, void* host);

// Leaves L2 cold and clean before a timed sample by reading `buffer` (zero-filled once by the
// caller, at least twice the L2 size): no input line and no dirty line is left behind.
cudaError_t flush_l2(void* buffer, std::size_t bytes, cudaStream_t stream);

// The streaming-read floor (read_floor.cu): a kernel that only reads `bytes` of `input` (16-byte
// aligned, as cudaMalloc gives) in one of a few grid shapes: blocks walk tiles of block_size x
// unroll vectors; one block per tile, capped at sm_count x blocks_per_sm and at max_blocks where
// those are not 0. `sink` is a scratch word (written only if the data sums to 0x7fffffff).
struct ReadFloorShape {
  int block_size = 256;
  int unroll = 1;
  int blocks_per_sm = 0;
  int max_blocks = 0;
};
int read_floor_shape_count();
ReadFloorShape read_floor_shape(int i);
unsigned read_floor_grid(const ReadFloorShape& s, std::size_t bytes, int sm_count);
cudaError_t launch_read_floor(const void* input, std::size_t bytes, int shape, int sm_count,
                              int* sink, cudaStream_t stream);

// Block size and per-thread loop of the finishing kernel, shared with the host model so its
// total equals the GPU's bit for bit.
inline constexpr int kFinishBlockSize = 1024;

}  // namespace rl::kernels
