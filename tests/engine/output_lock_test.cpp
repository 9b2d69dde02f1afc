// One writer per output (engine/io/output_lock.h): a second lock on a file is refused naming the
// holder, the lock file goes with its holder, temporary files of a dead writer are removed and
// nothing else is. Hard-linked targets over the file size limit keep their old text under every
// name; what a failure says about the old file is what is there now. The input generator
// stops at a cancel; a resume on another device says what differs.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "engine/io/output_file.h"
#include "engine/io/output_lock.h"
#include "engine/io/resume.h"
#include "temp_dir.h"

namespace rl {
namespace {

namespace fs = std::filesystem;

using testing::slurp;
using testing::spit;
struct Dir : testing::TempDir {
  Dir() : testing::TempDir("rl-lock") {}
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OutputLock, SecondLockIsRefusedNamingTheHolder) {
  Dir dir;
  const OutputTarget t = plan_output(dir.file("run.json"));
  {
    const OutputLock first(t, "reductionlab-cli run");
    EXPECT_EQ(dir.names(), std::vector<std::string>{".run.json.lock"});
    try {
      const OutputLock second(plan_output(dir.file("run.json")), "the ReductionLab app");
      FAIL() << "two locks on one file";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()),
                dir.file("run.json") + ": reductionlab-cli run (pid " + std::to_string(getpid()) +
                    ") is writing this file; wait for it to end or give another name");
    }
  }
  EXPECT_TRUE(dir.names().empty());                   // the lock file goes with its holder
  const OutputLock again(t, "reductionlab-cli run");  // and the file can be locked again
}

// What the lock file says of its holder is believed only as far as it reads as a pid and a name:
// a file from a writer that did not name itself, or one holding anything else, still refuses.
TEST(OutputLock, AHolderThatDidNotSayWhatItIsIsAnotherProcess) {
  Dir dir;
  const OutputLock first(plan_output(dir.file("run.json")), "a name\nwith\x01 a control");
  const auto refusal = [&] {
    try {
      const OutputLock second(plan_output(dir.file("run.json")), "reductionlab-cli trace");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("not refused");
  };
  const std::string pid = std::to_string(getpid());
  EXPECT_TRUE(has(refusal(), ": a name?with? a control (pid " + pid + ") is writing")) << refusal();
  spit(dir.file(".run.json.lock"), pid + "\n");  // as a writer that gave no name
  EXPECT_TRUE(has(refusal(), ": another process (pid " + pid + ") is writing")) << refusal();
  spit(dir.file(".run.json.lock"), "not a pid\n\x7f\n");
  EXPECT_TRUE(has(refusal(), ": another process is writing this file")) << refusal();
}

// The app's one-file writer: locked while it writes, refused while another writes.
TEST(OutputLock, AWriterOfOneFileIsRefusedWhileAnotherHoldsItAndWritesWhenFree) {
  Dir dir;
  const std::string path = dir.file("saved.json");
  {
    const OutputLock run(plan_output(path), "reductionlab-cli run");
    EXPECT_EQ(write_output_file_locked(path, "app\n", "the ReductionLab app"),
              "cannot write " + path + ": reductionlab-cli run (pid " + std::to_string(getpid()) +
                  ") is writing this file; wait for it to end or give another name");
    EXPECT_FALSE(fs::exists(path));
  }
  spit(dir.file(".saved.json.Zz9xY1"), "left by a writer that died");
  EXPECT_EQ(write_output_file_locked(path, "app\n", "the ReductionLab app"), "");
  EXPECT_EQ(slurp(path), "app\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"saved.json"});  // no lock, no temporary left
  EXPECT_EQ(write_output_file_locked("/dev/null", "x", "the ReductionLab app"), "");
  EXPECT_EQ(write_output_file_locked(dir.file("no/such.json"), "x", "the ReductionLab app")
                .rfind("cannot write ", 0),
            0u);
}

TEST(OutputLock, DevicesHaveNoLock) {
  const OutputLock none(plan_output("/dev/null"), "reductionlab-cli run");
  EXPECT_TRUE(none.remove_stale_temporaries().empty());
}

TEST(OutputLock, TemporaryFilesOfADeadWriterAreRemovedAndNothingElse) {
  Dir dir;
  for (const char* name : {".run.json.Ab3dE9", ".run.json.zzzzzz", ".run.json.short", ".run.json.",
                           ".other.json.Ab3dE9", "run.json.Ab3dE9", ".run.json.Ab3dE9x"})
    spit(dir.file(name), "x");
  fs::create_directory(dir.file(".run.json.dir123"));
  const OutputLock lock(plan_output(dir.file("run.json")), "reductionlab-cli run");
  std::vector<std::string> removed = lock.remove_stale_temporaries();
  std::sort(removed.begin(), removed.end());
  EXPECT_EQ(removed,
            (std::vector<std::string>{dir.file(".run.json.Ab3dE9"), dir.file(".run.json.zzzzzz")}));
  EXPECT_EQ(dir.names(),
            (std::vector<std::string>{".other.json.Ab3dE9", ".run.json.", ".run.json.Ab3dE9x",
                                      ".run.json.dir123", ".run.json.lock", ".run.json.short",
                                      "run.json.Ab3dE9"}));
}

// Under `ulimit -f` smaller than the text: the write fails before a byte of the target changes.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old_;
    small.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_FSIZE, &small) == 0;
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  bool ok() const { return ok_; }

 private:
  struct rlimit old_ {};
  void (*old_handler_)(int) = nullptr;
  bool ok_ = false;
};

TEST(OutputLinks, HardLinkedTargetOverTheLimitKeepsItsOldTextUnderEveryName) {
  Dir dir;
  const std::string a = dir.file("a.json"), b = dir.file("b.json");
  spit(a, "old text");
  ASSERT_EQ(::link(a.c_str(), b.c_str()), 0);
  const OutputTarget t = plan_output(a);
  std::string what;
  bool untouched = false;
  {
    const FileSizeLimit limit(16);
    ASSERT_TRUE(limit.ok());
    try {
      write_output(t, "a new session, longer than sixteen bytes");
    } catch (const OutputError& e) {
      what = e.what();
      untouched = e.untouched();
    }
  }
  EXPECT_TRUE(has(what, "File too large")) << what;
  EXPECT_TRUE(untouched);
  EXPECT_EQ(slurp(a), "old text");
  EXPECT_EQ(slurp(b), "old text");
  EXPECT_EQ(untouched_note(t, untouched), "the file there before is kept");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"a.json", "b.json"}));
  // Within the limit, both names get the whole new text.
  write_output(t, "new");
  EXPECT_EQ(slurp(b), "new");
}

TEST(OutputNotes, WhatBecameOfTheFileIsWhatIsThereNow) {
  Dir dir;
  const OutputTarget fresh = plan_output(dir.file("new.json"));
  EXPECT_EQ(untouched_note(fresh, true), "not created");
  spit(dir.file("new.json"), "made by someone else");
  EXPECT_EQ(untouched_note(fresh, true),
            "another process made a file there during the run; it is kept");
  spit(dir.file("old.json"), "old");
  const OutputTarget old = plan_output(dir.file("old.json"));
  EXPECT_EQ(untouched_note(old, true), "the file there before is kept");
  fs::remove(dir.file("old.json"));
  EXPECT_EQ(untouched_note(old, true),
            "the file there before was removed during the run; none written");
  EXPECT_EQ(
      describe_untouched(old, true),
      dir.file("old.json") + ": the file there before was removed during the run; none written");
}

TEST(OutputNames, KernelFileSystemsAreRefusedBeforeTheRun) {
  try {
    plan_output("/proc/version");
    FAIL() << "planned a write to /proc/version";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.what(), "'/proc' is a kernel file system (proc)")) << e.what();
  }
}

TEST(InputCancel, ACancelledInputIsEmptyAndAFinishedOneIsTheSame) {
  std::atomic<bool> cancel{true};
  // 2^30 elements would take 4 GiB and seconds: a cancel set before returns at once.
  const InputData none = make_input(std::uint64_t(1) << 30, DType::Int32, 0x5EED, &cancel);
  EXPECT_EQ(none.size(), 0u);
  cancel.store(false);
  const std::uint64_t n = (std::uint64_t(1) << 22) * 2 + 5;  // across the chunk edges
  const InputData whole = make_input(n, DType::Int32, 0x5EED, &cancel);
  ASSERT_EQ(whole.size(), n);
  for (std::uint64_t i :
       {std::uint64_t(0), (std::uint64_t(1) << 22) - 1, std::uint64_t(1) << 22, n - 1})
    EXPECT_EQ(whole.i32[i], input_i32_at(i)) << i;
  const InputData floats = make_input(n, DType::Float32, 0x5EED, &cancel);
  EXPECT_EQ(floats.size(), n);
  EXPECT_EQ(make_input(1000, DType::Float32).f32,
            make_input(1000, DType::Float32, 0x5EED, &cancel).f32);
}

TEST(ResumeMismatch, SaysWhatDiffers) {
  Session saved;
  saved.device.backend = "host";
  saved.device.name = "Renamed CPU";
  DeviceInfo here;
  here.backend = "host";
  here.name = "AMD EPYC";
  EXPECT_EQ(resume_mismatch(saved, here),
            "measured on cpu (host emulation); this run is on cpu (host emulation) (device name "
            "'Renamed CPU' there, 'AMD EPYC' here)");
  here.name = "Renamed CPU";
  EXPECT_EQ(resume_mismatch(saved, here), "");
}

}  // namespace
}  // namespace rl
