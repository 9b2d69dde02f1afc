#include "engine/io/output_file.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "io/output_paths.h"

namespace rl {

namespace {

using output_paths::base_of;
using output_paths::dir_of;
using output_paths::os_reason;
using output_paths::shortened;

// The mode a new file gets from open(0666): the process's umask taken out. Read from
// /proc/self/status, since umask() can only be read by setting it (not thread-safe).
mode_t new_file_mode() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Umask:", 0) == 0)
      return mode_t(0666) & ~mode_t(std::strtol(line.c_str() + 6, nullptr, 8));
  return 0644;
}

// 0 when every byte went out, else errno.
int write_all(int fd, std::string_view text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno ? errno : EIO;
    if (n == 0) return EIO;
    done += std::size_t(n);
  }
  return 0;
}

void write_descriptor(const OutputTarget& t, std::string_view text) {
  // What this process already printed through stdio goes first.
  if (t.fd == 1) std::fflush(stdout);
  if (t.fd == 2) std::fflush(stderr);
  if (const int err = write_all(t.fd, text)) throw OutputError(t, err, "write");
}

void write_stream(const OutputTarget& t, std::string_view text) {
  const int fd = ::open(t.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) throw OutputError(t, errno, "open");
  struct stat st {};
  if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    ::close(fd);
    // It was a device or FIFO when the run started; writing into whatever it is now could
    // clobber a file, so nothing is written.
    throw OutputError(t, EEXIST, "no longer a device or FIFO");
  }
  const int err = write_all(fd, text);
  if (::close(fd) != 0 && !err && errno != EINTR) throw OutputError(t, errno, "close");
  if (err) throw OutputError(t, err, "write");
}

// The whole text written to a temporary file beside the target, then removed: what a file
// system that cannot reserve blocks gives as the best sign that the text will fit.
void prove_space(const OutputTarget& t, std::string_view text) {
  const std::string dir = dir_of(t.path);
  std::string temp = (dir == "/" ? "/" : dir + "/") + t.temp_prefix + "XXXXXX";
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) throw OutputError(t, errno, "create a temporary file in " + dir);
  int err = write_all(fd, text);
  if (!err && ::fsync(fd) != 0 && errno != EINVAL) err = errno;
  ::close(fd);
  ::unlink(temp.c_str());
  if (err) throw OutputError(t, err, "write");
}

constexpr const char* kThroughLinks = "write through the hard link";

// The target has other names (st_nlink > 1): a rename would give this name a new inode and leave
// the others on the old text, so the text is written over the target's own inode, truncated to
// its length and fsynced: every name sees the new text. Not atomic, but never a half file for
// want of space: the blocks are reserved first (fallocate), and a text over the process's file
// size limit is refused, both before a byte of the target changes. Where the file system cannot
// reserve, the whole text goes to a temporary file first (space there now, as a best guess).
void write_through_links(const OutputTarget& t, std::string_view text) {
  struct rlimit limit {};
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      text.size() > limit.rlim_cur)
    throw OutputError(t, EFBIG, "reserve space");
  const int fd = ::open(t.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) throw OutputError(t, errno, "open");
  struct stat old {};
  if (fstat(fd, &old) != 0) {
    const int err = errno;
    ::close(fd);
    throw OutputError(t, err, "open");
  }
  if (!text.empty() &&
      ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(text.size())) != 0) {
    const int err = errno;
    if (err != EOPNOTSUPP && err != ENOSYS) {
      // Blocks past the end that were reserved before the failure go; the text stays as it was.
      [[maybe_unused]] const int r = ::ftruncate(fd, old.st_size);
      ::close(fd);
      throw OutputError(t, err, "reserve space");
    }
    try {
      prove_space(t, text);
    } catch (const OutputError&) {
      ::close(fd);
      throw;
    }
  }
  int err = write_all(fd, text);
  if (!err && ::ftruncate(fd, static_cast<off_t>(text.size())) != 0) err = errno;
  if (!err && ::fsync(fd) != 0 && errno != EINVAL) err = errno;
  if (::close(fd) != 0 && !err && errno != EINTR) err = errno;
  if (err) throw OutputError(t, err, kThroughLinks);
}

bool has_other_links(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1;
}

void write_regular(const OutputTarget& t, std::string_view text) {
  // A file with other hard links keeps them.
  if (has_other_links(t.path)) return write_through_links(t, text);
  const std::string dir = dir_of(t.path);
  std::string temp = (dir == "/" ? "/" : dir + "/") + t.temp_prefix + "XXXXXX";
  // O_CREAT | O_EXCL: an existing name (a planted symlink) is never opened; mode 0600.
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) throw OutputError(t, errno, "create a temporary file in " + dir);
  auto fail = [&](int err, const std::string& step) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw OutputError(t, err, step);
  };
  // The old file's mode (and, as root, owner) carries over; a new file gets 0666 less umask.
  struct stat old {};
  if (stat(t.path.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
    if (fchmod(fd, old.st_mode & 07777) != 0) fail(errno, "fchmod");
    // Best effort: a file system without owners keeps root's.
    if (geteuid() == 0 && (old.st_uid != 0 || old.st_gid != 0) &&
        fchown(fd, old.st_uid, old.st_gid) != 0) {
    }
  } else if (fchmod(fd, new_file_mode()) != 0) {
    fail(errno, "fchmod");
  }
  if (const int err = write_all(fd, text)) fail(err, "write");
  // The data is on disk before the rename makes the new name visible.
  if (::fsync(fd) != 0 && errno != EINVAL) fail(errno, "fsync");
  if (::close(fd) != 0 && errno != EINTR) {
    const int err = errno;
    ::unlink(temp.c_str());
    throw OutputError(t, err, "close");
  }
  // A link made while the text was written: the file keeps it.
  if (has_other_links(t.path)) {
    ::unlink(temp.c_str());
    return write_through_links(t, text);
  }
  if (std::rename(temp.c_str(), t.path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    throw OutputError(t, err, "rename");
  }
  // The rename itself on disk: best effort (some file systems refuse fsync on a directory).
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

OutputError::OutputError(const OutputTarget& t, int err, std::string step)
    : Error("cannot write " + display_name(t) + ": " +
            (err == EEXIST && step == "no longer a device or FIFO"
                 ? "it is no longer a device or FIFO; not replaced"
                 : os_reason(err))),
      errno_(err),
      reason_(os_reason(err)),
      step_(std::move(step)),
      // A regular file is replaced only by the rename, the last step: before it, nothing
      // changed. A device, FIFO or descriptor may have taken part of the text.
      untouched_((t.kind == OutputTarget::Kind::File && step_ != kThroughLinks) ||
                 step_ == "open" || step_ == "no longer a device or FIFO") {}

void write_output(const OutputTarget& target, std::string_view text) {
  switch (target.kind) {
    case OutputTarget::Kind::Fd:
      write_descriptor(target, text);
      return;
    case OutputTarget::Kind::Stream:
      write_stream(target, text);
      return;
    case OutputTarget::Kind::File:
      write_regular(target, text);
      return;
  }
}

void write_output_in_place(const OutputTarget& target, std::string_view text) {
  struct stat st {};
  if (target.kind != OutputTarget::Kind::File || lstat(target.path.c_str(), &st) != 0 ||
      !S_ISREG(st.st_mode))
    return write_output(target, text);
  write_through_links(target, text);
}

std::string display_name(const OutputTarget& t) {
  if (t.kind == OutputTarget::Kind::Fd && t.name == "-") return "stdout";
  return shortened(t.name);
}

std::string untouched_note(const OutputTarget& t, bool untouched) {
  if (!untouched) return "may hold part of it";
  if (t.kind != OutputTarget::Kind::File) return "untouched";
  // What is there now, not what the plan saw: another process may have made or removed the
  // file while the run went on.
  struct stat now {};
  const bool file_now = lstat(t.path.c_str(), &now) == 0 && S_ISREG(now.st_mode);
  if (file_now)
    return t.existed ? "the file there before is kept"
                     : "another process made a file there during the run; it is kept";
  if (t.existed) return "the file there before was removed during the run; none written";
  return "not created";
}

std::string describe_untouched(const OutputTarget& t, bool untouched) {
  const std::string note = untouched_note(t, untouched);
  if (note == "the file there before is kept") return display_name(t) + " untouched (" + note + ")";
  if (note == "not created" || note == "untouched" || note == "may hold part of it")
    return display_name(t) + " " + note;
  return display_name(t) + ": " + note;
}

std::string write_output_file(const std::string& path, std::string_view text) {
  OutputTarget t;
  try {
    t = plan_output(path);
  } catch (const Error& e) {
    return "cannot write " + std::string(e.what());
  }
  try {
    write_output(t, text);
  } catch (const OutputError& e) {
    return std::string(e.what()) + "; " + describe_untouched(t, e.untouched());
  }
  return "";
}

}  // namespace rl
