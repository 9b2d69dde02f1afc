// GPU-recorded traces (instrumented kernels: __ballot_sync of each step's condition, the
// workspace after each step) against the block model, for every classic-ladder variant at several
// block sizes, both workspaces, unroll 1 and 8, int32 and float32, on a full block and on the
// ragged tail block. Skips, saying why, without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <iostream>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/trace/trace.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

TEST(MasksLadderGpu, RecordedMasksAndValuesEqualTheModel) {
  RL_REQUIRE_GPU();
  int compared = 0;
  std::string device_name;
  for (const VariantInfo& v : catalog()) {
    if (v.family != VariantFamily::SeedLadder) continue;
    for (int b : {32, 64, 256, 1024}) {
      if (!v.takes_block_size(b)) continue;
      for (int u : {1, 8}) {
        if (!v.takes_unroll(u)) continue;
        for (Workspace w : v.workspaces)
          for (DType type : {DType::Int32, DType::Float32}) {
            const std::uint64_t tile = std::uint64_t(b) * u;
            const std::uint64_t n = 2 * tile + tile / 3 + 1;  // blocks 0, 1 full; block 2 ragged
            for (unsigned block : {0u, 2u}) {
              const TraceRequest r{v.id, b, u, w, n, type, block};
              const Trace model = make_trace(r);
              const Trace gpu = record_trace_on_gpu(r, 0);
              device_name = gpu.source_device;
              EXPECT_EQ(gpu.source, "gpu");
              const auto diffs = compare_traces(model, gpu);
              std::string all;
              for (const auto& d : diffs) all += "\n  " + d;
              EXPECT_TRUE(diffs.empty())
                  << model.label << " B=" << b << " U=" << u << " " << to_string(w) << " "
                  << to_string(type) << " block " << block << all;
              ++compared;
            }
          }
      }
    }
  }
  std::cout << "compared " << compared << " GPU-recorded traces with the model on " << device_name
            << "\n";
}

TEST(MasksLadderGpu, BadRequestsAreRefusedBeforeTheGpu) {
  RL_REQUIRE_GPU();
  EXPECT_THROW(record_trace_on_gpu({"unroll_warp_sync", 32, 8}, 0), Error);
  EXPECT_THROW(
      record_trace_on_gpu({"interleaved", 256, 1, Workspace::Global, 100, DType::Int32, 5}, 0),
      Error);
}

}  // namespace
}  // namespace rl
