// The streaming-read floor: kernels that only read N 32-bit elements, the least any reduction of
// N elements can cost on this device. A device-to-device copy reads and writes, so it is no roof
// for a kernel that only reads; these are. Several grid shapes, because the best one changes
// with N: few large blocks hide DRAM latency at 2^28, one vector per thread wins at 2^16.
#include <algorithm>

#include "kernels/launch.h"

namespace rl::kernels {
namespace {

// Loads take the read-only path (__ldg: ld.global.nc), as the single pass and CUB do on sm_90.
// Phases: (1) blocks walk tiles of blockDim.x x U vectors (block b takes tiles b, b + grid, ...,
// as the single pass does), each thread U 16-byte loads in flight; (2) the block that would take
// the next tile reads the partial last tile, block 0 the scalar tail (bytes past the last whole
// vector); (3) a store to a scratch word only when the sum equals `never` (the compiler cannot know
// it will not), so the loads stay.
template <int U>
__global__ void read_stream(const int4* __restrict__ in, std::size_t vectors,
                            const int* __restrict__ tail, int tail_count, int* sink,
                            unsigned never) {
  unsigned acc = 0;  // unsigned: wraps where int would overflow
  const std::size_t tile = std::size_t(blockDim.x) * U;
  const std::size_t full_tiles = vectors / tile;
  std::size_t t = blockIdx.x;
  for (; t < full_tiles; t += gridDim.x) {
    const int4* p = in + t * tile + threadIdx.x;
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = __ldg(p + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < U; ++u) acc += unsigned(v[u].x) + v[u].y + v[u].z + v[u].w;
  }
  if (t == full_tiles)  // exactly one block lands here
    for (std::size_t i = full_tiles * tile + threadIdx.x; i < vectors; i += blockDim.x) {
      const int4 v = __ldg(in + i);
      acc += unsigned(v.x) + v.y + v.z + v.w;
    }
  if (blockIdx.x == 0 && threadIdx.x < tail_count) acc += unsigned(tail[threadIdx.x]);
  if (acc == never) *sink = int(acc);
}

// One tile per block up to the caps (grid = tiles, sm_count x blocks_per_sm, max_blocks where
// not 0); each shape was the best at some size on the H200.
constexpr ReadFloorShape kShapes[] = {
    {128, 1, 0, 0},                      // one vector per thread, a block per tile: small N
    {256, 1, 0, 0},     {256, 4, 8, 0},  // 8 blocks per SM walking tiles, 4 loads in flight
    {512, 4, 4, 0},                      // 4 such blocks per SM
    {512, 4, 0, 16384},  // the single pass's own shape: a tile per block, up to 16384 blocks
    {1024, 2, 2, 0},     // few large blocks: large N
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
  std::size_t grid = std::min<std::size_t>(cover, 1u << 30);
  if (s.blocks_per_sm > 0)
    grid = std::min<std::size_t>(grid, std::size_t(sm_count) * s.blocks_per_sm);
  if (s.max_blocks > 0) grid = std::min<std::size_t>(grid, std::size_t(s.max_blocks));
  return unsigned(grid);
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
