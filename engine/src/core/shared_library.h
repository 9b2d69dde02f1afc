// The libraries the engine opens at run time instead of linking them (NVML: multi/nvml_api.h,
// NCCL: multi/nccl_api.h), because they ship with the driver or a pip package and a machine
// without them must still run everything else: one file opened, its functions looked up, and
// why a file cannot be used said in words the user can act on.
#pragma once

#include <string>

namespace rl {

// dlopen(name, RTLD_NOW | RTLD_LOCAL): the handle, or null and *why set to dlerror's text.
// dlerror starts with the file name; it is dropped there, as callers put every reason after
// the name once ("libx.so: cannot open shared object file ...").
void* open_shared_library(const std::string& name, std::string* why);

// name's address in lib, or null; then, when missing is given, name is added to it ("a, b"),
// so a file lacking several functions names them all at once. Null missing: an optional one.
void* find_symbol(void* lib, const char* name, std::string* missing);

// find_symbol into a function pointer of the API's table.
template <typename F>
void look_up(void* lib, const char* name, F& fn, std::string* missing) {
  fn = reinterpret_cast<F>(find_symbol(lib, name, missing));
}

// A file that lacks required functions: closed, and the reason, "has no <missing> (<hint>)"
// (hint: what library is needed instead).
std::string reject_shared_library(void* lib, const std::string& missing, const std::string& hint);

}  // namespace rl
