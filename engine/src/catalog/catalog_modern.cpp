// Variants past the classic ladder: warp-level primitives, vectorized grid-stride loads, a
// single-pass reduction, and CUB as the reference to beat. Kernels: kernels/modern_*.cu,
// cub_reference.cu. Block sizes, unroll factors, types and workspaces come from kernels/accepts.h
// (catalog.cpp).
#include "catalog/catalog_modern.h"

namespace rl {

namespace {

const std::string kTileUnrollMeaning =
    " Unroll U: each block owns a tile of U x blockDim.x elements and each thread first adds "
    "its U elements (x[base + tid + k*blockDim.x]), as the classic reduceUnroll does.";
const std::string kVectorUnrollMeaning =
    " Unroll U: 16-byte vectors (int4/float4) each thread loads per loop iteration, all issued "
    "before any addition: U x 16 bytes in flight per thread.";

const std::string kTilePreReduce =
    "pre-reduce: thread tid sums x[base + tid + k*blockDim.x] for k < U (tail read as 0)";
const std::string kFinish = "finish: one block sums the partials";
const std::string kStreamLoad =
    "stream: grid-stride loop over 16-byte vectors, U loads in flight per thread; grid = "
    "resident blocks (occupancy API x SMs), fewer for small inputs; the n % 4 tail by block 0";
const std::string kShuffleBlockSum =
    "block sum: __shfl_down_sync tree (offsets 16..1) in every warp; lane 0 of each warp writes "
    "its sum to shared memory; __syncthreads(); warp 0 reduces the warp sums with shuffles";

VariantInfo modern(std::string id, KernelId k, std::string display, std::string explanation,
                   std::vector<std::string> phases) {
  VariantInfo v;
  v.id = std::move(id);
  v.kernel = k;
  v.display_name = std::move(display);
  v.family = VariantFamily::Modern;
  v.explanation = std::move(explanation);
  v.phases = std::move(phases);
  return v;
}

void tile_shape(VariantInfo& v) {
  v.default_unroll = 8;
  v.explanation += kTileUnrollMeaning;
}

void stream_shape(VariantInfo& v) {
  v.default_unroll = 4;
  v.explanation += kVectorUnrollMeaning;
  // The grid comes from the occupancy API (the GPU's SM count and limits), so the order of the
  // float additions is not a function of (N, block size, unroll) alone.
  v.has_block_model = false;
}

void add_warp_family(std::vector<VariantInfo>& out) {
  VariantInfo shuffle = modern(
      "warp_shuffle", KernelId::WarpShuffle, "Warp shuffle (__shfl_down_sync)",
      "Threads of a warp add each other's registers with __shfl_down_sync instead of going "
      "through shared memory: no volatile, no __syncwarp() and a single __syncthreads() per "
      "block instead of one per tree level.",
      {kTilePreReduce, kShuffleBlockSum, "thread 0 writes the block's partial sum", kFinish});
  tile_shape(shuffle);
  out.push_back(shuffle);

  VariantInfo redux = modern(
      "reduce_add_sync", KernelId::ReduceAddSync, "Warp reduce instruction (__reduce_add_sync)",
      "Since sm_80 one instruction (REDUX) sums a warp's 32 integers and gives every lane the "
      "result, replacing five shuffle steps. Integers only: there is no float form, so this "
      "variant takes int32 and not float32.",
      {kTilePreReduce,
       "block sum: __reduce_add_sync in every warp; lane 0 writes the warp sum to shared memory; "
       "__syncthreads(); warp 0 adds the warp sums with __reduce_add_sync",
       "thread 0 writes the block's partial sum", kFinish});
  tile_shape(redux);
  redux.min_compute_capability = 80;
  out.push_back(redux);

  VariantInfo cg = modern(
      "cg_reduce", KernelId::CgReduce, "Cooperative groups (cg::reduce)",
      "The same two-level block sum written with cooperative groups: cg::reduce on a "
      "thread_block_tile<32>, then block.sync(). The library picks the instruction: REDUX for "
      "int32 on sm_80 and newer, an xor-shuffle butterfly otherwise (float32, older GPUs).",
      {kTilePreReduce,
       "block sum: cg::reduce(tile32, v, cg::plus) in every tile; tile leaders write to shared "
       "memory; block.sync(); tile 0 reduces the tile sums with cg::reduce",
       "thread 0 writes the block's partial sum", kFinish});
  tile_shape(cg);
  out.push_back(cg);
}

void add_stream_family(std::vector<VariantInfo>& out) {
  VariantInfo vec = modern(
      "vectorized", KernelId::VectorizedGridStride, "Vectorized grid-stride (int4/float4)",
      "A grid of exactly the blocks the GPU keeps resident loops over the input in 16-byte "
      "vectors with several loads in flight per thread: bandwidth comes from bytes in flight, "
      "not from launching one thread per element. Two passes: partials, then the finishing "
      "block.",
      {kStreamLoad, kShuffleBlockSum, "thread 0 writes the block's partial sum", kFinish});
  stream_shape(vec);
  out.push_back(vec);

  VariantInfo single = modern(
      "single_pass", KernelId::SinglePass, "Single pass (tiles + last block finishes)",
      "One launch does the whole reduction. Each block reads one contiguous tile of 16-byte "
      "vectors (U loads in flight per thread) and there are as many blocks as tiles, so the "
      "hardware scheduler hands the next tile to whichever SM is free: fast SMs take more "
      "tiles. Whoever finishes last adds everything up, and the sums travel in integer "
      "atomics: int32 adds its sum and a count of one to a single 64-bit word (count in the "
      "high bits, sum in the low bits), and the one that sees the count reach the total holds "
      "the result; float32 adds its sum, as an exact integer, to one of 32 counted exponent "
      "windows, and the last one adds the windows and rounds once. Integer additions do not "
      "depend on order, so float32 gives the same bits on every run with no partials array "
      "and no fence. On small grids each warp hands its sum on (no block barrier on the "
      "critical path); on large ones each block. No second kernel, no launch gap.",
      {"tiles: block b loads tile b (B x U vectors, contiguous), U loads in flight per thread; "
       "one block per tile; the n % 4 tail by block 0",
       "block sum: warp sums (int32: REDUX on sm_80+; float32: __shfl_down_sync tree); grids of "
       "more than 512 warps: lane 0 of each warp writes its sum to shared memory, "
       "__syncthreads(), warp 0 adds them (smaller grids hand each warp's sum on)",
       "int32: atomicAdd(word, 2^48 + sum); float32: atomicAdd(window[exponent / 8], 2^48 + "
       "integer sum) and atomicAdd(counter, 1), both in flight at once",
       "the last to count: int32 writes the word's sum field and resets it to 0; float32, when "
       "its window already holds every sum, converts that one word; otherwise its warp adds the "
       "32 windows in a fixed order; either way it rounds to float once, writes the total, "
       "resets"});
  stream_shape(single);
  out.push_back(single);

  VariantInfo cluster = modern(
      "cluster_single_pass", KernelId::ClusterSinglePass,
      "Cluster single pass (8-block clusters, DSMEM)",
      "Hopper's level between the block and the grid: a thread-block cluster, here of 8 "
      "blocks on 8 SMs of one GPC, whose blocks can read and write each other's shared memory "
      "(distributed shared memory). Each block reads its tile and sums it as the single pass "
      "does; thread 0 then stores the block sum straight into the leader block's shared "
      "memory, cluster.sync() waits for all 8, and the leader adds them and hands one sum per "
      "cluster on with the single pass's atomics: thread -> warp -> block -> cluster -> grid. "
      "Needs sm_90. On the H200 the cluster barrier costs more than the atomics it saves, so "
      "this rung shows the level, not a speed-up.",
      {"tiles: block b loads tile b (B x U vectors, contiguous), U loads in flight per thread; "
       "grid = tiles rounded up to whole clusters of 8",
       "block sum: warp sums (REDUX for int32, shuffles for float32), __syncthreads(), warp 0 "
       "adds them",
       "cluster: thread 0 stores the block sum into the leader's shared memory "
       "(map_shared_rank); cluster.sync(); the leader's warp adds the 8 sums",
       "int32: the leader adds 2^48 + the cluster's sum to the counted word; float32: to its "
       "exponent window, then takes a ticket; the last cluster writes the total"});
  stream_shape(cluster);
  cluster.min_compute_capability = 90;
  out.push_back(cluster);

  VariantInfo epoch = modern(
      "epoch_pass", KernelId::EpochPass, "Epoch pass (one launch, nothing waits at the end)",
      "The single pass without its last wait. There, whoever counts last must see its atomic "
      "come back, and that atomic queues behind every other block's: a round trip at the end "
      "of the kernel, a tenth of its time at small N. Here every warp (small grids) or block "
      "adds its sum into an accumulator with a fire-and-forget atomic (RED) and exits; the "
      "accumulator is the total once the kernel has ended. It starts at zero without a memset "
      "because there are two, used in turn: the host passes each launch its number on the "
      "scratch, the launch adds into accumulator number % 2, and block 0 zeroes the other for "
      "the next launch as it starts. Nothing waits, at the start or at the end. float32 sums "
      "each warp on a fixed-point grid with REDUX, and adds exact integers into 32 exponent "
      "windows: the same bits on every run. The total stays in the kernel's scratch; the host "
      "reads it and, for float32, rounds the windows once.",
      {"epoch: block 0's first warp zeroes the accumulator the next launch adds into and writes "
       "the next epoch (the host passes the launch number; stores, nothing waits)",
       "tiles: block b loads tile b (B x U vectors, contiguous), U loads in flight per thread; "
       "one block per tile; the n % 4 tail by block 0",
       "block sum: warp sums (int32: REDUX; float32: each lane rounded onto the warp's "
       "fixed-point grid, REDUX.MAX and REDUX.SUM); grids of more than 512 warps: "
       "__syncthreads(), warp 0 adds the warps' sums (float32: as exact integers of one "
       "exponent window)",
       "RED into accumulator epoch % 2 (int32: one word; float32: the sum's exponent "
       "window), and exit"});
  stream_shape(epoch);
  out.push_back(epoch);
}

void add_cub(std::vector<VariantInfo>& out) {
  VariantInfo device = modern(
      "cub_device_reduce", KernelId::CubDeviceReduce, "CUB DeviceReduce::Sum",
      "The library reference: cub::DeviceReduce::Sum with CUB's own tuning for this GPU "
      "(block size, items per thread, vector loads, grid), int32 summed into an int64 output. "
      "Only the whole reduction is timed. It picks its own block size (recorded as 0); unroll "
      "is not used (always 1).",
      {"CUB's reduction kernel: tiles of items per thread per block, partials",
       "CUB's single-tile kernel: the partials to the total (one kernel when N fits one tile)"});
  device.family = VariantFamily::CubReference;
  device.has_block_model = false;
  out.push_back(device);

  const std::string block_explanation =
      " Our first kernel with CUB's block-wide primitive in place of the tree: each thread "
      "loads its U items striped (coalesced), cub::BlockReduce sums them, thread 0 writes the "
      "partial; the common finishing block adds the partials. Unroll U: items per thread "
      "(tile of U x blockDim.x elements per block).";
  VariantInfo raking =
      modern("cub_block_reduce_raking", KernelId::CubBlockReduceRaking,
             "CUB BlockReduce (BLOCK_REDUCE_RAKING)",
             "BLOCK_REDUCE_RAKING: the block's values go to shared memory and one warp rakes "
             "(serially sums) segments of them, then reduces the segment sums with shuffles." +
                 block_explanation,
             {"load: U items per thread, striped (cub::LoadDirectStriped), tail read as 0",
              "block sum: cub::BlockReduce<T, B, BLOCK_REDUCE_RAKING>::Sum",
              "thread 0 writes the block's partial sum", kFinish});
  raking.family = VariantFamily::CubReference;
  raking.default_unroll = 8;
  raking.has_block_model = false;
  out.push_back(raking);

  VariantInfo warps = raking;
  warps.id = "cub_block_reduce_warp_reductions";
  warps.kernel = KernelId::CubBlockReduceWarpReductions;
  warps.display_name = "CUB BlockReduce (BLOCK_REDUCE_WARP_REDUCTIONS)";
  warps.explanation =
      "BLOCK_REDUCE_WARP_REDUCTIONS: every warp reduces its values with shuffles, then the warp "
      "sums are combined: the CUB form of our warp-shuffle kernel." +
      block_explanation;
  warps.phases[1] = "block sum: cub::BlockReduce<T, B, BLOCK_REDUCE_WARP_REDUCTIONS>::Sum";
  out.push_back(warps);
}

}  // namespace

void append_modern_variants(std::vector<VariantInfo>& out) {
  add_warp_family(out);
  add_stream_family(out);
  add_cub(out);
}

}  // namespace rl
