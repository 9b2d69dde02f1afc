// The one output writer (engine/output_file.h) and the bounded reader (engine/input_file.h):
// temporary file + fsync + rename for regular files, symlinks followed (the link stays a link),
// devices, FIFOs and descriptors written directly and never replaced, a planted temporary-name
// symlink never followed, names checked before a run, the OS's reason on failure with the old
// file untouched; /dev/zero and oversized files refused at once.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/core/error.h"
#include "engine/io/input_file.h"
#include "engine/io/output_file.h"
#include "temp_dir.h"

namespace rl {
namespace {

namespace fs = std::filesystem;

using testing::slurp;
using testing::spit;
using TempDir = testing::TempDir;

std::string plan_error(const std::string& path) {
  try {
    plan_output(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OutputFile, NewFileIsWrittenWholeAndNoTemporaryFileStays) {
  TempDir dir;
  const OutputTarget t = plan_output(dir.file("out.json"));
  EXPECT_EQ(t.kind, OutputTarget::Kind::File);
  EXPECT_FALSE(t.existed);
  write_output(t, "{\"a\": 1}\n");
  EXPECT_EQ(slurp(dir.file("out.json")), "{\"a\": 1}\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"out.json"});
  // 0666 less the umask, as open() would have made it (mkstemp alone makes 0600).
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(fs::status(dir.file("out.json")).permissions(),
            fs::perms(0666 & ~mask) & fs::perms::mask);
}

TEST(OutputFile, ReplacingKeepsTheOldFilesMode) {
  TempDir dir;
  spit(dir.file("out.csv"), "old");
  chmod(dir.file("out.csv").c_str(), 0640);
  const OutputTarget t = plan_output(dir.file("out.csv"));
  EXPECT_TRUE(t.existed);
  write_output(t, "new");
  EXPECT_EQ(slurp(dir.file("out.csv")), "new");
  struct stat st {};
  ASSERT_EQ(stat(dir.file("out.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST(OutputFile, SymlinkIsFollowedAndStaysALink) {
  TempDir dir;
  fs::create_directory(dir.path() / "data");
  spit(dir.file("data/real.json"), "old");
  fs::create_symlink("data/real.json", dir.path() / "link.json");  // relative to the link's dir
  fs::create_symlink("missing.json", dir.path() / "data" / "dangling.json");
  write_output(plan_output(dir.file("link.json")), "new");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "link.json"));
  EXPECT_EQ(slurp(dir.file("data/real.json")), "new");
  // A dangling link: its target is created, the link kept.
  write_output(plan_output(dir.file("data/dangling.json")), "created");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "data" / "dangling.json"));
  EXPECT_EQ(slurp(dir.file("data/missing.json")), "created");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"data", "link.json"}));
}

TEST(OutputFile, PlantedTemporaryNameSymlinkIsNeverFollowed) {
  // The old writer opened FILE.tmp with O_CREAT|O_TRUNC: a symlink planted there redirected
  // the write (as root, anywhere). mkstemp's names are unique and opened with O_EXCL.
  TempDir dir;
  spit(dir.file("victim"), "precious");
  fs::create_symlink(dir.file("victim"), dir.path() / "out.json.tmp");
  write_output(plan_output(dir.file("out.json")), "session");
  EXPECT_EQ(slurp(dir.file("victim")), "precious");
  EXPECT_EQ(slurp(dir.file("out.json")), "session");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "out.json.tmp"));
}

TEST(OutputFile, DevicesAreWrittenDirectlyNeverReplaced) {
  // As root the old writer renamed its temporary file over /dev/null.
  struct stat st {};
  if (lstat("/dev/null", &st) != 0 || !S_ISCHR(st.st_mode))
    GTEST_SKIP() << "/dev/null is not a device on this machine (an old writer replaced it)";
  const OutputTarget t = plan_output("/dev/null");
  EXPECT_EQ(t.kind, OutputTarget::Kind::Stream);
  write_output(t, "discarded");
  ASSERT_EQ(lstat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // A link to a device is followed to it and written the same way.
  TempDir dir;
  fs::create_symlink("/dev/null", dir.path() / "sink");
  EXPECT_EQ(plan_output(dir.file("sink")).kind, OutputTarget::Kind::Stream);
  write_output(plan_output(dir.file("sink")), "discarded");
  EXPECT_TRUE(fs::is_symlink(dir.path() / "sink"));
}

TEST(OutputFile, StdoutNamesAreDescriptorsNotFiles) {
  for (const char* name : {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    const OutputTarget t = plan_output(name);
    EXPECT_EQ(t.kind, OutputTarget::Kind::Fd) << name;
    EXPECT_EQ(t.fd, 1) << name;
  }
  EXPECT_EQ(plan_output("/dev/stderr").fd, 2);
  TempDir dir;
  fs::create_symlink("/dev/stdout", dir.path() / "out.csv");
  EXPECT_EQ(plan_output(dir.file("out.csv")).kind, OutputTarget::Kind::Fd);
  // A descriptor this process does not have open for writing is refused before the run.
  EXPECT_TRUE(has(plan_error("/dev/fd/987"), "not open")) << plan_error("/dev/fd/987");
}

TEST(OutputFile, FifoIsWrittenDirectly) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const OutputTarget t = plan_output(fifo);
  EXPECT_EQ(t.kind, OutputTarget::Kind::Stream);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  write_output(t, "through the pipe");
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  struct stat st {};
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(OutputFile, DevFullGivesTheOsReason) {
  struct stat st {};
  if (lstat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode))
    GTEST_SKIP() << "/dev/full is not a device on this machine (an old writer replaced it)";
  const OutputTarget t = plan_output("/dev/full");
  try {
    write_output(t, "x");
    FAIL() << "wrote to /dev/full";
  } catch (const OutputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write /dev/full: No space left on device");
    EXPECT_EQ(e.error_number(), ENOSPC);
  }
  EXPECT_EQ(write_output_file("/dev/full", "x"),
            "cannot write /dev/full: No space left on device; /dev/full may hold part of it");
}

TEST(OutputFile, FailedWriteLeavesTheOldFileAndNoTemporaryFile) {
  TempDir dir;
  spit(dir.file("run.json"), "the old session");
  const OutputTarget t = plan_output(dir.file("run.json"));
  // Files larger than 8 bytes cannot be written (EFBIG): the temporary file fails, the rename
  // never happens.
  struct rlimit old {};
  getrlimit(RLIMIT_FSIZE, &old);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 8;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string what;
  bool untouched = false;
  try {
    write_output(t, "a new session, longer than eight bytes");
  } catch (const OutputError& e) {
    what = e.what();
    untouched = e.untouched();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(has(what, "File too large")) << what;
  EXPECT_TRUE(untouched);
  EXPECT_EQ(describe_untouched(t, untouched),
            dir.file("run.json") + " untouched (the file there before is kept)");
  EXPECT_EQ(slurp(dir.file("run.json")), "the old session");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"run.json"});
}

TEST(OutputFile, TargetThatBecameADirectoryFailsCleanly) {
  TempDir dir;
  const OutputTarget t = plan_output(dir.file("out.json"));
  fs::create_directories(dir.path() / "out.json" / "inside");
  try {
    write_output(t, "x");
    FAIL() << "renamed over a directory";
  } catch (const OutputError& e) {
    EXPECT_TRUE(e.untouched());
    EXPECT_EQ(describe_untouched(t, true), dir.file("out.json") + " not created");
  }
  EXPECT_EQ(dir.names(), std::vector<std::string>{"out.json"});
}

TEST(OutputFile, NamesAreCheckedBeforeTheRun) {
  TempDir dir;
  EXPECT_EQ(plan_error(""), "empty file name");
  EXPECT_TRUE(has(plan_error("/"), "is a directory")) << plan_error("/");
  EXPECT_TRUE(has(plan_error(dir.file("no/such/dir/x.json")), "does not exist"));
  spit(dir.file("plain"), "");
  EXPECT_TRUE(has(plan_error(dir.file("plain/x.json")), "is not a directory"))
      << plan_error(dir.file("plain/x.json"));
  // The final name past NAME_MAX: said before the run, not after it.
  const std::string long_name = dir.file(std::string(300, 'n') + ".json");
  EXPECT_TRUE(has(plan_error(long_name), "NAME_MAX")) << plan_error(long_name);
  EXPECT_TRUE(has(plan_error(long_name), "305 bytes")) << plan_error(long_name);
  // A name that fits, but whose ".NAME.XXXXXX" temporary name would not: a short one is used.
  const std::string near_limit = dir.file(std::string(250, 'n'));
  const OutputTarget t = plan_output(near_limit);
  EXPECT_EQ(t.temp_prefix.substr(0, 4), ".rl-");  // ".rl-HASH.": still the file's own
  EXPECT_EQ(t.temp_prefix, plan_output(near_limit).temp_prefix);
  EXPECT_NE(t.temp_prefix, plan_output(dir.file(std::string(251, 'n'))).temp_prefix);
  write_output(t, "fits");
  EXPECT_EQ(slurp(near_limit), "fits");
  // The whole path past PATH_MAX.
  std::string deep = dir.path().string();
  while (deep.size() < 5000) deep += "/" + std::string(200, 'd');
  EXPECT_TRUE(has(plan_error(deep + "/x.json"), "PATH_MAX")) << plan_error(deep + "/x.json");
  // Links that loop.
  fs::create_symlink("b", dir.path() / "a");
  fs::create_symlink("a", dir.path() / "b");
  EXPECT_TRUE(has(plan_error(dir.file("a")), "too many levels of symbolic links"));
}

TEST(OutputFile, CollisionsAreFoundThroughLinksAndSpellings) {
  TempDir dir;
  spit(dir.file("same.csv"), "");
  fs::create_symlink("same.csv", dir.path() / "alias.csv");
  fs::create_hard_link(dir.path() / "same.csv", dir.path() / "hard.csv");
  const OutputTarget a = plan_output(dir.file("same.csv"));
  EXPECT_TRUE(same_output(a, plan_output(dir.file("./same.csv"))));
  EXPECT_TRUE(same_output(a, plan_output(dir.file("alias.csv"))));
  EXPECT_TRUE(same_output(a, plan_output(dir.file("hard.csv"))));
  EXPECT_TRUE(same_output(plan_output(dir.file("new.json")), plan_output(dir.file("./new.json"))));
  EXPECT_FALSE(same_output(a, plan_output(dir.file("other.csv"))));
  // Two outputs to a device or to stdout are written one after the other: no collision.
  EXPECT_FALSE(same_output(plan_output("/dev/null"), plan_output("/dev/null")));
  EXPECT_FALSE(same_output(plan_output("-"), plan_output("/dev/stdout")));
  EXPECT_TRUE(output_is_file(a, dir.file("alias.csv")));
  EXPECT_FALSE(output_is_file(a, dir.file("other.csv")));
}

TEST(InputFile, DevZeroAndOversizedFilesAreRefusedAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  try {
    read_text_file("/dev/zero", kMaxSpecFileBytes);
    FAIL() << "read /dev/zero";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "a NUL byte at offset 0: not a text file");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  TempDir dir;
  spit(dir.file("big.json"), std::string(3000, ' '));
  try {
    read_text_file(dir.file("big.json"), 2048);
    FAIL() << "read past the cap";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.what(), "larger than 2 KiB")) << e.what();
  }
  EXPECT_EQ(read_text_file(dir.file("big.json"), 3000).size(), 3000u);
  // A stream past the cap (a FIFO that never ends) stops at the cap.
  const std::string fifo = dir.file("endless");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    const std::string chunk(4096, 'x');
    while (::write(fd, chunk.data(), chunk.size()) > 0) {
    }
    ::close(fd);
  });
  std::signal(SIGPIPE, SIG_IGN);
  try {
    read_text_file(fifo, 1 << 20);
    ADD_FAILURE() << "read past the cap";
  } catch (const Error& e) {
    EXPECT_TRUE(has(e.what(), "larger than 1 MiB")) << e.what();
  }
  writer.join();  // the read end closed: the writer's next write fails (EPIPE)
  std::signal(SIGPIPE, SIG_DFL);
  try {
    read_text_file(dir.path().string(), 100);
    ADD_FAILURE() << "read a directory";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "is a directory, expected a file");
  }
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// A hard-linked output keeps its links: every name sees the new text, on the same inode.
TEST(OutputFileLinks, HardLinkedOutputIsWrittenThroughItsInode) {
  TempDir dir;
  const std::string a = dir.file("a.json"), b = dir.file("b.json");
  spit(a, "old text, longer than the new one");
  ASSERT_EQ(::link(a.c_str(), b.c_str()), 0);
  struct stat before {};
  ASSERT_EQ(::stat(a.c_str(), &before), 0);
  EXPECT_EQ(write_output_file(a, "new"), "");
  struct stat after {};
  ASSERT_EQ(::stat(a.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_nlink, 2u);
  EXPECT_EQ(slurp(a), "new");
  EXPECT_EQ(slurp(b), "new");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"a.json", "b.json"}));  // no temporary left
}

}  // namespace
}  // namespace rl
