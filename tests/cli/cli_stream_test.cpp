// `run --stream jsonl` and `devices --json` (docs/cli.md, docs/remote.md): stdout is the stream
// and nothing else, every line reads with the engine's reader, the spec comes from stdin with
// `--spec -`, SIGTERM ends with the finished points and an end line, and a run that cannot start
// says why in an error line as well as on stderr.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>

#include "cli_process.h"
#include "engine/io/stream.h"

namespace rl::testing {
namespace {

const char* kSpec =
    R"({"variants":["neighbored","interleaved"],"block_sizes":[256],"sizes":[1000,4096],)"
    R"("timing":{"budget_ms":2,"min_samples":3}})";

std::string spec_file(const TempDir& dir, const std::string& text = kSpec) {
  const std::string path = dir.file("spec.json");
  std::ofstream(path) << text;
  return path;
}

// Feeds every line of out to a reader; the reader's error, if any, fails the test.
StreamReader read_all(const std::string& out) {
  StreamReader reader;
  for (const std::string& line : lines_of(out)) {
    try {
      reader.feed(line);
    } catch (const StreamError& e) {
      ADD_FAILURE() << e.what() << "\n" << line;
    }
  }
  return reader;
}

TEST(CliStream, ARunFromStdinIsOneEventPerLine) {
  TempDir dir;
  const CliResult r =
      run_cli({"run", "--stream", "jsonl", "--spec", "-", "--device", "cpu"}, spec_file(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  for (const std::string& l : lines)
    EXPECT_EQ(l.rfind(R"({"schema_version":"1.0","event":")", 0), 0u) << "only the stream: " << l;
  EXPECT_NE(lines.front().find(R"("event":"start")"), std::string::npos);
  EXPECT_NE(lines.back().find(R"("event":"end")"), std::string::npos);
  const StreamReader reader = read_all(r.out);
  EXPECT_TRUE(reader.ended());
  ASSERT_EQ(reader.session().results.size(), 4u);
  EXPECT_EQ(reader.session().device.backend, "host");
  EXPECT_FALSE(reader.session().cancelled);
  EXPECT_EQ(reader.counts().ok, 4u);
}

TEST(CliStream, SigtermEndsWithTheFinishedPointsAndAnEndLine) {
  TempDir dir;
  const std::string spec = spec_file(
      dir, R"({"variants":["neighbored","interleaved","neighbored_less"],"block_sizes":[256],)"
           R"("sizes":[65536,262144,1048576],"timing":{"budget_ms":80,"noise":1e-6}})");
  CliProcess p({"run", "--stream", "jsonl", "--spec", spec, "--device", "cpu"});
  ASSERT_TRUE(p.wait_for_output(R"("event":"point")", std::chrono::seconds(60)));
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait(), 128 + SIGTERM);
  const StreamReader reader = read_all(p.out());
  ASSERT_TRUE(reader.ended()) << p.out();
  EXPECT_TRUE(reader.session().cancelled);
  EXPECT_GE(reader.session().results.size(), 1u);
  EXPECT_LT(reader.session().results.size(), 9u);
}

TEST(CliStream, ARunThatCannotStartSaysWhyInAnErrorLine) {
  TempDir dir;
  const CliResult r = run_cli(
      {"run", "--stream", "jsonl", "--spec", spec_file(dir, "{\"sizes\":"), "--device", "cpu"});
  EXPECT_EQ(r.exit_code, 2);
  StreamReader reader;
  ASSERT_EQ(reader.feed(r.out), StreamEvent::Error) << r.out;
  EXPECT_EQ(reader.message().rfind("--spec " + dir.file("spec.json") + ": not JSON", 0), 0u)
      << reader.message();
  EXPECT_NE(r.err.find("not JSON"), std::string::npos) << "stderr too";

  const CliResult bad = run_cli({"run", "--stream", "xml"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "reductionlab-cli: --stream 'xml': expected jsonl\n");
  const CliResult dash = run_cli({"run", "--stream", "jsonl", "--json", "-", "--device", "cpu"});
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_NE(dash.err.find("--json -: stdout carries the --stream lines"), std::string::npos)
      << dash.err;
}

TEST(CliStream, DevicesAsOneJsonLine) {
  const CliResult r = run_cli({"devices", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(lines_of(r.out).size(), 1u);
  StreamReader reader;
  ASSERT_EQ(reader.feed(r.out), StreamEvent::Devices);
  ASSERT_TRUE(reader.discovery());
  EXPECT_EQ(reader.discovery()->host.backend, "host");
  EXPECT_EQ(reader.discovery()->gpus.empty(), !reader.discovery()->no_gpu_reason.empty());
}

}  // namespace
}  // namespace rl::testing
