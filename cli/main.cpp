// reductionlab-cli: the headless tool for GPU servers, scripts and tests. main() registers the
// subcommands and maps every failure to its exit code: a bad argument is one line on stderr and
// exit 2; a runtime failure is a message and exit 1 (see cli.h).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli.h"
#include "error.h"

namespace {

constexpr const char* kFooter = R"(
Run `reductionlab-cli SUBCOMMAND --help` for its options.
)";
constexpr const char* kExitCodes =
    R"(Exit codes: 0 success; 1 runtime failure (CUDA error, a point FAILED, a file not written);
2 bad argument (one line on stderr says what); 3 a point verified WRONG; 130 cancelled (Ctrl-C).)";
constexpr std::size_t kSynopsisWidth = 100;

// One option as a synopsis shows it: "[--sizes N,...]", "--json FILE|-" when required,
// "[--pretty]" for a flag.
std::string synopsis_item(const CLI::Option& o) {
  std::string item = o.get_name();
  if (o.get_type_size() != 0 && !o.get_type_name().empty()) item += " " + o.get_type_name();
  return o.get_required() ? item : "[" + item + "]";
}

// "reductionlab-cli run [--device cpu|cuda:N] ...", wrapped under the first option. Made from
// the parser itself, so it lists every flag there is (tests/cli compares it with docs/cli.md).
std::string synopsis(const CLI::App& sub) {
  const std::string head = "reductionlab-cli " + sub.get_name();
  std::string out = head;
  std::size_t line = head.size();
  for (const CLI::Option* o : sub.get_options()) {
    if (o == sub.get_help_ptr()) continue;
    const std::string item = synopsis_item(*o);
    if (line + 1 + item.size() > kSynopsisWidth) {
      out += "\n" + std::string(head.size(), ' ');
      line = head.size();
    }
    out += " " + item;
    line += 1 + item.size();
  }
  return out;
}

// Every --help ends with the synopsis it concerns (all of it at the top) and the exit codes
// (run's footer says them in more detail).
void add_synopsis_footers(CLI::App& app, const std::vector<rlcli::Command>& commands) {
  std::string all = "reductionlab-cli [SUBCOMMAND] --help";
  for (const rlcli::Command& c : commands) {
    const std::string own = synopsis(*c.app);
    all += "\n" + own;
    const std::string rest = c.app->get_footer();
    c.app->footer("\nSynopsis:\n" + own + "\n" +
                  (rest.empty() ? "\n" + std::string(kExitCodes) : rest));
  }
  app.footer("\nSynopsis:\n" + all + "\n" + kFooter + kExitCodes);
}

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

// CLI11 says "--sizes: At Most 1 required but received 2" for a flag given twice; say it
// plainly (every list flag takes its values comma-separated, once).
std::string parse_error_text(const CLI::ParseError& e) {
  const std::string what = one_line(e.what());
  const std::size_t at = what.find(": At Most 1 required but received ");
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && at != std::string::npos)
    return what.substr(0, at) +
           ": given more than once; give it once (a list is comma-separated: 1024,2^20)";
  return what;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ReductionLab: CUDA parallel reductions, from the seed's ladder to the roof",
               "reductionlab-cli"};
  app.require_subcommand(1);
  std::vector<rlcli::Command> commands{rlcli::add_devices_command(app),
                                       rlcli::add_variants_command(app),
                                       rlcli::add_run_command(app), rlcli::add_trace_command(app)};
  add_synopsis_footers(app, commands);
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
    print_error(parse_error_text(e) + " (see --help)");
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
