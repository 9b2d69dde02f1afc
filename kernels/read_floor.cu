// The streaming-read floor: kernels that only read N 32-bit elements, the least any reduction of
// N elements can cost on this device. A device-to-device copy reads and writes, so it is no roof
// for a kernel that only reads; these are. Several grid shapes, because the best one changes
// with N: few large blocks hide DRAM latency at 2^28, one vector per thread wins at 2^16.
#include <algorithm>

#include "launch.h"

namespace rl::kernels {
namespace {

// Phases: (1) each thread walks the 16-byte vectors grid-stride, U loads in flight per step;
// (2) block 0 reads the scalar tail (the bytes past the last whole vector); (3) a store to a
// scratch word only when the sum equals `never` (the compiler cannot know it will not), so the
// loads stay.
template <int U>
__global__ void read_stream(const int4* __restrict__ in, std::size_t vectors,
                            const int* __restrict__ tail, int tail_count, int* sink,
                            unsigned never) {
  unsigned acc = 0;  // unsigned: wraps where int would overflow
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  for (; i + (U - 1) * stride < vectors; i += U * stride) {
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = in[i + u * stride];
#pragma unroll
    for (int u = 0; u < U; ++u) acc += unsigned(v[u].x) + v[u].y + v[u].z + v[u].w;
  }
  for (; i < vectors; i += stride) {
    const int4 v = in[i];
    acc += unsigned(v.x) + v.y + v.z + v.w;
  }
  if (blockIdx.x == 0 && threadIdx.x < tail_count) acc += unsigned(tail[threadIdx.x]);
  if (acc == never) *sink = int(acc);
}

constexpr ReadFloorShape kShapes[] = {
    {128, 1, 0},                // one vector per thread, as many blocks as that takes: small N
    {256, 1, 0}, {256, 4, 8},   // grid-stride, 8 blocks per SM, 4 loads in flight
    {512, 4, 4}, {1024, 2, 2},  // few large blocks: large N
};

template <int U>
void launch(const ReadFloorShape& s, unsigned grid, const int4* in, std::size_t vectors,
            const int* tail, int tail_count, int* sink, cudaStream_t stream) {
  read_stream<U>
      <<<grid, s.block_size, 0, stream>>>(in, vectors, tail, tail_count, sink, 0x7fffffffu);
}

}  // namespace

int read_floor_shape_count() {
  return int(sizeof kShapes / sizeof kShapes[0]);
}

ReadFloorShape read_floor_shape(int i) {
  return kShapes[i];
}

unsigned read_floor_grid(const ReadFloorShape& s, std::size_t bytes, int sm_count) {
  const std::size_t vectors = bytes / 16;
  const std::size_t per_block = std::size_t(s.block_size) * s.unroll;
  const std::size_t cover = std::max<std::size_t>(1, (vectors + per_block - 1) / per_block);
  if (s.blocks_per_sm == 0) return unsigned(std::min<std::size_t>(cover, 1u << 30));
  return unsigned(std::min<std::size_t>(cover, std::size_t(sm_count) * s.blocks_per_sm));
}

cudaError_t launch_read_floor(const void* input, std::size_t bytes, int shape, int sm_count,
                              int* sink, cudaStream_t stream) {
  if (shape < 0 || shape >= read_floor_shape_count() || bytes < 4 || !input || !sink)
    return cudaErrorInvalidValue;
  const ReadFloorShape& s = kShapes[shape];
  const std::size_t vectors = bytes / 16;
  const int* tail = static_cast<const int*>(input) + vectors * 4;
  const int tail_count = int((bytes - vectors * 16) / 4);
  const unsigned grid = read_floor_grid(s, bytes, sm_count);
  const auto* in = static_cast<const int4*>(input);
  switch (s.unroll) {
    case 1:
      launch<1>(s, grid, in, vectors, tail, tail_count, sink, stream);
      break;
    case 2:
      launch<2>(s, grid, in, vectors, tail, tail_count, sink, stream);
      break;
    default:
      launch<4>(s, grid, in, vectors, tail, tail_count, sink, stream);
      break;
  }
  return cudaGetLastError();
}

}  // namespace rl::kernels
