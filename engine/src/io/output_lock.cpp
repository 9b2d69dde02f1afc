#include "engine/io/output_lock.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string_view>

#include "io/output_paths.h"

namespace rl {

namespace {

using output_paths::dir_of;

std::string joined(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

// mkstemp's six characters: letters and digits.
bool is_temporary_suffix(std::string_view s) {
  if (s.size() != 6) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

// What the lock file says of its holder: "4242\nreductionlab-cli run\n". A pid of digits only
// and a name of printable ASCII are believed; anything else in the file is left out.
std::string holder_of(int fd) {
  char buf[160] = {};
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  const std::string text(buf, n > 0 ? std::size_t(n) : 0);
  const std::size_t eol = text.find('\n');
  const std::string pid = text.substr(0, eol);
  const bool pid_ok =
      !pid.empty() && pid.size() <= 10 && pid.find_first_not_of("0123456789") == std::string::npos;
  std::string writer = eol == std::string::npos ? "" : text.substr(eol + 1);
  if (const std::size_t end = writer.find('\n'); end != std::string::npos) writer.resize(end);
  for (char c : writer)
    if (c < ' ' || c > '~') writer.clear();
  if (writer.empty()) writer = "another process";
  return pid_ok ? writer + " (pid " + pid + ")" : writer;
}

// A name of printable ASCII on one line, as holder_of reads it back.
std::string printable(std::string_view writer) {
  std::string out;
  for (char c : writer.substr(0, 100)) out += (c >= ' ' && c <= '~') ? c : '?';
  return out;
}

}  // namespace

OutputLock::OutputLock(const OutputTarget& target, std::string_view writer) : target_(target) {
  if (target.kind != OutputTarget::Kind::File) return;
  lock_path_ = joined(dir_of(target.path), target.temp_prefix + "lock");
  // The holder removes the lock file before it lets go: a lock taken on a file that is no
  // longer the one at lock_path_ is taken again on the new one.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
      throw Error(display_name(target) + ": cannot make the lock file " + lock_path_ + ": " +
                  std::strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = holder_of(fd);
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw Error(display_name(target) + ": " + holder +
                    " is writing this file; wait for it to end or give another name");
      throw Error(display_name(target) + ": cannot lock " + lock_path_ + ": " + std::strerror(err));
    }
    struct stat held {
    }, named{};
    if (fstat(fd, &held) == 0 && stat(lock_path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      fd_ = fd;
      const std::string holder = std::to_string(getpid()) + "\n" + printable(writer) + "\n";
      if (ftruncate(fd_, 0) == 0) {
        [[maybe_unused]] const ssize_t n = pwrite(fd_, holder.data(), holder.size(), 0);
      }
      return;
    }
    ::close(fd);
  }
  throw Error(display_name(target) + ": cannot lock " + lock_path_ +
              ": it keeps being replaced by another process");
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

std::vector<std::string> OutputLock::remove_stale_temporaries() const {
  std::vector<std::string> removed;
  if (fd_ < 0) return removed;
  const std::string dir = dir_of(target_.path);
  DIR* d = opendir(dir.c_str());
  if (!d) return removed;
  while (const dirent* e = readdir(d)) {
    const std::string_view name = e->d_name;
    if (name.size() <= target_.temp_prefix.size() ||
        name.compare(0, target_.temp_prefix.size(), target_.temp_prefix) != 0 ||
        !is_temporary_suffix(name.substr(target_.temp_prefix.size())))
      continue;
    const std::string path = joined(dir, std::string(name));
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::unlink(path.c_str()) == 0)
      removed.push_back(path);
  }
  closedir(d);
  return removed;
}

std::string write_output_file_locked(const std::string& path, std::string_view text,
                                     std::string_view writer) {
  OutputTarget t;
  std::optional<OutputLock> lock;
  try {
    t = plan_output(path);
    lock.emplace(t, writer);
  } catch (const Error& e) {
    return "cannot write " + std::string(e.what());
  }
  lock->remove_stale_temporaries();
  try {
    write_output(t, text);
  } catch (const OutputError& e) {
    return std::string(e.what()) + "; " + describe_untouched(t, e.untouched());
  }
  return "";
}

}  // namespace rl
