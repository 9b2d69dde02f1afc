// reductionlab-cli: the headless tool for GPU servers, scripts and tests. main() registers the
// subcommands and maps every failure to its exit code: a bad argument is one line on stderr and
// exit 2; a runtime failure is a message and exit 1 (see cli.h).
#include <cstdio>
#include <exception>
#include <vector>

#include "cli.h"
#include "error.h"

namespace {

constexpr const char* kFooter = R"(
Run `reductionlab-cli SUBCOMMAND --help` for its options.
Exit codes: 0 success; 1 runtime failure (CUDA error, a point FAILED, a file not written);
2 bad argument (one line on stderr says what); 3 a point verified WRONG; 130 cancelled (Ctrl-C).)";

void print_error(const std::string& what) {
  std::fprintf(stderr, "reductionlab-cli: %s\n", what.c_str());
}

// CLI11's messages can span lines; the contract is one line per error.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ReductionLab: CUDA parallel reductions, from the seed's ladder to the roof",
               "reductionlab-cli"};
  app.require_subcommand(1);
  app.footer(kFooter);
  std::vector<rlcli::Command> commands{rlcli::add_devices_command(app),
                                       rlcli::add_variants_command(app),
                                       rlcli::add_run_command(app), rlcli::add_trace_command(app)};
  // CLI11 reports an unknown subcommand as "A subcommand is required"; say what was typed.
  auto known = [&](const std::string& name) {
    for (const rlcli::Command& c : commands)
      if (c.app->check_name(name)) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    print_error(std::string("unknown subcommand '") + argv[1] +
                "' (expected devices, variants, run or trace; see --help)");
    return rlcli::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(one_line(e.what()) + " (see --help)");
    return rlcli::kExitUsage;
  }
  try {
    for (const rlcli::Command& c : commands)
      if (c.app->parsed()) return c.run();
    print_error("no subcommand given (see --help)");
    return rlcli::kExitUsage;
  } catch (const rlcli::UsageError& e) {
    print_error(one_line(e.what()));
    for (const std::string& more : e.more()) print_error(one_line(more));
    return rlcli::kExitUsage;
  } catch (const std::exception& e) {  // rl::Error, rl::CudaError, I/O failures
    print_error(e.what());
    return rlcli::kExitRuntime;
  }
}
