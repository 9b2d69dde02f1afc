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

// A diff where no source line changes says so and what differs (one kernel at two unroll
// factors) instead of listing every line unchanged.
TEST(CliCode, DiffWithoutChangedLinesSaysWhatDiffers) {
  const CliResult same =
      run_cli({"code", "--variant", "reduceUnroll8", "--diff-from", "reduceUnroll4"});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(
      same.out.find("reduceUnroll4 (unroll) and reduceUnroll8 (unroll): no source line differs"),
      std::string::npos)
      << same.out;
  EXPECT_NE(same.out.find("one kernel; only U (4 -> 8) differs"), std::string::npos) << same.out;
  EXPECT_LT(lines_of(same.out).size(), 5u) << same.out;
  // The previous rung: either lines change, or it says that none does.
  const CliResult rung = run_cli({"code", "--variant", "reduceUnroll8", "--diff"});
  ASSERT_EQ(rung.exit_code, 0) << rung.err;
  bool changed = false;
  for (const std::string& line : lines_of(rung.out))
    changed = changed || line.rfind("+ ", 0) == 0 || line.rfind("- ", 0) == 0;
  EXPECT_TRUE(changed || rung.out.find("no source line differs") != std::string::npos) << rung.out;
}

}  // namespace
}  // namespace rl::testing
