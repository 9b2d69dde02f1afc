#include "output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cli.h"

namespace rlcli {

namespace fs = std::filesystem;

void check_writable(std::string_view flag, const std::string& path) {
  const std::string where = std::string(flag) + " " + path;
  if (path.empty()) throw UsageError(std::string(flag) + ": empty file name");
  if (path == "-")
    throw UsageError(std::string(flag) + " -: the table goes to stdout; give a file name");
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UsageError(where + ": is a directory, expected a file");
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    throw UsageError(where + ": directory '" + dir.string() + "' does not exist");
  if (access(dir.c_str(), W_OK) != 0)
    throw UsageError(where + ": cannot write in directory '" + dir.string() +
                     "': " + std::strerror(errno));
  if (fs::exists(path, ec) && access(path.c_str(), W_OK) != 0)
    throw UsageError(where + ": file is not writable: " + std::strerror(errno));
}

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::string tmp = path + ".tmp";
  auto fail = [&](const std::string& what) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path + ": " + what + ": " + why);
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("open " + tmp);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail("write");
    }
    done += std::size_t(n);
  }
  // Data on disk before the rename makes the new name visible.
  if (::fsync(fd) != 0 && errno != EINVAL) {
    ::close(fd);
    fail("fsync");
  }
  if (::close(fd) != 0) fail("close");
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("rename");
}

std::string samples_path(const std::string& csv_path) {
  std::string base = csv_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".csv") == 0)
    base.resize(base.size() - 4);
  return base + ".samples.csv";
}

std::string read_file(std::string_view flag, const std::string& path) {
  const std::string where = std::string(flag) + " " + path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw UsageError(where + ": is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(where + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw UsageError(where + ": read failed");
  return text.str();
}

}  // namespace rlcli
