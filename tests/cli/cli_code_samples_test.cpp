// `code --samples SESSION`: alone, the warp samples' summary of the point, then the CUDA runtime's
// occupancy of its kernels on the GPU that ran it (the bundled H200 session carries both for
// reduceInterleaved at 2^24, B=1024); with --kernel and --source, a user kernel's samples on its
// own lines.
#include <gtest/gtest.h>

#include "cli_process.h"
#include "engine/user/user_kernel.h"

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

// A kernel the user wrote, with the warp samples of its point put on its own lines. The session
// was recorded on an NVIDIA H200 on 2026-12-05 (binaries of 133295c: `run --kernel
// resources/kernels/interleaved.cu --block-sizes 1024 --sizes 2^24 --line-samples --json`),
// trimmed to that kernel's point; the kernel is compiled again here by NVRTC, as on the GPU.
TEST(CliCodeSamples, AUserKernelsSamplesLandOnItsLines) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const CliResult r =
      run_cli({"code", "--kernel", std::string(RL_RESOURCES_DIR) + "/kernels/interleaved.cu",
               "--block-size", "1024", "--source", "--samples",
               std::string(RL_USER_KERNELS_DIR) + "/interleaved-line-samples-h200.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("# myInterleaved/global B=1024 U=1 N=2^24 int32, sm_90: warp samples"),
            std::string::npos)
      << r.out;
  bool tree_step_waits = false;
  for (const std::string& line : lines_of(r.out))
    tree_step_waits =
        tree_step_waits ||
        (line.find("barrier") != std::string::npos &&
         line.find("if (tid < stride) ws[tid] += ws[tid + stride];") != std::string::npos);
  EXPECT_TRUE(tree_step_waits) << r.out;
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
