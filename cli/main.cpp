// reductionlab-cli: the headless tool for GPU servers, scripts and tests. main() registers the
// subcommands and maps every failure to its exit code: a bad argument is one line on stderr and
// exit 2; a runtime failure is a message and exit 1 (see cli.h).
#include <poll.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/core/error.h"

namespace {

constexpr const char* kFooter = R"(
Run `reductionlab-cli SUBCOMMAND --help` for its options.
)";
constexpr const char* kExitCodes =
    R"(Exit codes: 0 success; 1 runtime failure (CUDA error, a point FAILED, a file or stdout not
written); 2 bad argument (one line on stderr says what); 3 a point verified WRONG; 130 cancelled
(Ctrl-C; 128 + the signal for SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
SIGXCPU).)";
constexpr std::size_t kSynopsisWidth = 100;

// One option as a synopsis shows it: "[--sizes N,...]", "--json FILE|-" when required,
// "[--pretty]" for a flag.
std::string synopsis_item(const CLI::Option& o) {
  std::string item = o.get_name();
  if (o.get_type_size() != 0 && !o.get_type_name().empty()) item += " " + o.get_type_name();
  return o.get_required() ? item : "[" + item + "]";
}

// "reductionlab-cli run [--device cpu|cuda:N] ...", wrapped under the first option. Made from
// the parser itself, so it lists every flag there is (tests/cli/cli_help_test.cpp checks it).
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

// Why stdout failed when stdio no longer knows (glibc drops a failed buffer, and errno with it):
// a closed pipe reports POLLERR, /dev/full refuses even an empty write, a full disk has no
// blocks left. 0 when none of these says.
int stdout_failure_reason() {
  struct stat st {};
  const bool have_stat = fstat(STDOUT_FILENO, &st) == 0;
  pollfd p{STDOUT_FILENO, POLLOUT, 0};
  if (have_stat && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) && poll(&p, 1, 0) == 1 &&
      (p.revents & POLLERR))
    return EPIPE;
  if (::write(STDOUT_FILENO, "", 0) < 0) return errno;
  struct statvfs fs {};
  if (have_stat && S_ISREG(st.st_mode) && fstatvfs(STDOUT_FILENO, &fs) == 0 && fs.f_bavail == 0)
    return ENOSPC;
  return 0;
}

// The table, a trace or --help that did not reach stdout (`> /dev/full`, a closed pipe) is a
// failure, said with the OS's reason: exit 1 where the command had succeeded.
int check_stdout(int code) {
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  int err = flush_failed ? errno : 0;
  if (!flush_failed && !std::ferror(stdout)) return code;
  if (!err) err = stdout_failure_reason();
  print_error(std::string("cannot write to stdout: ") +
              (err ? std::strerror(err) : "a write failed (the system gave no reason)"));
  return code == rlcli::kExitOk ? rlcli::kExitRuntime : code;
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
  // A file past `ulimit -f` is a failed write (EFBIG), said with what became of the file, not a
  // process killed part way through writing it.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"ReductionLab: CUDA parallel reductions, from the classic ladder to the roof",
               "reductionlab-cli"};
  app.require_subcommand(1);
  std::vector<rlcli::Command> commands{
      rlcli::add_devices_command(app), rlcli::add_variants_command(app),
      rlcli::add_presets_command(app), rlcli::add_run_command(app),
      rlcli::add_trace_command(app),   rlcli::add_code_command(app),
      rlcli::add_compare_command(app), rlcli::add_lab_command(app)};
  add_synopsis_footers(app, commands);
  // CLI11 reports an unknown subcommand as "A subcommand is required"; say what was typed.
  auto known = [&](const std::string& name) {
    for (const rlcli::Command& c : commands)
      if (c.app->check_name(name)) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    print_error(std::string("unknown subcommand '") + argv[1] +
                "' (expected devices, variants, presets, run, trace or code; see --help)");
    return rlcli::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return check_stdout(app.exit(e));
  } catch (const CLI::ParseError& e) {
    print_error(parse_error_text(e) + " (see --help)");
    return rlcli::kExitUsage;
  }
  try {
    for (const rlcli::Command& c : commands)
      if (c.app->parsed()) return check_stdout(c.run());
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
