// Path helpers shared by the output writer and its plan (engine-private).
#pragma once

#include <cstring>
#include <string>

namespace rl::output_paths {

inline std::string os_reason(int err) {
  return err ? std::strerror(err) : "unknown reason";
}

inline std::string dir_of(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

inline std::string base_of(const std::string& p) {
  const std::size_t slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// A long name shown whole would bury the message.
inline std::string shortened(const std::string& s) {
  return s.size() <= 60 ? s : s.substr(0, 40) + "..." + s.substr(s.size() - 12);
}

}  // namespace rl::output_paths
