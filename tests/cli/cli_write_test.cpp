// One write guarantee for `run`, on the real binary: the file the user named is written once,
// whole, at the end (the checkpoint has a file of its own beside it); a write that fails says
// the truth about every file; a hard-linked target keeps its old text under every name when the
// new one cannot be written; a second run on one output is refused while the first holds it;
// temporary files of a dead run are removed by the next; names are checked before the run.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include "cli_process.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/io/output_file.h"
#include "engine/io/output_lock.h"

namespace rl::testing {
namespace {

namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

Session read_session(const std::string& path) {
  try {
    return session_from_json(slurp(path));
  } catch (const Error& e) {
    ADD_FAILURE() << path << ": " << e.what();
    return {};
  }
}

// Points of about a quarter second each on the host: the run is still going when it is killed.
std::vector<std::string> long_run(std::vector<std::string> more) {
  std::vector<std::string> args{"run",  "--device", "cpu",       "--variants",  "all", "--sizes",
                                "2^20", "--noise",  "0.0000001", "--budget-ms", "250"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Two quick points whose session is a few kilobytes (20 samples each).
std::vector<std::string> quick(std::vector<std::string> more) {
  std::vector<std::string> args{"run",
                                "--device",
                                "cpu",
                                "--sizes",
                                "1000",
                                "--variants",
                                "neighbored,interleaved",
                                "--min-samples",
                                "20",
                                "--max-samples",
                                "20"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The tool run under `ulimit -f` (RLIMIT_FSIZE, bytes), its stdout and stderr in files.
CliResult run_with_file_limit(const std::vector<std::string>& args, rlim_t bytes) {
  TempDir logs;
  const std::string out = logs.file("out"), err = logs.file("err");
  std::vector<std::string> storage{RL_CLI_PATH};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    struct rlimit limit {};
    getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
    const int in = ::open("/dev/null", O_RDONLY);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, 0);
    dup2(o, 1);
    dup2(e, 2);
    execv(RL_CLI_PATH, argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

void wait_for_file(const std::string& path) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(path) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

TEST(CliWrite, KilledRunLeavesTheNamedFileAsItWasAndItsPointsInTheCheckpoint) {
  TempDir dir;
  const std::string json = dir.file("run.json"), checkpoint = dir.file("run.checkpoint.json");
  std::ofstream(json) << "the old session";
  {
    CliProcess p(long_run({"--json", json}));
    ASSERT_TRUE(p.wait_for_output(" ok", std::chrono::seconds(60))) << p.out() << p.err();
    wait_for_file(checkpoint);
    p.signal(SIGKILL);
    EXPECT_EQ(p.wait(), 128 + SIGKILL);
  }
  EXPECT_EQ(slurp(json), "the old session");  // never a checkpoint under the user's name
  const Session kept = read_session(checkpoint);
  EXPECT_TRUE(kept.cancelled);
  ASSERT_GE(kept.results.size(), 1u);

  // The next run on that name does not lose them: it is refused, naming the checkpoint.
  const CliResult again = run_cli(quick({"--json", json}));
  EXPECT_EQ(again.exit_code, 2) << again.err;
  EXPECT_TRUE(has(again.err,
                  "run.checkpoint.json holds the checkpoint of a run that did not "
                  "finish (" +
                      std::to_string(kept.results.size()) + " finished point"))
      << again.err;
  EXPECT_TRUE(has(again.err, "--resume " + checkpoint)) << again.err;
  EXPECT_EQ(slurp(json), "the old session");

  // --resume of the checkpoint writes the file it was kept for, and the checkpoint goes.
  const CliResult r = run_cli({"run", "--device", "cpu", "--resume", checkpoint});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Session done = read_session(json);
  EXPECT_FALSE(done.cancelled);
  ASSERT_GT(done.results.size(), kept.results.size());
  for (std::size_t i = 0; i < kept.results.size(); ++i)
    EXPECT_EQ(done.results[i].total_samples_ms, kept.results[i].total_samples_ms);
  EXPECT_FALSE(fs::exists(checkpoint));
  EXPECT_TRUE(has(r.err, "wrote " + json)) << r.err;
}

TEST(CliWrite, TemporaryFilesOfADeadRunAreRemovedAndNamed) {
  TempDir dir;
  std::ofstream(dir.file(".run.json.Ab3dE9")) << "half a session";
  const CliResult r = run_cli(quick({"--json", dir.file("run.json")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "removed " + dir.file(".run.json.Ab3dE9") +
                             ": a temporary file left by a run that ended while writing"))
      << r.err;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"run.json"});  // no lock, checkpoint or temporary
}

TEST(CliWrite, FailedFinalWriteTellsTheTruthAboutEveryFile) {
  // `ulimit -f` between a one-point checkpoint and the whole session: SIGXFSZ is ignored, the
  // final write fails with EFBIG, the file there before is kept and a new one is not created.
  TempDir dir;
  const std::string old_json = dir.file("old.json"), new_json = dir.file("new.json");
  std::ofstream(old_json) << "the old session";
  for (const std::string& json : {old_json, new_json}) {
    const CliResult r = run_with_file_limit(quick({"--json", json}), 6000);
    EXPECT_EQ(r.exit_code, 1) << r.err;  // not 153: SIGXFSZ did not kill it
    EXPECT_TRUE(has(r.err, "--json: cannot write " + json + ": File too large")) << r.err;
    EXPECT_TRUE(
        has(r.err, json == old_json ? "(the file there before is kept)" : json + " (not created)"))
        << r.err;
    EXPECT_FALSE(has(r.err, "wrote " + json)) << r.err;
    // The checkpoint holds what fitted, and stderr says how many points that is.
    const std::string checkpoint = json.substr(0, json.size() - 5) + ".checkpoint.json";
    EXPECT_EQ(read_session(checkpoint).results.size(), 1u);
    EXPECT_TRUE(has(r.err, checkpoint + " holds 1 of the 2 finished points")) << r.err;
  }
  EXPECT_EQ(slurp(old_json), "the old session");
  EXPECT_FALSE(fs::exists(new_json));
}

TEST(CliWrite, EverySubcommandReportsAFileOverTheLimit) {
  // trace has no run to cancel, but SIGXFSZ is ignored from the start: exit 1, not 153.
  TempDir dir;
  const std::string json = dir.file("trace.json");
  const CliResult r = run_with_file_limit(
      {"trace", "--variant", "interleaved", "--block-size", "64", "--json", json}, 4000);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(has(r.err, "cannot write " + json + ": File too large")) << r.err;
  EXPECT_TRUE(has(r.err, "not created")) << r.err;
  EXPECT_FALSE(fs::exists(json));
}

TEST(CliWrite, HardLinkedTargetIsWrittenUnderEveryNameOrKeptWhole) {
  TempDir dir;
  const std::string json = dir.file("run.json"), other = dir.file("other-name.json");
  std::ofstream(json) << "the old session";
  ASSERT_EQ(::link(json.c_str(), other.c_str()), 0);
  const CliResult failed = run_with_file_limit(quick({"--json", json}), 6000);
  EXPECT_EQ(failed.exit_code, 1) << failed.err;
  EXPECT_TRUE(has(failed.err, "(the file there before is kept)")) << failed.err;
  EXPECT_EQ(slurp(json), "the old session");
  EXPECT_EQ(slurp(other), "the old session");
  fs::remove(dir.file("run.checkpoint.json"));

  const CliResult r = run_cli(quick({"--json", json}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_session(other).results.size(), 2u);  // the link kept: both names, one file
  EXPECT_EQ(fs::hard_link_count(json), 2u);
}

TEST(CliWrite, SecondRunOnOneOutputIsRefusedWhileTheFirstHoldsIt) {
  TempDir dir;
  const std::string json = dir.file("same.json");
  CliProcess first(long_run({"--json", json}));
  ASSERT_TRUE(first.wait_for_output(" ok", std::chrono::seconds(60))) << first.err();
  const CliResult second = run_cli(quick({"--csv", dir.file("b.csv"), "--json", json}));
  EXPECT_EQ(second.exit_code, 2) << second.err;
  const std::string holder = "reductionlab-cli run (pid " + std::to_string(first.pid()) + ")";
  EXPECT_TRUE(has(second.err, "--json " + json + ": " + holder + " is writing this file"))
      << second.err;
  EXPECT_FALSE(fs::exists(dir.file("b.csv")));  // refused before the run
  // A trace writing the same file is refused alike.
  const CliResult trace = run_cli({"trace", "--variant", "interleaved", "--block-size", "64",
                                   "--size", "4096", "--json", json});
  EXPECT_EQ(trace.exit_code, 2) << trace.err;
  EXPECT_TRUE(has(trace.err, "--json " + json + ": " + holder + " is writing this file"))
      << trace.err;
  first.signal(SIGINT);
  EXPECT_EQ(first.wait(), 130) << first.err();
  EXPECT_TRUE(read_session(json).cancelled);
  EXPECT_EQ(run_cli(quick({"--json", json})).exit_code, 0);  // free again
}

// A trace's --json is locked as a run's outputs are: refused while another writer (here the
// app, as this process says it is) holds it, written once free, the temporary files of a writer
// that died removed and named, and no lock file left.
TEST(CliWrite, TraceTakesTheSameLockAsARun) {
  TempDir dir;
  const std::string json = dir.file("trace.json");
  const std::vector<std::string> trace{
      "trace", "--variant", "interleaved", "--block-size", "64", "--size", "4096", "--json", json};
  const std::string holder = "the ReductionLab app (pid " + std::to_string(getpid()) + ")";
  {
    const OutputLock app(plan_output(json), "the ReductionLab app");
    const CliResult refused = run_cli(trace);
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_TRUE(has(refused.err, "--json " + json + ": " + holder + " is writing this file"))
        << refused.err;
    EXPECT_FALSE(fs::exists(json));
    // And a run, whichever of its outputs is held.
    const CliResult run = run_cli(quick({"--csv", dir.file("r.csv"), "--json", json}));
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_TRUE(has(run.err, holder + " is writing this file")) << run.err;
  }
  std::ofstream(dir.file(".trace.json.Ab3dE9")) << "left by a trace that was killed while writing";
  const CliResult r = run_cli(trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "removed " + dir.file(".trace.json.Ab3dE9"))) << r.err;
  EXPECT_TRUE(has(slurp(json), "\"variant\"")) << slurp(json).substr(0, 200);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"trace.json"});
  // stdout has no file and no lock.
  EXPECT_EQ(run_cli({"trace", "--variant", "interleaved", "--block-size", "64", "--size", "4096",
                     "--json", "-"})
                .exit_code,
            0);
}

TEST(CliWrite, WroteLinesGoToStderr) {
  TempDir dir;
  const CliResult r = run_cli(quick({"--json", dir.file("r.json"), "--csv", dir.file("r.csv")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has(r.out, "wrote")) << r.out;
  EXPECT_TRUE(has(r.err, "wrote " + dir.file("r.csv") + " and " + dir.file("r.samples.csv")));
  EXPECT_TRUE(has(r.err, "wrote " + dir.file("r.json")));
  // The JSON on stdout is the last thing there.
  const CliResult s = run_cli(quick({"--json", "/dev/stdout"}));
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.out.substr(s.out.size() - 2), "}\n") << s.out;
}

// Names that pass every check on paper but cannot be written: refused before the run.
TEST(CliWrite, ProcFilesAndAMissingTerminalAreRefusedBeforeTheRun) {
  const CliResult proc = run_cli(quick({"--json", "/proc/version"}));
  EXPECT_EQ(proc.exit_code, 2) << proc.err;
  EXPECT_EQ(proc.err,
            "reductionlab-cli: --json /proc/version: '/proc' is a kernel file system (proc), not "
            "storage; give a file on disk\n");
  EXPECT_EQ(proc.out, "");
  // setsid(1)'s way: a child in a session of its own has no terminal.
  const pid_t pid = fork();
  if (pid == 0) {
    setsid();
    const int null = ::open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    execl(RL_CLI_PATH, RL_CLI_PATH, "run", "--device", "cpu", "--sizes", "1000", "--json",
          "/dev/tty", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
}

TEST(CliResumeFlags, PresetIsRefusedAndADeviceMismatchSaysWhatDiffers) {
  TempDir dir;
  const std::string json = dir.file("run.json");
  ASSERT_EQ(run_cli(quick({"--json", json})).exit_code, 0);
  const CliResult preset =
      run_cli({"run", "--device", "cpu", "--resume", json, "--preset", "unroll"});
  EXPECT_EQ(preset.exit_code, 2);
  EXPECT_TRUE(has(preset.err, "--preset: --resume runs the experiment of " + json)) << preset.err;
  // The same session, its device renamed: the labels read the same, the name is what differs.
  std::string text = slurp(json);
  const std::string name = read_session(json).device.name;
  const std::size_t at = text.find("\"name\": \"" + name + "\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, name.size() + 10, "\"name\": \"Renamed CPU\"");
  std::ofstream(dir.file("renamed.json")) << text;
  const CliResult r = run_cli({"run", "--device", "cpu", "--resume", dir.file("renamed.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "(device name 'Renamed CPU' there, '" + name + "' here)")) << r.err;
}

}  // namespace
}  // namespace rl::testing
