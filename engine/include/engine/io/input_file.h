// Reading the files people hand to ReductionLab (sessions, spec files), bounded: a file of any
// kind (regular, FIFO, /dev/zero) is read up to a cap, and a NUL byte, which no text file holds,
// stops the read at once. The app and the CLI read through here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl {

// Sessions hold raw samples: a big sweep stays far below this.
inline constexpr std::uint64_t kMaxSessionFileBytes = std::uint64_t(1) << 30;  // 1 GiB
// A spec is a few lines.
inline constexpr std::uint64_t kMaxSpecFileBytes = std::uint64_t(16) << 20;  // 16 MiB

// The whole file as text. Throws rl::Error saying why, without the file's name (the caller
// puts it first): "cannot read: No such file or directory", "is a directory, expected a file",
// "cannot read: Permission denied", "larger than 16 MiB, the limit for this kind of file", "a NUL
// byte at offset 0: not a text file".
std::string read_text_file(const std::string& path, std::uint64_t max_bytes);
// The same for this process's stdin (a pipe, a socket, a file: `--spec -`), read to its end.
std::string read_text_stdin(std::uint64_t max_bytes);

// The same file, with the same checks, a block at a time: for a reader that parses as it reads,
// so a large session is never held whole as text beside the values read from it.
class TextFileBlocks {
 public:
  TextFileBlocks(const std::string& path, std::uint64_t max_bytes);  // throws as read_text_file
  ~TextFileBlocks();
  TextFileBlocks(const TextFileBlocks&) = delete;
  TextFileBlocks& operator=(const TextFileBlocks&) = delete;
  // The next block (at most 64 KiB), empty at the end. Throws as read_text_file.
  std::string_view next();

 private:
  int fd_ = -1;
  std::uint64_t max_bytes_;
  std::uint64_t read_ = 0;
  std::vector<char> buffer_;
};

}  // namespace rl
