#include "engine/core/build_info.h"

// RL_GIT_COMMIT, written at every build (cmake/write_git_commit.cmake); absent when the file is
// compiled outside this project's build.
#if __has_include("rl_git_commit.h")
#include "rl_git_commit.h"
#endif

#ifndef RL_VERSION
#define RL_VERSION "dev"
#endif
#ifndef RL_GIT_COMMIT
#define RL_GIT_COMMIT "unknown"
#endif

namespace rl {

std::string tool_version() {
  return RL_VERSION;
}

std::string git_commit() {
  return RL_GIT_COMMIT;
}

}  // namespace rl
