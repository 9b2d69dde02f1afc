#include "engine/io/output_file.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>

namespace rl {

namespace {

constexpr int kMaxSymlinkHops = 40;  // as the kernel's ELOOP limit

std::string os_reason(int err) {
  return err ? std::strerror(err) : "unknown reason";
}

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/<our pid>/fd/N: a descriptor
// of this process. Written to as it is: reopening (or replacing) what it points at would
// truncate or swap the file a shell's `> out` opened.
std::optional<int> descriptor_of(const std::string& p) {
  if (p == "-" || p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  if (p == "/dev/stdin") return 0;
  const std::string own = "/proc/" + std::to_string(getpid()) + "/fd/";
  for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                    std::string("/proc/thread-self/fd/"), own})
    if (p.size() > prefix.size() && p.compare(0, prefix.size(), prefix) == 0 &&
        all_digits(std::string_view(p).substr(prefix.size())))
      return std::atoi(p.c_str() + prefix.size());
  return std::nullopt;
}

std::string dir_of(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string base_of(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// A long name shown whole would bury the message.
std::string shortened(const std::string& s) {
  return s.size() <= 60 ? s : s.substr(0, 40) + "..." + s.substr(s.size() - 12);
}

[[noreturn]] void refuse(const std::string& name, const std::string& why) {
  throw Error(shortened(name) + ": " + why);
}

std::string read_link(const std::string& p, const std::string& name) {
  std::string buf(PATH_MAX, '\0');
  const ssize_t n = readlink(p.c_str(), buf.data(), buf.size());
  if (n < 0)
    refuse(name, "cannot read the symbolic link " + shortened(p) + ": " + os_reason(errno));
  if (std::size_t(n) >= buf.size()) refuse(name, "symbolic link target longer than PATH_MAX");
  buf.resize(std::size_t(n));
  return buf;
}

long name_max_of(const std::string& dir) {
  errno = 0;
  const long n = pathconf(dir.c_str(), _PC_NAME_MAX);
  return n > 0 ? n : NAME_MAX;
}

void check_path_length(const std::string& name, const std::string& p, const char* what) {
  if (p.size() + 1 > PATH_MAX)
    refuse(name, std::string(what) + " is " + std::to_string(p.size()) +
                     " bytes long; the limit is " + std::to_string(PATH_MAX - 1) + " (PATH_MAX)");
}

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

// A short stable name for a long one (FNV-1a, 64 bits, in hex).
std::string hash_of(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// /proc, /sys and their kin take no new files, and their "files" are kernel interfaces:
// refused by name, before the run, rather than failing at the end of it.
void check_kernel_file_system(const std::string& name, const std::string& dir) {
  struct statfs fs {};
  if (statfs(dir.c_str(), &fs) != 0) return;
  const char* kind = nullptr;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC:
      kind = "proc";
      break;
    case SYSFS_MAGIC:
      kind = "sysfs";
      break;
    case DEBUGFS_MAGIC:
      kind = "debugfs";
      break;
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC:
      kind = "cgroup";
      break;
    case SECURITYFS_MAGIC:
      kind = "securityfs";
      break;
    default:
      return;
  }
  refuse(name, "'" + shortened(dir) + "' is a kernel file system (" + kind +
                   "), not storage; give a file on disk");
}

// The writer makes a temporary file beside the target: made (and removed) here once, so a
// directory that takes no new files (read-only, full of inodes, refusing this name) is said
// before the run.
void check_can_create(const std::string& name, const std::string& dir, const std::string& prefix) {
  std::string probe = (dir == "/" ? "/" : dir + "/") + prefix + "XXXXXX";
  const int fd = mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0)
    refuse(name, "cannot create a file in directory '" + shortened(dir) + "': " + os_reason(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

// A character device that cannot be opened now (/dev/tty with no terminal) is said before the
// run. Opened without blocking, and never a FIFO: opening one would end its reader's stream.
void check_device_opens(const std::string& name, const std::string& p) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  if (errno == ENXIO && p == "/dev/tty")
    refuse(name, "there is no terminal: this process has none (no controlling terminal)");
  refuse(name, "cannot open it for writing: " + os_reason(errno));
}

}  // namespace

OutputTarget plan_output(const std::string& path) {
  OutputTarget t;
  t.name = path;
  if (path.empty()) throw Error("empty file name");
  if (path.find('\0') != std::string::npos) refuse(path, "a NUL byte in the file name");
  check_path_length(path, path, "the name");
  std::string p = path;
  struct stat st {};
  bool exists = false;
  for (int hops = 0;; ++hops) {
    if (auto fd = descriptor_of(p)) {
      const int flags = fcntl(*fd, F_GETFL);
      if (flags < 0) refuse(path, "descriptor " + std::to_string(*fd) + " is not open");
      if ((flags & O_ACCMODE) == O_RDONLY)
        refuse(path, "descriptor " + std::to_string(*fd) + " is not open for writing");
      t.kind = OutputTarget::Kind::Fd;
      t.fd = *fd;
      return t;
    }
    if (lstat(p.c_str(), &st) != 0) {
      // A new file; its directory and name are checked below, with messages that say which.
      if (errno != ENOENT && errno != ENOTDIR && errno != ENAMETOOLONG)
        refuse(path, os_reason(errno));
      break;
    }
    if (!S_ISLNK(st.st_mode)) {
      exists = true;
      break;
    }
    if (hops == kMaxSymlinkHops) refuse(path, "too many levels of symbolic links");
    std::string target = read_link(p, path);
    if (target.empty()) refuse(path, "an empty symbolic link");
    if (target[0] != '/' && p.find('/') != std::string::npos) target = dir_of(p) + "/" + target;
    check_path_length(path, target, "the symbolic link's target");
    p = std::move(target);
  }
  t.path = p;
  if (exists) {
    if (S_ISDIR(st.st_mode)) refuse(path, "is a directory, expected a file");
    if (S_ISBLK(st.st_mode))
      refuse(path, "is a block device; give a regular file, a character device or a FIFO");
    if (S_ISSOCK(st.st_mode)) refuse(path, "is a socket; give a regular file or a FIFO");
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      if (access(p.c_str(), W_OK) != 0) refuse(path, "cannot write: " + os_reason(errno));
      if (S_ISCHR(st.st_mode)) check_device_opens(path, p);
      t.kind = OutputTarget::Kind::Stream;
      return t;
    }
    if (access(p.c_str(), W_OK) != 0) refuse(path, "file is not writable: " + os_reason(errno));
  }
  t.kind = OutputTarget::Kind::File;
  t.existed = exists;
  const std::string base = base_of(p);
  if (base.empty() || base == "." || base == "..")
    refuse(path, "names a directory, expected a file");
  const std::string dir = dir_of(p);
  struct stat dst {};
  if (stat(dir.c_str(), &dst) != 0) {
    if (errno == ENOENT) refuse(path, "directory '" + shortened(dir) + "' does not exist");
    refuse(path, "directory '" + shortened(dir) + "': " + os_reason(errno));
  }
  if (!S_ISDIR(dst.st_mode)) refuse(path, "'" + shortened(dir) + "' is not a directory");
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    refuse(path, "cannot write in directory '" + shortened(dir) + "': " + os_reason(errno));
  const long name_max = name_max_of(dir);
  if (long(base.size()) > name_max)
    refuse(path, "the file name is " + std::to_string(base.size()) +
                     " bytes; this file system allows " + std::to_string(name_max) + " (NAME_MAX)");
  // The temporary file: ".NAME.XXXXXX" beside the target, or ".rl-HASH.XXXXXX" (HASH from
  // NAME, so a later run still knows whose it is) where that would pass NAME_MAX. Both are
  // checked here, so no run ends in a name the system refuses.
  t.temp_prefix = "." + base + ".";
  if (long(t.temp_prefix.size() + 6) > name_max) t.temp_prefix = ".rl-" + hash_of(base) + ".";
  check_path_length(path, p, "the path");
  check_path_length(path, dir + "/" + t.temp_prefix + "XXXXXX", "the temporary file's path");
  check_kernel_file_system(path, dir);
  check_can_create(path, dir, t.temp_prefix);
  char real[PATH_MAX];
  t.identity = (realpath(dir.c_str(), real) ? std::string(real) : dir) + "/" + base;
  if (exists) {
    t.dev = st.st_dev;
    t.ino = st.st_ino;
  }
  return t;
}

bool same_output(const OutputTarget& a, const OutputTarget& b) {
  if (a.kind != OutputTarget::Kind::File || b.kind != OutputTarget::Kind::File) return false;
  if (a.identity == b.identity) return true;
  return a.existed && b.existed && a.dev == b.dev && a.ino == b.ino;
}

bool output_is_file(const OutputTarget& target, const std::string& path) {
  if (target.kind != OutputTarget::Kind::File) return false;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return false;
  if (target.existed && st.st_dev == target.dev && st.st_ino == target.ino) return true;
  char real[PATH_MAX];
  return realpath(path.c_str(), real) && target.identity == real;
}

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
