// Every bad argument: exit code 2 and exactly one line on stderr that says what is wrong.
#include <gtest/gtest.h>

#include "cli_process.h"

namespace rl::testing {
namespace {

struct BadArgs {
  std::string name;               // test name
  std::vector<std::string> args;  // after the program name
  std::string says;               // the stderr line must contain this
};

std::ostream& operator<<(std::ostream& os, const BadArgs& b) {
  return os << b.name;
}

class CliBadArgument : public ::testing::TestWithParam<BadArgs> {};

TEST_P(CliBadArgument, OneLineOnStderrAndExitCode2) {
  const BadArgs& bad = GetParam();
  const CliResult r = run_cli(bad.args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_NE(lines[0].find(bad.says), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].rfind("reductionlab-cli: ", 0), 0u) << lines[0];
  EXPECT_EQ(r.out, "");
}

// A spec file that is not JSON, and a directory that does not exist, for the cases below.
const std::string kNotJson = [] {
  const std::string path =
      (std::filesystem::temp_directory_path() / "rlcli-test-not-json.txt").string();
  std::ofstream(path) << "variant,workspace\nunroll,global\n";
  return path;
}();

INSTANTIATE_TEST_SUITE_P(
    Args, CliBadArgument,
    ::testing::Values(
        BadArgs{"NoSubcommand", {}, "subcommand"},
        BadArgs{"UnknownSubcommand", {"bench"}, "unknown subcommand 'bench'"},
        BadArgs{"UnknownOption", {"run", "--device", "cpu", "--fast"}, "--fast"},
        BadArgs{"MissingValue", {"run", "--device", "cpu", "--sizes"}, "--sizes"},
        BadArgs{"BadNumber", {"run", "--device", "cpu", "--noise", "abc"}, "--noise 'abc'"},
        BadArgs{"BadBudget", {"run", "--device", "cpu", "--budget-ms", "1e"}, "--budget-ms"},
        BadArgs{"BadMinSamples",
                {"run", "--device", "cpu", "--min-samples", "many"},
                "--min-samples 'many'"},
        BadArgs{
            "ZeroMinSamples", {"run", "--device", "cpu", "--min-samples", "0"}, "min samples (0)"},
        BadArgs{"MinAboveMax",
                {"run", "--device", "cpu", "--min-samples", "9", "--max-samples", "3"},
                "min samples (9) <= max samples (3)"},
        BadArgs{"TooManySamples",
                {"run", "--device", "cpu", "--max-samples", "2000000"},
                "at most 1000000"},
        BadArgs{"BadBlockSize", {"run", "--device", "cpu", "--block-sizes", "256,abc"}, "'abc'"},
        BadArgs{"EmptyListItem", {"run", "--device", "cpu", "--unroll", "1,,2"}, "empty item"},
        BadArgs{"BadSize", {"run", "--device", "cpu", "--sizes", "2^99"}, "size '2^99'"},
        BadArgs{"BadSizeText", {"run", "--device", "cpu", "--sizes", "lots"}, "size 'lots'"},
        BadArgs{"UnknownVariant",
                {"run", "--device", "cpu", "--variants", "interleaved,reduceFoo"},
                "unknown variant 'reduceFoo' (run `reductionlab-cli variants`"},
        BadArgs{"UnknownBaseline",
                {"run", "--device", "cpu", "--baseline", "reduceFoo"},
                "unknown variant"},
        BadArgs{"UnknownWorkspace",
                {"run", "--device", "cpu", "--workspace", "texture"},
                "unknown workspace 'texture'"},
        BadArgs{"UnknownType",
                {"run", "--device", "cpu", "--type", "float64"},
                "unknown type 'float64'"},
        BadArgs{"BadDevice", {"run", "--device", "tpu:0"}, "expected cpu or cuda:N"},
        // No GPU here: "no GPU: <reason>"; on a GPU machine: "no such GPU".
        BadArgs{"MissingGpu", {"run", "--device", "cuda:77"}, "--device cuda:77: no"},
        BadArgs{"UnreadableSpec",
                {"run", "--device", "cpu", "--spec", "/nonexistent/spec.json"},
                "cannot read"},
        BadArgs{"SpecNotJson", {"run", "--device", "cpu", "--spec", kNotJson}, "not JSON"},
        BadArgs{"SpecIsDirectory", {"run", "--device", "cpu", "--spec", "/"}, "is a directory"},
        BadArgs{"UnwritableCsvDir",
                {"run", "--device", "cpu", "--csv", "/nonexistent/dir/r.csv"},
                "does not exist"},
        BadArgs{"JsonToStdout", {"run", "--device", "cpu", "--json", "-"}, "give a file name"},
        BadArgs{"JsonIsDirectory", {"run", "--device", "cpu", "--json", "/"}, "is a directory"},
        BadArgs{"UnrollNotTaken",
                {"run", "--device", "cpu", "--variants", "interleaved", "--unroll", "8"},
                "unroll 8"},
        BadArgs{"ClassicUnrollNotBuilt",
                {"run", "--device", "cpu", "--variants", "reduceUnroll3"},
                "unroll 3"},
        BadArgs{"BaselineNotRun",
                {"run", "--device", "cpu", "--variants", "neighbored", "--baseline", "interleaved"},
                "not among the variants run"},
        BadArgs{"ZeroSize", {"run", "--device", "cpu", "--sizes", "0"}, "at least 1"},
        BadArgs{"TraceWithoutJson",
                {"trace", "--variant", "interleaved", "--block-size", "64"},
                "--json"},
        BadArgs{"TraceUnknownVariant",
                {"trace", "--variant", "reduceFoo", "--block-size", "64", "--json", "-"},
                "unknown variant"},
        BadArgs{"TraceBadBlockSize",
                {"trace", "--variant", "interleaved", "--block-size", "100", "--json", "-"},
                "block size 100"},
        BadArgs{"TraceConflictingUnroll",
                {"trace", "--variant", "reduceUnroll8", "--unroll", "4", "--block-size", "64",
                 "--json", "-"},
                "conflicts"},
        BadArgs{"TraceUnwritable",
                {"trace", "--variant", "interleaved", "--block-size", "64", "--json",
                 "/nonexistent/t.json"},
                "does not exist"}),
    [](const ::testing::TestParamInfo<BadArgs>& info) { return info.param.name; });

TEST(CliValidation, SeveralMessagesFirstLineSaysWhatIsWrong) {
  const CliResult r =
      run_cli({"run", "--device", "cpu", "--block-sizes", "100,2048", "--noise", "2"});
  EXPECT_EQ(r.exit_code, 2);
  const auto lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 2u) << r.err;
  EXPECT_NE(lines[0].find("block size 100"), std::string::npos) << lines[0];
  EXPECT_NE(r.err.find("block size 2048"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("noise"), std::string::npos) << r.err;
  for (const auto& line : lines) EXPECT_EQ(line.rfind("reductionlab-cli: ", 0), 0u) << line;
}

TEST(CliHelp, HelpExitsZeroAndDocumentsTheContract) {
  const CliResult top = run_cli({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  for (const char* word : {"devices", "variants", "run", "trace", "Exit codes"})
    EXPECT_NE(top.out.find(word), std::string::npos) << word;
  const CliResult run = run_cli({"run", "--help"});
  EXPECT_EQ(run.exit_code, 0);
  for (const char* word : {"--variants", "--unroll", "reduceUnroll8", ".samples.csv", "130",
                           "verified WRONG", "Exit codes"})
    EXPECT_NE(run.out.find(word), std::string::npos) << word;
}

}  // namespace
}  // namespace rl::testing
