// Shared by the instrumented kernels (instrumented_ladder.cu, instrumented_warp.cu): the device
// buffers a recorded block writes its masks and values into, the per-thread Recorder that
// writes them, and the host side that allocates the buffers, launches one instrumented kernel
// and copies the records back into a MaskRecording (instrumented.h says what is recorded).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/instrumented.h"

namespace rl::kernels::instrumented {

struct RecordBuffers {
  const unsigned* blocks;  // recorded block ids
  unsigned block_count;
  std::uint32_t* acting;  // [slot][kMaxRecordedSteps][warps]
  std::uint32_t* present;
  void* values;  // [slot][kMaxRecordedSteps][B] of T
  std::uint8_t* written;
  unsigned* steps;  // the step count, written by thread 0 of each recorded block
};

template <typename T>
struct Recorder {
  RecordBuffers buf;
  int slot = -1;  // this block's record slot, -1 if not recorded
  unsigned step = 0;

  __device__ explicit Recorder(const RecordBuffers& b) : buf(b) {
    for (unsigned i = 0; i < b.block_count; ++i)
      if (b.blocks[i] == blockIdx.x) slot = static_cast<int>(i);
  }
  __device__ std::size_t at(unsigned s) const {
    return static_cast<std::size_t>(slot) * kMaxRecordedSteps + s;
  }
  // Called by all 32 lanes of a warp that reaches step s.
  __device__ void mask(unsigned s, bool cond) {
    const unsigned m = __ballot_sync(0xffffffffu, cond);
    if (slot >= 0 && (threadIdx.x & 31) == 0 && s < kMaxRecordedSteps) {
      const std::size_t i = at(s) * (blockDim.x / 32) + threadIdx.x / 32;
      buf.acting[i] = m;
      buf.present[i] = 0xffffffffu;
    }
  }
  __device__ void value(unsigned s, unsigned t, T v) {
    if (slot >= 0 && s < kMaxRecordedSteps) {
      const std::size_t i = at(s) * blockDim.x + t;
      static_cast<T*>(buf.values)[i] = v;
      buf.written[i] = 1;
    }
  }
  // After a block-wide step and its barrier: every thread saves ws[tid], then a barrier so
  // the next step cannot overwrite an element before its owner saved it. slot is uniform
  // across the block, so the barrier is too.
  __device__ void snapshot(const T* ws) {
    if (slot >= 0) {
      value(step, threadIdx.x, ws[threadIdx.x]);
      __syncthreads();
    }
    ++step;
  }
  __device__ void finish() {
    if (slot >= 0 && threadIdx.x == 0) buf.steps[slot] = step;
  }
};

// Device memory owned for one recording.
struct DeviceFree {
  void operator()(void* p) const { cudaFree(p); }
};
using DevicePtr = std::unique_ptr<void, DeviceFree>;

struct Allocator {
  std::string* where;
  cudaError_t err = cudaSuccess;
  DevicePtr alloc(std::size_t bytes, const char* what) {
    void* p = nullptr;
    if (err == cudaSuccess) {
      err = cudaMalloc(&p, bytes);
      if (err != cudaSuccess)
        *where = std::string("cudaMalloc(") + what + ", " + std::to_string(bytes) + " bytes)";
      else if ((err = cudaMemset(p, 0, bytes)) != cudaSuccess)
        *where = std::string("cudaMemset(") + what + ")";
    }
    return DevicePtr(p);
  }
};

// The checks every recording request shares, whatever the kernel family: input present, 1 to
// kMaxRecordedBlocks blocks, each inside the launch. Empty when fine.
// Elements a block of the request reads: B x U, but B for the labs, whose "unroll" is a knob
// (the data branch's k) and whose threads map one element each.
inline std::size_t block_tile(const MaskRecordingRequest& r) {
  return std::size_t(r.block_size) * (is_lab_kernel(r.kernel) ? 1 : r.unroll);
}

inline std::string check_input_and_blocks(const MaskRecordingRequest& r) {
  if (r.n == 0) return "n must be at least 1";
  if (r.host_input == nullptr) return "no input";
  if (r.blocks.empty() || r.blocks.size() > kMaxRecordedBlocks) return "record 1 to 8 blocks";
  const std::size_t tile = block_tile(r);
  for (unsigned b : r.blocks)
    if (std::size_t(b) * tile >= r.n) return "block " + std::to_string(b) + " is past the launch";
  return {};
}

// Copies the request's input to a zeroed device buffer of grid * B * U elements (grid =
// max(blocks) + 1), runs launch(grid, input, partials, buffers) -> cudaError_t, and copies the
// records back. The request is checked already.
template <typename Launch>
cudaError_t record_blocks(const MaskRecordingRequest& r, const Launch& launch, MaskRecording* out,
                          std::string* where) {
  const std::size_t tile = block_tile(r);
  unsigned last = 0;
  for (unsigned b : r.blocks) last = b > last ? b : last;
  const unsigned grid = last + 1;
  const std::size_t elems = std::size_t(grid) * tile;  // zero padded past n, as plan_launch
  const std::size_t have = r.n < elems ? r.n : elems;
  const std::size_t tsize = 4, psize = accum_size(r.type);
  const unsigned warps = static_cast<unsigned>(r.block_size) / 32, slots = r.blocks.size();
  const std::size_t records = std::size_t(slots) * kMaxRecordedSteps * warps;
  const std::size_t cells = std::size_t(slots) * kMaxRecordedSteps * r.block_size;

  Allocator a{where};
  DevicePtr input = a.alloc(elems * tsize, "input");
  DevicePtr partials = a.alloc(grid * psize, "partials");
  DevicePtr blocks = a.alloc(slots * sizeof(unsigned), "block list");
  DevicePtr acting = a.alloc(records * 4, "acting masks");
  DevicePtr present = a.alloc(records * 4, "present masks");
  DevicePtr values = a.alloc(cells * tsize, "values");
  DevicePtr written = a.alloc(cells, "written flags");
  DevicePtr steps = a.alloc(slots * sizeof(unsigned), "step counts");
  if (a.err != cudaSuccess) return a.err;
  auto check = [&](cudaError_t e, const char* call) {
    if (e != cudaSuccess && a.err == cudaSuccess) {
      a.err = e;
      *where = call;
    }
  };
  check(cudaMemcpy(input.get(), r.host_input, have * tsize, cudaMemcpyHostToDevice),
        "cudaMemcpy(input)");
  check(cudaMemcpy(blocks.get(), r.blocks.data(), slots * sizeof(unsigned), cudaMemcpyHostToDevice),
        "cudaMemcpy(block list)");
  if (a.err != cudaSuccess) return a.err;

  const RecordBuffers rb{static_cast<const unsigned*>(blocks.get()),
                         slots,
                         static_cast<std::uint32_t*>(acting.get()),
                         static_cast<std::uint32_t*>(present.get()),
                         values.get(),
                         static_cast<std::uint8_t*>(written.get()),
                         static_cast<unsigned*>(steps.get())};
  check(launch(grid, input.get(), partials.get(), rb), "instrumented kernel launch");
  check(cudaDeviceSynchronize(), "instrumented kernel (cudaDeviceSynchronize)");
  if (a.err != cudaSuccess) return a.err;

  MaskRecording m;
  m.warps = warps;
  m.block_size = static_cast<unsigned>(r.block_size);
  m.blocks = r.blocks;
  m.acting.resize(records);
  m.present.resize(records);
  m.written.resize(cells);
  std::vector<unsigned> step_counts(slots);
  std::vector<unsigned char> raw_values(cells * tsize), raw_partials(grid * psize);
  check(cudaMemcpy(m.acting.data(), acting.get(), records * 4, cudaMemcpyDeviceToHost),
        "cudaMemcpy(acting)");
  check(cudaMemcpy(m.present.data(), present.get(), records * 4, cudaMemcpyDeviceToHost),
        "cudaMemcpy(present)");
  check(cudaMemcpy(m.written.data(), written.get(), cells, cudaMemcpyDeviceToHost),
        "cudaMemcpy(written)");
  check(cudaMemcpy(raw_values.data(), values.get(), cells * tsize, cudaMemcpyDeviceToHost),
        "cudaMemcpy(values)");
  check(cudaMemcpy(raw_partials.data(), partials.get(), grid * psize, cudaMemcpyDeviceToHost),
        "cudaMemcpy(partials)");
  check(
      cudaMemcpy(step_counts.data(), steps.get(), slots * sizeof(unsigned), cudaMemcpyDeviceToHost),
      "cudaMemcpy(step counts)");
  if (a.err != cudaSuccess) return a.err;

  m.steps = step_counts[0];
  m.values.resize(cells);
  for (std::size_t i = 0; i < cells; ++i) {
    if (r.type == DType::Int32)
      m.values[i] = reinterpret_cast<const std::int32_t*>(raw_values.data())[i];
    else
      m.values[i] = reinterpret_cast<const float*>(raw_values.data())[i];
  }
  for (unsigned b : r.blocks) {
    if (r.type == DType::Int32)
      m.partials.push_back(double(reinterpret_cast<const long long*>(raw_partials.data())[b]));
    else
      m.partials.push_back(reinterpret_cast<const float*>(raw_partials.data())[b]);
  }
  *out = std::move(m);
  return cudaSuccess;
}

}  // namespace rl::kernels::instrumented
