// run --devices / --gpus without a GPU run: every bad input is exit 2 with one line saying why,
// before any GPU is looked for where the flags alone are wrong; `devices` names the NCCL found,
// or why there is none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "cli_process.h"
#include "engine/device/device.h"

namespace rl::testing {
namespace {

void expect_usage_error(const std::vector<std::string>& args, const std::string& words) {
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(words), std::string::npos) << "stderr: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(CliMulti, BadDeviceListsSayWhy) {
  expect_usage_error({"run", "--devices", "cuda:0,cuda:0"},
                     "--devices 'cuda:0,cuda:0': cuda:0: named twice");
  expect_usage_error({"run", "--devices", "cpu"}, "cannot take part in a multi-GPU run");
  expect_usage_error({"run", "--devices", "gpu0"}, "expected cuda:N");
  expect_usage_error({"run", "--gpus", "two"}, "--gpus 'two': 'two': expected all or a number");
}

TEST(CliMulti, FlagsThatDoNotApplyAreRefusedByName) {
  expect_usage_error({"run", "--gpus", "all", "--resume", "x.json"}, "--resume: does not apply");
  expect_usage_error({"run", "--gpus", "all", "--device", "cuda:0"}, "--device: does not apply");
  expect_usage_error({"run", "--gpus", "all", "--counters"}, "--counters: does not apply");
  expect_usage_error({"run", "--devices", "cuda:0", "--gpus", "all"}, "not both");
  expect_usage_error({"run", "--exchange", "all"}, "needs --devices or --gpus");
  expect_usage_error({"run", "--devices", "cuda:0", "--exchange", "smoke"}, "unknown exchange");
  expect_usage_error({"run", "--devices", "cuda:0", "--variants", "single_pass,interleaved"},
                     "one variant");
  expect_usage_error({"run", "--devices", "cuda:0", "--block-sizes", "256,512"}, "one value");
}

TEST(CliMulti, WithoutAGpuTheRunSaysWhy) {
  const Discovery d = discover_devices();
  if (!d.gpus.empty()) GTEST_SKIP() << "this machine has a GPU: the no-GPU message cannot show";
  expect_usage_error({"run", "--devices", "cuda:0,cuda:1"}, "--devices cuda:0,cuda:1: no GPU: ");
}

TEST(CliMulti, DevicesNamesTheNcclOrWhyThereIsNone) {
  const CliResult found = run_cli({"devices"});
  EXPECT_EQ(found.exit_code, 0) << found.err;
  EXPECT_NE(found.out.find("\nnccl    "), std::string::npos) << found.out;
  setenv("RL_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
  const CliResult missing = run_cli({"devices"});
  unsetenv("RL_NCCL_LIBRARY");
  EXPECT_EQ(missing.exit_code, 0) << missing.err;
  EXPECT_NE(missing.out.find("nccl    unavailable: "), std::string::npos) << missing.out;
  if (missing.out.find("this build has no NCCL") == std::string::npos)
    EXPECT_NE(missing.out.find("/nonexistent/libnccl.so.2: cannot open"), std::string::npos)
        << missing.out;
}

}  // namespace
}  // namespace rl::testing
