#include "engine/core/build_info.h"

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
