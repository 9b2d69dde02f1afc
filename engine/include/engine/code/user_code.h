// The Code view of a kernel the user wrote: compiled now with NVRTC (engine/user/user_kernel.h)
// for one shape and architecture, its SASS, resources and line table read from the cubin with
// the toolkit's cuobjdump and nvdisasm, in the same CodeEntry the built-in rungs have, so the
// views, counts, occupancy and diffs work alike. Runs processes: call it off the GUI thread.
#pragma once

#include "engine/code/code_view.h"
#include "engine/user/user_kernel.h"

namespace rl::code {

struct UserCode {
  CompileResult compiled;  // the compiler's result (diagnostics, timing, cubin)
  CodeEntry entry;         // filled when compiled.ok; entry.missing says what could not be read
};

// k must be registered (register_user_kernel) so the entry names its variant. Never throws for
// the user's mistakes: they are in compiled.diagnostics.
UserCode user_code(const UserKernelSource& k, const UserCompileShape& shape);

// The name the compiler and the line table give the source ("reduceMine.cu").
std::string user_source_file(const UserKernelSource& k);

}  // namespace rl::code
