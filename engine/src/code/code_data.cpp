// The generated Code view data (build-tree JSON, scripts/gen_code_view.py), linked into the
// binary with the assembler's .incbin: the file can be tens of megabytes, which a generated C
// array would take the compiler minutes to read. OBJECT_DEPENDS rebuilds this file when it changes.
#include "code/code_data.h"

#ifndef RL_CODE_DATA_PATH
#error "RL_CODE_DATA_PATH must name the generated code_view.json (engine/code/CMakeLists.txt)"
#endif

asm(".section .rodata\n"
    ".balign 16\n"
    ".hidden rl_code_view_data_begin\n"
    ".hidden rl_code_view_data_end\n"
    "rl_code_view_data_begin:\n"
    ".incbin \"" RL_CODE_DATA_PATH
    "\"\n"
    "rl_code_view_data_end:\n"
    ".byte 0\n"
    ".previous\n");

extern "C" const char rl_code_view_data_begin[];
extern "C" const char rl_code_view_data_end[];

namespace rl::code {

std::string_view embedded_code_data() {
  return std::string_view(
      rl_code_view_data_begin,
      static_cast<std::size_t>(rl_code_view_data_end - rl_code_view_data_begin));
}

std::string_view cuobjdump_used_by_build() {
  return RL_CUOBJDUMP_PATH;
}

}  // namespace rl::code
