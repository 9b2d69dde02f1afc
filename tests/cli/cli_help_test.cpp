// `--help` is the CLI's own account of itself: the top-level synopsis lists every subcommand the
// help lists, and each subcommand's lines in it name every flag its parser knows, and no other.
// Each subcommand's --help ends with its own lines of that synopsis.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "cli_process.h"
#include "engine/experiment/spec.h"

namespace rl::testing {
namespace {

// The section of a --help that starts with `title` and ends at a blank line.
std::string help_section(const std::string& help, const std::string& title) {
  const std::size_t at = help.find("\n" + title + "\n");
  if (at == std::string::npos) return {};
  const std::size_t body = at + title.size() + 2;
  return help.substr(body, help.find("\n\n", body) - body + 1);
}

std::string top_synopsis() {
  const CliResult r = run_cli({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return help_section(r.out, "Synopsis:");
}

// The synopsis lines of one subcommand: its first line and the indented ones after it.
std::string synopsis_of(const std::string& synopsis, const std::string& sub) {
  std::string out;
  bool in = false;
  for (const std::string& line : lines_of(synopsis)) {
    if (line.rfind("reductionlab-cli ", 0) == 0)
      in = line.rfind("reductionlab-cli " + sub + " ", 0) == 0 || line == "reductionlab-cli " + sub;
    if (in) out += line + "\n";
  }
  return out;
}

// The flags in the Options section of a --help, as CLI11 lists them ("-h,--help", "--sizes N").
std::set<std::string> option_flags(const std::string& help) {
  std::set<std::string> out;
  bool in = false;
  for (const std::string& line : lines_of(help)) {
    if (line == "Options:")
      in = true;
    else if (line.empty() || line.back() == ':')
      in = line == "Options:";
    else if (in && line.rfind("  -", 0) == 0)
      for (const std::string& f : flags_in(line.substr(0, line.find(' ', 2)))) out.insert(f);
  }
  return out;
}

std::set<std::string> listed_subcommands() {
  const CliResult r = run_cli({"--help"});
  std::set<std::string> listed;
  for (const std::string& line : lines_of(help_section(r.out, "Subcommands:")))
    listed.insert(line.substr(2, line.find(' ', 2) - 2));
  return listed;
}

TEST(CliHelp, TheSynopsisStartsWithHowToAskForHelp) {
  EXPECT_EQ(top_synopsis().rfind("reductionlab-cli [SUBCOMMAND] --help\n", 0), 0u)
      << top_synopsis();
}

TEST(CliHelp, EverySubcommandIsInTheSynopsis) {
  std::set<std::string> in_synopsis;
  for (const std::string& line : lines_of(top_synopsis()))
    if (line.rfind("reductionlab-cli ", 0) == 0 && line[17] != '[')
      in_synopsis.insert(line.substr(17, line.find(' ', 17) - 17));
  EXPECT_GE(listed_subcommands().size(), 4u);
  EXPECT_EQ(listed_subcommands(), in_synopsis);
}

// Each subcommand's parser against the synopsis: every flag it knows is in its synopsis lines
// and those lines name no flag it does not know; its own --help ends with the same lines.
TEST(CliHelp, EveryFlagOfEverySubcommandIsInTheSynopsisAndNoOther) {
  const std::string synopsis = top_synopsis();
  for (const std::string& sub : listed_subcommands()) {
    const CliResult r = run_cli({sub, "--help"});
    ASSERT_EQ(r.exit_code, 0) << sub << r.err;
    const std::string own = synopsis_of(synopsis, sub);
    ASSERT_FALSE(own.empty()) << sub << " is not in the synopsis";
    std::set<std::string> synopsis_flags = flags_in(own);
    synopsis_flags.insert("--help");
    EXPECT_EQ(option_flags(r.out), synopsis_flags) << sub;
    EXPECT_NE(r.out.find(own), std::string::npos) << sub << " --help:\n" << r.out;
  }
}

// The defaults `run --help` states are the engine's: a spec nobody changed, the timing a run
// without the flags samples with.
TEST(CliHelp, RunStatesTheEnginesDefaults) {
  const CliResult r = run_cli({"run", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ExperimentSpec spec;
  const auto number = [](double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  };
  const std::pair<const char*, std::string> flags[] = {
      {"--block-sizes", format_int_list(spec.block_sizes)},
      {"--sizes", format_size_list(spec.sizes)},
      {"--type", std::string(to_string(spec.types.front()))},
      {"--workspace", std::string(to_string(spec.workspaces.front()))},
      {"--reduce", std::string(to_string(spec.reduce))},
      {"--noise", number(spec.timing.noise)},
      {"--budget-ms", number(spec.timing.budget_ms)},
      {"--min-samples", number(spec.timing.min_samples)},
      {"--max-samples", number(spec.timing.max_samples)},
      {"--max-points", number(double(spec.max_points))},
      {"--kernel-time-limit", number(spec.timing.user_kernel_limit_s)}};
  for (const auto& [flag, value] : flags) {
    SCOPED_TRACE(flag);
    // The flag's line and, where CLI11 moved its description below a long value name, the lines
    // up to the next flag.
    std::string line;
    bool in = false;
    for (const std::string& l : lines_of(r.out)) {
      if (l.rfind("  -", 0) == 0) in = l.rfind(std::string("  ") + flag + " ", 0) == 0;
      if (in) line += l;
    }
    EXPECT_NE(line.find("(default " + value + ")"), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace rl::testing
