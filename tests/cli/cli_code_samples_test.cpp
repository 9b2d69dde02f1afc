// `code --samples SESSION` alone: the warp samples' summary of the point, then the CUDA runtime's
// occupancy of its kernels on the GPU that ran it (the bundled H200 session carries both for
// reduceInterleaved at 2^24, B=1024).
#include <gtest/gtest.h>

#include "cli_process.h"

namespace rl::testing {
namespace {

TEST(CliCodeSamples, TheSummaryEndsWithTheRuntimesOccupancy) {
  const std::string session = std::string(RL_RESOURCES_DIR) + "/sessions/h200-ladder.json";
  const CliResult r = run_cli(
      {"code", "--variant", "reduceInterleaved", "--block-size", "1024", "--samples", session});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("on NVIDIA H200 (the CUDA occupancy API, as the session recorded it):"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("first_kernel 16384 x 1024"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 blocks, 64 of 64 warps per SM (100%)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace rl::testing
