// What the fuzz targets (fuzz/*_fuzz.cpp) hold every input to, beyond "no crash, no leak, no
// sanitizer report": a refusal is the reader's own error with a message; anything the reader
// takes can be written and read back unchanged. A broken rule aborts, which libFuzzer reports
// as a crash and saves the input (as does an exception that escapes: a raw library error that
// was not mapped to a field-named one).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace rl::fuzz {

[[noreturn]] inline void broken(std::string_view rule, std::string_view detail) {
  // Long enough to see what went wrong; an echoed 64 KiB string would drown the report.
  std::fprintf(stderr, "fuzz: %.*s: %.*s\n", int(rule.size()), rule.data(),
               int(detail.size() < 2000 ? detail.size() : 2000), detail.data());
  std::abort();
}

// A refusal says why on one line (the CLI prints it as is): never empty.
inline void check_message(std::string_view what) {
  if (what.empty()) broken("a refusal without a message", "");
}

}  // namespace rl::fuzz
