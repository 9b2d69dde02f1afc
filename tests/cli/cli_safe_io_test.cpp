// Nothing lost, nothing clobbered, on the real binary: outputs checked before the
// run (collisions, names too long), written through the engine's writer (devices and stdout
// never replaced, planted symlinks never followed), failures said with the OS's reason and
// what became of each file; SIGTERM, SIGHUP and SIGPIPE end a run as Ctrl-C does; a failed
// stdout is exit 1; hostile spec files and conflicting flags are exit 2 with one line.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "cli_process.h"
#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kQuick{"run",     "--device", "cpu",        "--budget-ms", "2",
                                      "--sizes", "1000",     "--variants", "interleaved"};

std::vector<std::string> quick(std::vector<std::string> more) {
  std::vector<std::string> args = kQuick;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The old writer, run as root, replaced /dev/null and /dev/full with regular files; a test
// here must not write into (or replace) such a file.
bool is_device(const char* path) {
  struct stat st {};
  return lstat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

// Runs the tool with stdout to `out_fd` (dup'd), stderr to a file; returns the exit code.
struct Spawned {
  pid_t pid = -1;
  std::string err_path;
  int wait() const {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

Spawned spawn_with_stdout(const std::vector<std::string>& args, int out_fd, const TempDir& dir) {
  Spawned s;
  s.err_path = dir.file("stderr.txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/zero", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, s.err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_storage{RL_CLI_PATH};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawn(&s.pid, RL_CLI_PATH, &actions, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("posix_spawn failed");
  posix_spawn_file_actions_destroy(&actions);
  return s;
}

CliResult run_to_dev_full(const std::vector<std::string>& args) {
  TempDir dir;
  const int full = ::open("/dev/full", O_WRONLY);
  const Spawned s = spawn_with_stdout(args, full, dir);
  ::close(full);
  CliResult r;
  r.exit_code = s.wait();
  r.err = slurp(s.err_path);
  return r;
}

Session read_session(const std::string& path) {
  try {
    return session_from_json(slurp(path));
  } catch (const Error& e) {
    ADD_FAILURE() << path << ": " << e.what();
    return {};
  }
}

// --- Bad requests: exit 2, one line naming the flag, before anything runs. ---

struct Refusal {
  std::string name;
  std::vector<std::string> args;
  std::string says;
};
std::ostream& operator<<(std::ostream& os, const Refusal& r) {
  return os << r.name;
}

// Files for the cases below, made once in a directory of their own (removed at exit).
struct Files {
  fs::path dir = fs::temp_directory_path() / ("rlcli-safe-io-" + std::to_string(getpid()));
  Files() {
    fs::create_directories(dir);
    auto put = [&](const char* name, const std::string& text) {
      std::ofstream(dir / name, std::ios::binary) << text;
    };
    std::string deep = "{\"timing\": ";
    for (int i = 0; i < 100000; ++i) deep += "{\"a\": ";
    put("deep.json", deep + "1" + std::string(100001, '}'));
    put("huge-number.json", R"({"timing": {"noise": 1e309}})");
    put("no-variants.json", R"({"variants": []})");
    put("huge-size.json", R"({"sizes": [2305843009213693952]})");
    put("nul.json", std::string("{\"sizes\": [1]}\0", 15));
    put("spec.json", R"({"sizes": [1000]})");
  }
  ~Files() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};
// Made on first use only: every test runs in a process of its own under ctest.
std::string file(const std::string& name) {
  static const Files files;
  return (files.dir / name).string();
}

// "@deep.json" in a case's arguments: that file of Files.
std::vector<std::string> with_files(std::vector<std::string> args) {
  for (std::string& a : args)
    if (a.size() > 1 && a[0] == '@') a = file(a.substr(1));
  return args;
}

class CliRefusal : public ::testing::TestWithParam<Refusal> {};

TEST_P(CliRefusal, ExitTwoWithOneLine) {
  const Refusal& bad = GetParam();
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = run_cli(with_files(bad.args));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_TRUE(has(lines[0], bad.says)) << lines[0];
  EXPECT_EQ(r.out, "");
  EXPECT_LT(ms, 2000) << bad.name << " took " << ms << " ms";
}

INSTANTIATE_TEST_SUITE_P(
    SafeIo, CliRefusal,
    ::testing::Values(
        Refusal{"CsvAndJsonSameFile", quick({"--csv", "@same.csv", "--json", "@./same.csv"}),
                "same.csv: is also the file --csv writes"},
        Refusal{"JsonIsTheSamplesCsv", quick({"--csv", "@x.csv", "--json", "@x.samples.csv"}),
                "x.samples.csv: is also the file --csv writes its raw samples to"},
        Refusal{"JsonIsTheSpec", quick({"--spec", "@spec.json", "--json", "@spec.json"}),
                "is the file --spec reads"},
        Refusal{"NameLongerThanNameMax", quick({"--json", std::string(300, 'n') + ".json"}),
                "the file name is 305 bytes; this file system allows 255 (NAME_MAX)"},
        Refusal{"CsvToStdoutDash", quick({"--csv", "-"}), "--csv -: the table goes to stdout"},
        Refusal{
            "SpecNestedDeep", {"run", "--device", "cpu", "--spec", "@deep.json"}, "timing.a.a.a"},
        Refusal{"SpecDevZero",
                {"run", "--device", "cpu", "--spec", "/dev/zero"},
                "--spec /dev/zero: a NUL byte at offset 0: not a text file"},
        Refusal{"SpecNulByte",
                {"run", "--device", "cpu", "--spec", "@nul.json"},
                "a NUL byte at offset 14"},
        Refusal{"SpecNumberOutOfRange",
                {"run", "--device", "cpu", "--spec", "@huge-number.json"},
                "timing.noise: the number 1e309 is out of range"},
        Refusal{"SpecEmptyVariants",
                {"run", "--device", "cpu", "--spec", "@no-variants.json"},
                "variants: an empty list"},
        Refusal{"SpecSizeThatWouldWrap",
                {"run", "--device", "cpu", "--spec", "@huge-size.json"},
                "size 2^61: too large (at most 2^40)"},
        Refusal{"UnrollConflictsWithTheName",
                {"run", "--device", "cpu", "--variants", "reduceUnroll8", "--unroll", "4"},
                "--unroll 4: conflicts with variant reduceUnroll8, whose name fixes unroll 8"}),
    [](const ::testing::TestParamInfo<Refusal>& info) { return info.param.name; });

TEST(CliRefusalDetail, DeepSpecSaysHowDeep) {
  const CliResult r = run_cli({"run", "--device", "cpu", "--spec", file("deep.json")});
  EXPECT_TRUE(has(r.err, "nested deeper than 64 levels")) << r.err;
}

// --- Outputs written safely. ---

TEST(CliOutputs, DevicesAndStdoutAreWrittenDirectlyNeverReplaced) {
  struct stat st {};
  ASSERT_EQ(lstat("/dev/stdout", &st), 0);
  ASSERT_TRUE(S_ISLNK(st.st_mode));
  // The old writer renamed /dev/stdout.tmp over the /dev/stdout link (as root).
  const CliResult r = run_cli(quick({"--csv", "/dev/stdout"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(lstat("/dev/stdout", &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_FALSE(fs::exists("/dev/stdout.tmp"));
  EXPECT_FALSE(fs::exists("/dev/stdout.samples.csv"));
  EXPECT_TRUE(has(r.out, "\nvariant,seed_name,workspace")) << r.out;  // after the table
  EXPECT_TRUE(has(r.out, "1 of 1 points: 1 ok")) << r.out;
  EXPECT_TRUE(has(r.err, "the raw samples are not written")) << r.err;

  if (!is_device("/dev/null")) GTEST_SKIP() << "/dev/null is not a device on this machine";
  const CliResult n = run_cli(quick({"--json", "/dev/null"}));
  EXPECT_EQ(n.exit_code, 0) << n.err;
  ASSERT_EQ(lstat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(CliOutputs, LinksAreFollowedAndPlantedTemporaryLinksIgnored) {
  TempDir dir;
  std::ofstream(dir.file("victim")) << "precious";
  fs::create_symlink(dir.file("victim"), dir.path() / "out.json.tmp");
  fs::create_symlink("real.csv", dir.path() / "link.csv");
  const CliResult r =
      run_cli(quick({"--json", dir.file("out.json"), "--csv", dir.file("link.csv")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(dir.file("victim")), "precious");
  EXPECT_EQ(read_session(dir.file("out.json")).results.size(), 1u);
  EXPECT_TRUE(fs::is_symlink(dir.path() / "link.csv"));
  EXPECT_TRUE(has(slurp(dir.file("real.csv")), "variant,seed_name"));
  // Nothing else: no temporary file left, the samples beside the name given.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"link.csv", "link.samples.csv", "out.json",
                                             "out.json.tmp", "real.csv", "victim"}));
}

TEST(CliOutputs, FailedOutputSaysWhyAndWhatBecameOfEachFile) {
  if (!is_device("/dev/full")) GTEST_SKIP() << "/dev/full is not a device on this machine";
  TempDir dir;
  const CliResult r = run_cli(quick({"--csv", dir.file("run.csv"), "--json", "/dev/full"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(has(r.err,
                  "reductionlab-cli: --json: cannot write /dev/full: No space left on "
                  "device\n"))
      << r.err;
  EXPECT_TRUE(has(r.err, "files: written (new): " + dir.file("run.csv") + ", " +
                             dir.file("run.samples.csv") +
                             "; not written: /dev/full (may hold part of it)"))
      << r.err;
  // The CSV files were still written: a failed output loses nothing else.
  EXPECT_TRUE(has(slurp(dir.file("run.csv")), "interleaved"));
}

TEST(CliOutputs, StdoutThatCannotBeWrittenIsExitOne) {
  if (!is_device("/dev/full")) GTEST_SKIP() << "/dev/full is not a device on this machine";
  const CliResult v = run_to_dev_full({"variants"});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(v.err, "reductionlab-cli: cannot write to stdout: No space left on device\n");
  const CliResult t =
      run_to_dev_full({"trace", "--variant", "interleaved", "--block-size", "64", "--json", "-"});
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_EQ(t.err, "reductionlab-cli: --json: cannot write stdout: No space left on device\n");
  TempDir dir;
  const CliResult r = run_to_dev_full(quick({"--json", dir.file("r.json")}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(has(r.err, "cannot write to stdout: No space left on device")) << r.err;
  EXPECT_EQ(read_session(dir.file("r.json")).results.size(), 1u);  // the file is still written
}

// --- Signals end a run as Ctrl-C does: finished points kept, files written, 128 + signal. ---

// Points of about 60 ms each on the host (250 samples, never quiet enough to stop sooner): the
// run is still going when the signal comes.
std::vector<std::string> long_run(const TempDir& dir) {
  return {"run",
          "--device",
          "cpu",
          "--variants",
          "neighbored,neighbored_less,interleaved,reduceUnroll2,reduceUnroll4,reduceUnroll8",
          "--sizes",
          "2^18",
          "--noise",
          "0.0000001",
          "--budget-ms",
          "100",
          "--max-samples",
          "250",
          "--json",
          dir.file("out.json"),
          "--csv",
          dir.file("out.csv")};
}

void expect_cancelled_run_kept(const TempDir& dir) {
  const Session s = read_session(dir.file("out.json"));
  EXPECT_TRUE(s.cancelled);
  EXPECT_GE(s.results.size(), 1u);
  EXPECT_LT(s.results.size(), 6u);
  EXPECT_EQ(lines_of(slurp(dir.file("out.csv"))).size(), 1 + s.results.size());
}

class CliSignal : public ::testing::TestWithParam<int> {};

TEST_P(CliSignal, EndsTheRunLikeCtrlC) {
  const int sig = GetParam();
  TempDir dir;
  CliProcess p(long_run(dir));
  ASSERT_TRUE(p.wait_for_output(" ok", std::chrono::seconds(30))) << p.out() << p.err();
  p.signal(sig);
  EXPECT_EQ(p.wait(), 128 + sig) << p.err();
  expect_cancelled_run_kept(dir);
  EXPECT_TRUE(has(p.err(), "cancelling after the current sample")) << p.err();
}

// Every signal whose default would end the run (SIGINT and SIGPIPE have tests of their own).
INSTANTIATE_TEST_SUITE_P(Signals, CliSignal,
                         ::testing::Values(SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                                           SIGXCPU),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(sigabbrev_np(info.param));
                         });

TEST(CliSignalPipe, ClosedStdoutEndsTheRunAndTheFilesAreWritten) {
  // `reductionlab-cli run ... | head -3`: the reader goes away mid-run.
  TempDir dir;
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);  // the child keeps no read end of its own
  const Spawned s = spawn_with_stdout(long_run(dir), fds[1], dir);
  ::close(fds[1]);
  std::string got;
  char buf[4096];
  while (!has(got, " ok")) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    ASSERT_GT(n, 0) << got << slurp(s.err_path);
    got.append(buf, std::size_t(n));
  }
  ::close(fds[0]);
  EXPECT_EQ(s.wait(), 128 + SIGPIPE) << slurp(s.err_path);
  expect_cancelled_run_kept(dir);
  EXPECT_TRUE(has(slurp(s.err_path), "stdout was closed (SIGPIPE)")) << slurp(s.err_path);
}

// --- A checkpoint after every point, and --resume. ---

TEST(CliResume, KilledRunLeavesACheckpointThatResumeFinishes) {
  TempDir dir;
  const std::string json = dir.file("out.json"), checkpoint_file = dir.file("out.checkpoint.json");
  {
    // SIGKILL: no handler runs, only what was written before survives.
    CliProcess p(long_run(dir));
    ASSERT_TRUE(p.wait_for_output(" ok", std::chrono::seconds(30))) << p.out() << p.err();
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!fs::exists(checkpoint_file) && std::chrono::steady_clock::now() < end)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    p.signal(SIGKILL);
    EXPECT_EQ(p.wait(), 128 + SIGKILL);
  }
  EXPECT_FALSE(fs::exists(json));  // written at the end only
  const Session checkpoint = read_session(checkpoint_file);
  EXPECT_TRUE(checkpoint.cancelled);  // not finished
  ASSERT_GE(checkpoint.results.size(), 1u);
  ASSERT_LT(checkpoint.results.size(), 6u);

  const CliResult r = run_cli({"run", "--device", "cpu", "--resume", checkpoint_file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Session done = read_session(json);  // the file the checkpoint was kept for
  EXPECT_FALSE(done.cancelled);
  ASSERT_EQ(done.results.size(), 6u);
  EXPECT_EQ(done.spec.variants, checkpoint.spec.variants);
  // The finished points are kept as they were, not measured again.
  for (std::size_t i = 0; i < checkpoint.results.size(); ++i) {
    EXPECT_EQ(done.results[i].point, checkpoint.results[i].point);
    EXPECT_EQ(done.results[i].total_samples_ms, checkpoint.results[i].total_samples_ms);
  }
  for (const PointResult& p : done.results) EXPECT_EQ(p.status, PointStatus::Ok);
  EXPECT_TRUE(has(r.out, "6 of 6 points: 6 ok")) << r.out;
}

TEST(CliResume, RefusesToChangeTheExperimentOrTheDevice) {
  TempDir dir;
  const std::string json = dir.file("run.json");
  ASSERT_EQ(run_cli(quick({"--json", json})).exit_code, 0);
  const CliResult sizes = run_cli({"run", "--device", "cpu", "--resume", json, "--sizes", "2^20"});
  EXPECT_EQ(sizes.exit_code, 2);
  EXPECT_TRUE(has(sizes.err, "--sizes: --resume runs the experiment of " + json)) << sizes.err;
  // A session measured on an H200 is not finished on the host.
  const std::string h200 = (fs::path(__FILE__).parent_path().parent_path().parent_path() /
                            "resources/sessions/h200-ladder.json")
                               .string();
  const CliResult other =
      run_cli({"run", "--device", "cpu", "--resume", h200, "--json", dir.file("mixed.json")});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_TRUE(has(other.err, "measured on cuda:0 NVIDIA H200")) << other.err;
  EXPECT_FALSE(fs::exists(dir.file("mixed.json")));
  const CliResult junk = run_cli({"run", "--device", "cpu", "--resume", file("spec.json")});
  EXPECT_EQ(junk.exit_code, 2);
  EXPECT_TRUE(has(junk.err, "--resume " + file("spec.json") + ": not a ReductionLab session"))
      << junk.err;
}

}  // namespace
}  // namespace rl::testing
