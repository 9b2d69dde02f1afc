// Vocabulary shared by the whole engine: data types, workspaces, kernel ids (defined by the
// kernels library so both floors agree) and their names in files and on the command line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "launch.h"

namespace rl {

using kernels::DType;
using kernels::KernelId;
using kernels::Workspace;

std::string_view to_string(DType t);      // "int32", "float32"
std::string_view to_string(Workspace w);  // "global", "shared", "registers"
std::optional<DType> parse_dtype(std::string_view s);
std::optional<Workspace> parse_workspace(std::string_view s);

}  // namespace rl
