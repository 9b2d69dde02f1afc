// Whether a flag was typed (CLI11 counts them): what `run`'s options (run_options.cpp), the spec
// built from them (run_spec.cpp) and its settling on a device (run_settle.cpp) all ask.
#pragma once

#include <CLI/CLI.hpp>

namespace rlcli {

inline bool given(const CLI::Option* o) {
  return o && o->count() > 0;
}

}  // namespace rlcli
