// `trace --measured`: bad requests are usage errors before any GPU is asked for; without a GPU
// it says a measured timeline needs one, and why, and writes nothing; with one, the document
// holds the timeline, its summary and its barriers.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_process.h"

namespace rl::testing {
namespace {

std::vector<std::string> measured(std::vector<std::string> extra) {
  std::vector<std::string> args{"trace",        "--measured", "--variant", "reduceInterleaved",
                                "--block-size", "256",        "--size",    "2^20"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CliTraceMeasured, NeedsAGpuAndSaysWhyOrWritesTheTimeline) {
  TempDir dir;
  const std::string file = dir.file("timeline.json");
  const CliResult r = run_cli(measured({"--max-blocks", "2", "--cost-runs", "2", "--json", file}));
  if (r.exit_code == 0) {  // a GPU is here: the document's shape
    const auto doc = nlohmann::json::parse(slurp(file));
    EXPECT_EQ(doc["timeline"]["variant"], "interleaved");
    EXPECT_EQ(doc["timeline"]["blocks"].size(), 2u);
    EXPECT_GT(doc["summary"]["cycles_per_ns"].get<double>(), 0);
    EXPECT_TRUE(doc["barriers"].is_array());
    return;
  }
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("a measured timeline needs a GPU"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no CUDA device here"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
}

// A kernel of your own: read and checked like run --kernel, then recorded as the classic rungs.
TEST(CliTraceMeasured, TakesAKernelOfYourOwn) {
  TempDir dir;
  const std::string file = dir.file("timeline.json");
  const CliResult r =
      run_cli({"trace", "--measured", "--kernel", RL_USER_KERNELS_DIR "/int_accumulator.cu",
               "--variant", "intAccumulator", "--block-size", "256", "--size", "2^20",
               "--cost-runs", "0", "--json", file});
  if (r.exit_code == 0) {  // a GPU is here
    const auto doc = nlohmann::json::parse(slurp(file));
    EXPECT_EQ(doc["timeline"]["label"], "intAccumulator");
    EXPECT_FALSE(doc["timeline"]["blocks"].empty());
    return;
  }
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("a measured timeline needs a GPU"), std::string::npos) << r.err;
}

struct BadMeasured {
  const char* name;
  std::vector<std::string> args;
  const char* message;
};

class CliTraceMeasuredUsage : public ::testing::TestWithParam<BadMeasured> {};

TEST_P(CliTraceMeasuredUsage, IsOneLineAndExit2WithOrWithoutAGpu) {
  const CliResult r = run_cli(GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliTraceMeasuredUsage,
    ::testing::Values(
        BadMeasured{"SmAndBlocks", measured({"--sm", "1", "--blocks", "0,5", "--json", "-"}),
                    "--sm 1: give --sm or --blocks, not both"},
        BadMeasured{"MaxBlocksWithBlocks",
                    measured({"--blocks", "0,5", "--max-blocks", "2", "--json", "-"}),
                    "--max-blocks 2: counts the blocks taken from --sm"},
        BadMeasured{"NoBlocks", measured({"--max-blocks", "0", "--json", "-"}),
                    "--max-blocks 0: must be 1 to 16"},
        BadMeasured{
            "TooManyBlocks",
            measured({"--blocks", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--json", "-"}),
            "17 blocks; a timeline records at most 16"},
        BadMeasured{"NegativeBlock", measured({"--blocks", "0,-3", "--json", "-"}),
                    "--blocks -3: must be 0 or more"},
        BadMeasured{"BlockPastTheGrid", measured({"--blocks", "0,99999", "--json", "-"}),
                    "block 99999 is past the grid"},
        BadMeasured{"NegativeSm", measured({"--sm", "-1", "--json", "-"}),
                    "--sm -1: must be 0 or more"},
        BadMeasured{"TooLarge",
                    {"trace", "--measured", "--variant", "reduceInterleaved", "--block-size",
                     "1024", "--size", "2^29", "--json", "-"},
                    "a timeline records at most 2^28 elements"},
        BadMeasured{"CostRuns", measured({"--cost-runs", "1001", "--json", "-"}),
                    "--cost-runs 1001: must be 0 to 1000"},
        BadMeasured{"BlockIndex", measured({"--block-index", "3", "--json", "-"}),
                    "--block-index 3: a measured timeline records --blocks"},
        BadMeasured{"OnTheHost", measured({"--device", "cpu", "--json", "-"}),
                    "--device cpu: a measured timeline is stamped by the GPU"},
        BadMeasured{
            "VariantWithoutOne",
            {"trace", "--measured", "--variant", "cg_reduce", "--block-size", "256", "--json", "-"},
            "no measured timeline for cg_reduce"},
        BadMeasured{"Unwritable", measured({"--json", "/nonexistent/t.json"}), "does not exist"},
        BadMeasured{"MissingKernelFile",
                    {"trace", "--measured", "--kernel", "/nonexistent/k.cu", "--variant", "k",
                     "--block-size", "256", "--json", "-"},
                    "--kernel /nonexistent/k.cu"},
        BadMeasured{"KernelNameWithoutKernel", measured({"--kernel-name", "k", "--json", "-"}),
                    "--kernel-name k: give it with --kernel"},
        BadMeasured{"KernelWithoutMeasured",
                    {"trace", "--variant", "interleaved", "--block-size", "64", "--kernel", "k.cu",
                     "--json", "-"},
                    "--kernel: only with --measured"},
        BadMeasured{
            "SmWithoutMeasured",
            {"trace", "--variant", "interleaved", "--block-size", "64", "--sm", "2", "--json", "-"},
            "--sm: only with --measured"}),
    [](const ::testing::TestParamInfo<BadMeasured>& info) { return info.param.name; });

}  // namespace
}  // namespace rl::testing
