// GPU-recorded traces of the warp-level kernels past the classic ladder (warp_shuffle,
// reduce_add_sync, cg_reduce; instrumented_warp.cu: __ballot_sync of each step's condition, each
// thread's register after each step, the partial) against the block model's traces, at block sizes
// 32, 64, 256, 1024, unroll 1 and 8, int32 and float32 (reduce_add_sync: int32 only, sm_80+), on a
// full block and on the ragged tail block; and the divergence lab's kernels. Skips, saying why,
// without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <iostream>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/trace/trace.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

// Device 0's compute capability as major * 10 + minor (0 if it cannot be read).
int compute_capability() {
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess)
    return 0;
  return major * 10 + minor;
}

// Compares every traced configuration of one variant; returns how many traces it compared.
int compare_variant(const std::string& id, std::string* device_name) {
  const std::optional<VariantRef> ref = resolve_variant(id);
  EXPECT_TRUE(ref.has_value()) << id;
  if (!ref) return 0;
  const VariantInfo& v = *ref->variant;
  int compared = 0;
  for (int b : {32, 64, 256, 1024}) {
    if (!v.takes_block_size(b)) continue;
    for (int u : {1, 8}) {
      if (!v.takes_unroll(u)) continue;
      for (DType type : v.types) {
        const std::uint64_t tile = std::uint64_t(b) * u;
        const std::uint64_t n = 2 * tile + tile / 3 + 1;  // blocks 0, 1 full; block 2 ragged
        for (unsigned block : {0u, 2u}) {
          const TraceRequest r{v.id, b, u, Workspace::Registers, n, type, block};
          const Trace model = make_trace(r);
          const Trace gpu = record_trace_on_gpu(r, 0);
          *device_name = gpu.source_device;
          EXPECT_EQ(gpu.source, "gpu");
          const auto diffs = compare_traces(model, gpu);
          std::string all;
          for (const auto& d : diffs) all += "\n  " + d;
          EXPECT_TRUE(diffs.empty()) << model.label << " B=" << b << " U=" << u << " "
                                     << to_string(type) << " block " << block << all;
          ++compared;
        }
      }
    }
  }
  return compared;
}

TEST(MasksWarpGpu, ShuffleAndCgReduceRecordedMasksAndRegistersEqualTheModel) {
  RL_REQUIRE_GPU();
  std::string device_name;
  const int compared =
      compare_variant("warp_shuffle", &device_name) + compare_variant("cg_reduce", &device_name);
  EXPECT_EQ(compared, 64);  // 2 variants x 4 block sizes x 2 unrolls x 2 types x 2 blocks
  std::cout << "compared " << compared
            << " GPU-recorded traces of warp_shuffle and cg_reduce with the model on "
            << device_name << "\n";
}

TEST(MasksWarpGpu, ReduceAddSyncRecordedMasksAndRegistersEqualTheModel) {
  RL_REQUIRE_GPU();
  if (const int cc = compute_capability(); cc < 80)
    GTEST_SKIP() << "reduce_add_sync needs sm_80 or newer (__reduce_add_sync); device 0 is sm_"
                 << cc;
  std::string device_name;
  const int compared = compare_variant("reduce_add_sync", &device_name);
  EXPECT_EQ(compared, 16);  // 4 block sizes x 2 unrolls x int32 x 2 blocks
  std::cout << "compared " << compared
            << " GPU-recorded traces of reduce_add_sync with the model on " << device_name << "\n";
}

// The divergence lab (instrumented_warp.cu's branch_lab_recorded): which lanes take path A and
// path B, recorded with __ballot_sync on the GPU, each register after each step and the
// partial, against the model's trace (engine/trace_labs.cpp); the data branches at k = 1 and 8.
TEST(MasksWarpGpu, DivergenceLabRecordedPathMasksEqualTheModel) {
  RL_REQUIRE_GPU();
  std::string device_name;
  int compared = 0;
  for (const VariantInfo& v : catalog())
    if (v.family == VariantFamily::DivergenceLab) compared += compare_variant(v.id, &device_name);
  EXPECT_EQ(compared, 112);  // 10 kernels x 4 block sizes x 2 blocks, 2 data branches x 2 k more
  std::cout << "compared " << compared << " GPU-recorded traces of the divergence lab with the "
            << "model on " << device_name << "\n";
}

TEST(MasksWarpGpu, BadRequestsAreRefusedBeforeTheGpu) {
  RL_REQUIRE_GPU();
  // Float has no REDUX form; the block index is past the launch; vectorized has no trace.
  EXPECT_THROW(
      record_trace_on_gpu({"reduce_add_sync", 256, 1, Workspace::Registers, 0, DType::Float32}, 0),
      Error);
  EXPECT_THROW(
      record_trace_on_gpu({"warp_shuffle", 256, 1, Workspace::Registers, 100, DType::Int32, 5}, 0),
      Error);
  EXPECT_THROW(record_trace_on_gpu({"vectorized", 256}, 0), Error);
}

}  // namespace
}  // namespace rl
