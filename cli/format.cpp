#include "format.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace rlcli {

std::size_t terminal_columns(int fd) {
  if (!isatty(fd)) return 0;
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* env = std::getenv("COLUMNS")) {
    const long n = std::strtol(env, nullptr, 10);
    if (n > 0) return std::size_t(n);
  }
  return 0;
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace rlcli
