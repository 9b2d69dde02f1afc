// A user kernel as a spec, a session and the run stream carry it (engine/user/user_kernel.h has
// what the engine does with it): plain data, so experiment/spec.h can hold it without the compiler.
#pragma once

#include <cstddef>
#include <string>

namespace rl {

// What a session and a run stream carry of a user kernel: enough to compile it again anywhere.
struct UserKernelSource {
  std::string name;          // the __global__ function, and the rung's name on every chart
  std::string source;        // the whole .cu text, UTF-8
  std::string file;          // where it was read from ("" when written in the app)
  std::string started_from;  // the built-in variant id it was copied from, or ""
  bool operator==(const UserKernelSource&) const = default;
};

// A file larger than this is refused: a ladder kernel is about 2 KB.
inline constexpr std::size_t kMaxUserKernelBytes = 256 * 1024;

}  // namespace rl
