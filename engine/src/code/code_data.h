// The raw generated data of the Code view, embedded at build time (engine/code/CMakeLists.txt).
#pragma once

#include <string_view>

namespace rl::code {

// The JSON scripts/gen_code_view.py wrote for this build.
std::string_view embedded_code_data();
// The cuobjdump the build dumped the kernels with ("" or "...-NOTFOUND" when there was none).
std::string_view cuobjdump_used_by_build();

}  // namespace rl::code
