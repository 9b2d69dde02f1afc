// plan_output and the checks it makes before a run: what a name is (a descriptor, a device, a
// regular file through its symlinks), whether a file can be made beside it, its lengths.
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "engine/io/output_file.h"
#include "io/output_paths.h"

namespace rl {

namespace {

using output_paths::base_of;
using output_paths::dir_of;
using output_paths::os_reason;
using output_paths::shortened;

constexpr int kMaxSymlinkHops = 40;  // as the kernel's ELOOP limit

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

}  // namespace rl
