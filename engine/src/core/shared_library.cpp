#include "core/shared_library.h"

#include <dlfcn.h>

namespace rl {

void* open_shared_library(const std::string& name, std::string* why) {
  void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* text = dlerror();
    *why = text ? text : "not found";
    if (why->rfind(name + ": ", 0) == 0) why->erase(0, name.size() + 2);  // said once
  }
  return lib;
}

void* find_symbol(void* lib, const char* name, std::string* missing) {
  void* fn = dlsym(lib, name);
  if (!fn && missing) *missing += (missing->empty() ? "" : ", ") + std::string(name);
  return fn;
}

std::string reject_shared_library(void* lib, const std::string& missing, const std::string& hint) {
  dlclose(lib);
  return "has no " + missing + " (" + hint + ")";
}

}  // namespace rl
