// Where a helper program the build puts beside the test binaries is (the fake and the faulting
// GPU workers): the directory of /proc/self/exe, so the tests find it wherever they were copied.
#pragma once

#include <unistd.h>

#include <string>

namespace rl::testing {

inline std::string beside_this_test(const std::string& name) {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  const std::string path(exe, n > 0 ? std::size_t(n) : 0);
  return path.substr(0, path.rfind('/') + 1) + name;
}

}  // namespace rl::testing
