// What built these binaries: the version and the commit ("-dirty" with uncommitted changes),
// recorded in every session, stream and benchmark. One file knows them (build_info.cpp), so a new
// commit recompiles that file, not the engine.
#pragma once

#include <string>

namespace rl {

std::string tool_version();
std::string git_commit();

}  // namespace rl
