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

// A directory or a regular file past the cap is refused before reading; returns whether the
// file is a regular one.
struct stat check_before_reading(int fd, std::uint64_t max_bytes) {
  struct stat st {};
  if (fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw Error("is a directory, expected a file");
    if (S_ISREG(st.st_mode) && std::uint64_t(st.st_size) > max_bytes)
      throw Error(std::to_string(st.st_size) + " bytes, larger than " + limit_text(max_bytes) +
                  ", the limit for this kind of file");
  }
  return st;
}

// One block of up to size bytes at offset `done` of the file, checked; 0 at the end.
std::size_t read_block(int fd, char* buf, std::size_t size, std::uint64_t done,
                       std::uint64_t max_bytes) {
  for (;;) {
    const ssize_t n = ::read(fd, buf, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("cannot read: ") + std::strerror(errno));
    // /dev/zero, a binary file: said at the first block, not after reading the cap.
    if (const void* nul = std::memchr(buf, '\0', std::size_t(n)))
      throw Error("a NUL byte at offset " +
                  std::to_string(done + std::size_t(static_cast<const char*>(nul) - buf)) +
                  ": not a text file");
    if (done + std::size_t(n) > max_bytes)
      throw Error("larger than " + limit_text(max_bytes) +
                  ", the limit for this kind of file (stopped reading there)");
    return std::size_t(n);
  }
}

constexpr std::size_t kBlock = 1 << 16;

int open_for_reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw Error(std::string("cannot read: ") + std::strerror(errno));
  return fd;
}

std::string read_text_fd(int fd, std::uint64_t max_bytes) {
  const struct stat st = check_before_reading(fd, max_bytes);
  std::string text;
  if (S_ISREG(st.st_mode)) text.reserve(std::size_t(st.st_size));
  char buf[kBlock];
  while (const std::size_t n = read_block(fd, buf, sizeof buf, text.size(), max_bytes))
    text.append(buf, n);
  return text;
}

}  // namespace

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
  const int fd = open_for_reading(path);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  return read_text_fd(fd, max_bytes);
}

std::string read_text_stdin(std::uint64_t max_bytes) {
  return read_text_fd(STDIN_FILENO, max_bytes);
}

TextFileBlocks::TextFileBlocks(const std::string& path, std::uint64_t max_bytes)
    : fd_(open_for_reading(path)), max_bytes_(max_bytes), buffer_(kBlock) {
  try {
    check_before_reading(fd_, max_bytes_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

TextFileBlocks::~TextFileBlocks() {
  ::close(fd_);
}

std::string_view TextFileBlocks::next() {
  const std::size_t n = read_block(fd_, buffer_.data(), buffer_.size(), read_, max_bytes_);
  read_ += n;
  return {buffer_.data(), n};
}

}  // namespace rl
