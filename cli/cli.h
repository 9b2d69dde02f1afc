// Pieces shared by the subcommands of reductionlab-cli: exit codes, the error type for bad
// arguments, and how a subcommand plugs into main().
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
#include <string>

namespace rlcli {

// Exit codes (documented in `reductionlab-cli --help`; scripts depend on them).
constexpr int kExitOk = 0;
constexpr int kExitRuntime = 1;      // a CUDA or I/O failure, or a point that FAILED
constexpr int kExitUsage = 2;        // a bad argument: one line on stderr says which
constexpr int kExitWrong = 3;        // a point verified WRONG against the host
constexpr int kExitCancelled = 130;  // Ctrl-C (128 + SIGINT), finished points kept

// A bad argument. main() prints what() as one line on stderr and exits with kExitUsage.
// Validation may yield several messages: what() is the first, `more` the rest (one line each).
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what, std::vector<std::string> more = {})
      : std::runtime_error(what), more_(std::move(more)) {}
  const std::vector<std::string>& more() const { return more_; }

 private:
  std::vector<std::string> more_;
};

// A subcommand: registered on the app, run by main() when it was the one chosen.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_devices_command(CLI::App& app);
Command add_variants_command(CLI::App& app);
Command add_presets_command(CLI::App& app);
Command add_run_command(CLI::App& app);
Command add_trace_command(CLI::App& app);
Command add_code_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_lab_command(CLI::App& app);

}  // namespace rlcli
