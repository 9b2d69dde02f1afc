// `run --stream jsonl` and `devices --json`, what a remote launcher reads: stdout is the stream
// and nothing else, every line reads with the engine's reader, the spec comes from stdin with
// `--spec -`, SIGTERM ends with the finished points and an end line, and a run that cannot start
// says why in an error line as well as on stderr.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>

#include "cli_process.h"
#include "engine/process/stream.h"

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
    EXPECT_EQ(l.rfind(R"({"schema_version":")" + rl::stream_version() + R"(","event":")", 0), 0u)
        << "only the stream: " << l;
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

// The app's Cancel over ssh, or a dropped connection: the reader goes away mid-point. The CLI
// cancels then, not a whole point later when it next writes.
TEST(CliStream, TheReaderGoingAwayCancelsWithoutWaitingForTheNextLine) {
  TempDir dir;
  // One point samples for 4 x 3 s (the noise target is never met): far longer than the wait.
  const std::string spec =
      spec_file(dir, R"({"variants":["neighbored"],"block_sizes":[256],"sizes":[65536,131072],)"
                     R"("timing":{"budget_ms":3000,"noise":1e-9,"max_samples":1000000}})");
  int out[2];
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);  // the CLI holds no reader of its own
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, dir.file("err.txt").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args{RL_CLI_PATH, "run", "--stream", "jsonl",
                                "--spec",    spec,  "--device", "cpu"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, RL_CLI_PATH, &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string got;
  char buf[4096];
  while (got.find(R"("event":"progress")") == std::string::npos) {
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, std::size_t(n));
  }
  ASSERT_NE(got.find(R"("event":"progress")"), std::string::npos) << got;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the point is being sampled
  close(out[0]);
  const auto closed = std::chrono::steady_clock::now();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0 &&
         std::chrono::steady_clock::now() - closed < std::chrono::seconds(20))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - closed).count();
  ASSERT_TRUE(WIFEXITED(status)) << "still running after 20 s";
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGPIPE) << slurp(dir.file("err.txt"));
  EXPECT_LT(took, 5.0) << "cancelled when the reader went, not at the next line";
  EXPECT_NE(slurp(dir.file("err.txt")).find("stdout was closed (SIGPIPE)"), std::string::npos);
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
