#include "engine/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/core/error.h"

namespace rl {

namespace {

// "16 MiB", "1 GiB", "1000 bytes": a limit, said exactly.
std::string limit_text(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + " " + units[u];
}

std::string read_text_fd(int fd, std::uint64_t max_bytes) {
  struct stat st {};
  if (fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw Error("is a directory, expected a file");
    if (S_ISREG(st.st_mode) && std::uint64_t(st.st_size) > max_bytes)
      throw Error(std::to_string(st.st_size) + " bytes, larger than " + limit_text(max_bytes) +
                  ", the limit for this kind of file");
  }
  std::string text;
  if (S_ISREG(st.st_mode)) text.reserve(std::size_t(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;
    // /dev/zero, a binary file: said at the first block, not after reading the cap.
    if (const void* nul = std::memchr(buf, '\0', std::size_t(n)))
      throw Error("a NUL byte at offset " +
                  std::to_string(text.size() + std::size_t(static_cast<const char*>(nul) - buf)) +
                  ": not a text file");
    if (text.size() + std::size_t(n) > max_bytes)
      throw Error("larger than " + limit_text(max_bytes) +
                  ", the limit for this kind of file (stopped reading there)");
    text.append(buf, std::size_t(n));
  }
  return text;
}

}  // namespace

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw Error(std::string("cannot read: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  return read_text_fd(fd, max_bytes);
}

std::string read_text_stdin(std::uint64_t max_bytes) {
  return read_text_fd(STDIN_FILENO, max_bytes);
}

}  // namespace rl
