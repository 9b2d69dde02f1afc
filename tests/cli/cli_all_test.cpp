// `run --variants all` on the host backend: what does not apply is left out and said once on
// stderr; nothing left, a named variant that does not apply, or a baseline that `all` left out
// exit 2 naming the flag; the session records the variants that ran, not "all".
#include <gtest/gtest.h>

#include "cli_process.h"
#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

std::vector<std::string> quick(std::vector<std::string> more) {
  std::vector<std::string> args{"run", "--device", "cpu", "--sizes", "1000", "--budget-ms", "1"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliAll, LeavesOutWhatDoesNotApplyAndSaysSoOnce) {
  TempDir dir;
  const std::string json = dir.file("all.json");
  const CliResult r = run_cli(quick({"--variants", "all", "--type", "float32", "--json", json}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.err);
  std::vector<std::string> left_out;
  for (const std::string& line : lines)
    if (line.find("--variants all left out") != std::string::npos) left_out.push_back(line);
  ASSERT_EQ(left_out.size(), 2u) << r.err;  // one line per reason
  EXPECT_EQ(left_out[0],
            "reductionlab-cli: --variants all left out reduce_add_sync: takes int32 only, not "
            "float32");
  EXPECT_NE(left_out[1].find("cub_device_reduce"), std::string::npos) << left_out[1];
  EXPECT_NE(left_out[1].find("no host model, GPU only"), std::string::npos) << left_out[1];
  EXPECT_EQ(r.out.find("SKIPPED"), std::string::npos) << "left out, not skipped row by row";
  const Session s = session_from_json(slurp(json));
  EXPECT_EQ(std::count(s.spec.variants.begin(), s.spec.variants.end(), "all"), 0);
  EXPECT_EQ(s.spec.variants.size(), s.results.size());  // one size, one type: a point each
  for (const PointResult& p : s.results) EXPECT_EQ(p.status, PointStatus::Ok) << p.point.label();
}

TEST(CliAll, NothingLeftIsExit2WithTheReasons) {
  const CliResult r =
      run_cli(quick({"--variants", "all", "--workspace", "registers", "--unroll", "3"}));
  EXPECT_EQ(r.exit_code, 2);
  const auto lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 2u) << r.err;
  EXPECT_EQ(lines[0],
            "reductionlab-cli: --variants all: no variant applies to this request on this device");
  for (std::size_t i = 1; i < lines.size(); ++i)
    EXPECT_EQ(lines[i].rfind("reductionlab-cli: --variants all: left out ", 0), 0u) << lines[i];
  EXPECT_EQ(r.out, "");
}

struct BadAll {
  std::string name;
  std::vector<std::string> args;
  std::string says;  // the one stderr line
};

std::ostream& operator<<(std::ostream& os, const BadAll& b) {
  return os << b.name;
}

class CliAllBad : public ::testing::TestWithParam<BadAll> {};

TEST_P(CliAllBad, OneLineNamingTheFlagExit2) {
  const CliResult r = run_cli(quick(GetParam().args));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0], "reductionlab-cli: " + GetParam().says);
}

INSTANTIATE_TEST_SUITE_P(
    Args, CliAllBad,
    ::testing::Values(
        BadAll{"NamedVariantWithoutTheType",
               {"--variants", "reduce_add_sync", "--type", "float32"},
               "--type: variant reduce_add_sync: takes int32 only, not float32"},
        BadAll{"BaselineLeftOutByAll",
               {"--variants", "all", "--baseline", "cub_device_reduce"},
               "--baseline cub_device_reduce: --variants all left it out on this device (no host "
               "model, GPU only)"},
        BadAll{"UnrollNoVariantTakes",
               {"--variants", "interleaved", "--unroll", "8"},
               "--unroll 8: no selected variant takes it (interleaved takes 1)"},
        BadAll{
            "NoiseOutOfRange", {"--noise", "2"}, "--noise 2: must be between 0 and 1 (0.01 = 1%)"},
        BadAll{"BlockSizeNotAPowerOfTwo",
               {"--block-sizes", "96"},
               "--block-sizes: block size 96: must be a power of two from 32 to 1024"},
        BadAll{"MaxSamplesBelowMin",
               {"--max-samples", "0"},
               "--max-samples: samples: need 1 <= min samples (0) <= max samples (0)"}),
    [](const ::testing::TestParamInfo<BadAll>& info) { return info.param.name; });

TEST(CliAll, ASpecFileMaySayAllAndValuesFromItNameTheFile) {
  TempDir dir;
  const std::string spec = dir.file("spec.json"), json = dir.file("out.json");
  std::ofstream(spec) << R"({"variants": ["all"], "types": ["float32"], "block_sizes": [32]})";
  const CliResult ok = run_cli(quick({"--spec", spec, "--json", json}));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.err.find("left out reduce_add_sync: takes int32 only"), std::string::npos);
  for (const PointResult& p : session_from_json(slurp(json)).results)
    EXPECT_EQ(p.point.block_size, 32) << p.point.label();

  std::ofstream(spec) << R"({"variants": ["reduce_add_sync"], "types": ["float32"]})";
  const CliResult bad = run_cli(quick({"--spec", spec}));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "reductionlab-cli: --spec " + spec +
                         ": variant reduce_add_sync: takes int32 only, not float32\n");
}

}  // namespace
}  // namespace rl::testing
