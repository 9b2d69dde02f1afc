// `reductionlab-cli compare A.json B.json`: two saved sessions point by point (the engine's rule,
// engine/report/compare.h): B's time over A's and a verdict per point, faster / slower / same
// within the noisier measurement, then the summary; points in one session only are listed.
#include <cstdio>
#include <memory>
#include <string>

#include "cli.h"
#include "engine/experiment/grammar.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/io/session_file.h"
#include "engine/report/compare.h"
#include "engine/report/format.h"
#include "engine/report/time_basis.h"
#include "output_files.h"

namespace rlcli {

namespace {

struct CompareArgs {
  std::string a, b, time = "whole";
};

rl::Session read_session(const char* which, const std::string& path) {
  try {
    // Parsed as it is read: never the whole text beside the session (io/session_file.h).
    return rl::session_from_json_file(path);
  } catch (const std::exception& e) {
    throw UsageError(std::string(which) + " " + path + ": " + e.what());
  }
}

std::string point_name(const rl::PointSpec& p) {
  return rl::variant_label(p.variant, p.unroll) + " " + std::string(rl::to_string(p.workspace)) +
         " B=" + std::to_string(p.block_size) + (p.is_matrix() ? " " : " N=") + p.size_text() +
         " " + std::string(rl::to_string(p.type));
}

int run_compare(const CompareArgs& args) {
  const std::optional<rl::TimeBasis> basis = rl::parse_time_basis(args.time);
  if (!basis) throw UsageError("--time " + args.time + ": expected whole, gpu or first");
  const rl::Session a = read_session("A", args.a);
  const rl::Session b = read_session("B", args.b);
  const rl::SessionComparison c = rl::compare_sessions(a, b, *basis);
  std::printf("A: %s (%s, %s)\nB: %s (%s, %s)\n\n", args.a.c_str(), a.device.name.c_str(),
              a.created_utc.c_str(), args.b.c_str(), b.device.name.c_str(), b.created_utc.c_str());
  // A CPU emulation against a GPU: said before the table and again under the summary, and on
  // stderr for a script that reads only the numbers.
  const std::string kinds = c.kinds_of_time;
  if (!kinds.empty()) {
    std::printf("WARNING: %s\n\n", kinds.c_str());
    std::fprintf(stderr, "reductionlab-cli: compare: warning: %s\n", kinds.c_str());
  }
  std::printf("%-58s %12s %12s %8s %7s  %s\n", "point", "A", "B", "B/A", "noise", "verdict");
  for (const rl::PointComparison& p : c.points) {
    if (p.verdict == rl::Verdict::NotComparable) {
      std::printf("%-58s %12s %12s %8s %7s  not comparable: %s\n", point_name(p.point).c_str(), "-",
                  "-", "-", "-", p.why.c_str());
      continue;
    }
    std::printf("%-58s %12s %12s %7.3fx %6.1f%%  %s\n", point_name(p.point).c_str(),
                rl::format_time_ms(p.a_ms).c_str(), rl::format_time_ms(p.b_ms).c_str(), p.ratio,
                100 * p.noise, std::string(rl::to_string(p.verdict)).c_str());
  }
  for (const rl::PointSpec& p : c.only_a) std::printf("only in A: %s\n", point_name(p).c_str());
  for (const rl::PointSpec& p : c.only_b) std::printf("only in B: %s\n", point_name(p).c_str());
  std::printf("\n%s\n", c.summary().c_str());
  if (!kinds.empty()) std::printf("WARNING: %s\n", kinds.c_str());
  return kExitOk;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Compare two saved sessions point by point: B's time over A's, and faster / slower / same "
      "within the noisier measurement (the relative standard deviation of its samples), as "
      "nvbench's compare does; points in one session only are listed. A host (CPU emulation) "
      "session against a GPU session is compared with a warning: different kinds of time.");
  auto args = std::make_shared<CompareArgs>();
  sub->add_option("SESSION_A", args->a, "The session compared against (JSON)")
      ->required()
      ->type_name("");
  sub->add_option("SESSION_B", args->b, "The session compared (JSON)")->required()->type_name("");
  sub->add_option("--time", args->time,
                  "Which time: whole (the whole reduction, default), gpu (the timestamps taken "
                  "out) or first (the first kernel alone)")
      ->type_name("whole|gpu|first");
  return Command{sub, [args] { return run_compare(*args); }};
}

}  // namespace rlcli
