// libFuzzer target: `reductionlab-cli`'s argument grammar. The input is a command line, words
// split at whitespace ("run --variants all --sizes 2^10..2^20"); it is parsed by the CLI's own
// option tables (CLI11: `run` and `variants` as main.cpp registers them) and, for `run`, turned
// into the experiment (build_spec), validated for the host backend and expanded, as the CLI does
// before it runs anything. Nothing is run and no file is read or written.
// Every refusal must be CLI::ParseError or rlcli::UsageError (exit 2, one line naming the flag);
// anything else escaping (rl::Error, std::out_of_range...) would be exit 1 or a crash.
// `trace` is not registered here (its command links the block model, which needs CUDA-compiled
// code): its values go to the parse_args.h parsers cmd_trace.cpp gives them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli.h"
#include "fuzz_check.h"
#include "parse_args.h"
#include "run_counts.h"
#include "run_spec.h"

namespace {

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size() && words.size() < 64) {
    const std::size_t start = text.find_first_not_of(" \t\n\r", i);
    if (start == std::string_view::npos) break;
    std::size_t end = text.find_first_of(" \t\n\r", start);
    if (end == std::string_view::npos) end = text.size();
    words.emplace_back(text.substr(start, end - start));
    i = end;
  }
  return words;
}

// A refusal of one value: UsageError with a message; anything else escapes and is a finding.
template <typename Parse>
void value(Parse parse) {
  try {
    parse();
  } catch (const rlcli::UsageError& e) {
    rl::fuzz::check_message(e.what());
  }
}

// `trace`'s values, each to the parser cmd_trace.cpp gives it (its option table is not here).
void trace_values(const std::vector<std::string>& w) {
  for (std::size_t i = 1; i + 1 < w.size(); ++i) {
    const std::string& flag = w[i];
    const std::string& v = w[i + 1];
    if (flag == "--variant") value([&] { rlcli::parse_variant_id(flag, v); });
    if (flag == "--block-size" || flag == "--unroll" || flag == "--block-index")
      value([&] { rlcli::parse_int(flag, v); });
    if (flag == "--workspace") value([&] { rlcli::parse_workspaces(flag, v); });
    if (flag == "--type") value([&] { rlcli::parse_types(flag, v); });
    if (flag == "--size") value([&] { rlcli::parse_size_arg(flag, v); });
  }
}

// What `run` does with its flags before the backend starts (cmd_run.cpp run_experiment,
// run_spec.h): the spec, validated for the host (device null), `all` resolved, the points.
void settle_run(rlcli::RunArgs& a) {
  a.o_spec = a.o_resume = nullptr;  // files: the spec target reads spec text
  if (a.o_device->count() > 0) rlcli::parse_device("--device", a.device);
  const rl::ExperimentSpec spec = rlcli::build_spec(a);
  if (!rl::validate(spec, nullptr).empty()) {
    rl::DeviceInfo host;
    host.backend = "host";
    rlcli::settle_for_device(spec, a, host);  // throws UsageError naming the flags
    rl::fuzz::broken("validate() refused a spec settle_for_device() took", a.variants);
  }
  const rl::ExperimentSpec resolved = rl::resolve_all(spec, nullptr, nullptr);
  if (resolved.sizes.size() * resolved.variants.size() <= 10000) rl::expand(resolved);
}

// The option tables, as main() builds them, made once: building them takes about a millisecond
// under the sanitizers, three times a typical parse. Each input starts from clear() and wiped
// variables, as a fresh parser would (CLI11 writes a variable only for a flag given).
struct Parser {
  CLI::App app{"ReductionLab (fuzz)", "reductionlab-cli"};
  CLI::App* run = nullptr;
  rlcli::RunArgs args;
  rlcli::CountsFlags counts;
  rlcli::Command variants;  // owns the storage of `variants`' flags, as in main()

  Parser() {
    app.require_subcommand(1);
    run = app.add_subcommand("run", "Run an experiment");
    rlcli::add_run_options(*run, args);
    rlcli::add_counts_options(*run, counts);
    variants = rlcli::add_variants_command(app);
  }
  void reset() {
    app.clear();
    rlcli::RunArgs& a = args;
    for (std::string* s : {&a.device, &a.variants, &a.workspace, &a.block_sizes, &a.unroll,
                           &a.sizes, &a.type, &a.noise, &a.budget_ms, &a.min_samples,
                           &a.max_samples, &a.baseline, &a.csv, &a.json, &a.spec_file, &a.resume})
      s->clear();
    a.warm_l2 = false;
    counts = rlcli::CountsFlags{};
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> words =
      words_of(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!words.empty() && words[0] == "trace") {
    trace_values(words);
    return 0;
  }

  static Parser parser;
  parser.reset();
  std::vector<char*> argv{const_cast<char*>("reductionlab-cli")};
  std::vector<std::string> storage = words;
  for (std::string& w : storage) argv.push_back(w.data());
  try {
    parser.app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {  // --help is CLI::Success, a ParseError too
    if (e.get_exit_code() != 0) rl::fuzz::check_message(e.what());
    return 0;
  }
  if (!parser.run->parsed()) return 0;
  rlcli::RunArgs args = parser.args;  // settle_run() drops the file flags
  try {
    settle_run(args);
  } catch (const rlcli::UsageError& e) {
    rl::fuzz::check_message(e.what());
  }
  return 0;
}
