// docs/cli.md is the CLI's contract, so it is read here rather than copied: its synopsis must
// be what `--help` prints and list every flag each subcommand knows (and no other), and every
// example in it (the flags -> points table and the Examples block) must do what it says when
// run on the host backend, with small sizes in place of 2^24 and more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "cli_process.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

const std::string& cli_md() {
  static const std::string text = [] {
    const auto path =
        std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "docs/cli.md";
    std::string t = slurp(path);
    if (t.empty()) ADD_FAILURE() << "cannot read " << path;
    return t;
  }();
  return text;
}

// The body of the first ``` block after `from` (its opening line skipped).
std::string fenced_block_after(const std::string& text, const std::string& from) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) return {};
  const std::size_t open = text.find("```", at);
  const std::size_t body = text.find('\n', open) + 1;
  const std::size_t close = text.find("\n```", body);
  if (open == std::string::npos || close == std::string::npos) return {};
  return text.substr(body, close - body);
}

std::string synopsis_block() {
  return fenced_block_after(cli_md(), "# reductionlab-cli");
}

std::set<std::string> flags_in(const std::string& text) {
  static const std::regex flag(R"(--[a-z][a-z0-9-]*)");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator();
       ++it)
    out.insert(it->str());
  return out;
}

// The synopsis lines of one subcommand: its first line and the indented ones after it.
std::string synopsis_of(const std::string& sub) {
  std::string out;
  bool in = false;
  for (const std::string& line : lines_of(synopsis_block())) {
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

// The section of a --help that starts with `title` and ends at a blank line.
std::string help_section(const std::string& help, const std::string& title) {
  const std::size_t at = help.find("\n" + title + "\n");
  if (at == std::string::npos) return {};
  const std::size_t body = at + title.size() + 2;
  return help.substr(body, help.find("\n\n", body) - body + 1);
}

TEST(CliDocs, HelpPrintsTheSynopsisOfTheDoc) {
  ASSERT_EQ(synopsis_block().rfind("reductionlab-cli ", 0), 0u) << synopsis_block();
  const CliResult r = run_cli({"--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(help_section(r.out, "Synopsis:"), synopsis_block() + "\n") << r.out;
}

TEST(CliDocs, EverySubcommandIsInTheSynopsis) {
  const CliResult r = run_cli({"--help"});
  std::set<std::string> listed, documented;
  for (const std::string& line : lines_of(help_section(r.out, "Subcommands:")))
    listed.insert(line.substr(2, line.find(' ', 2) - 2));
  for (const std::string& line : lines_of(synopsis_block()))
    if (line.rfind("reductionlab-cli ", 0) == 0 && line[17] != '[')
      documented.insert(line.substr(17, line.find(' ', 17) - 17));
  EXPECT_EQ(listed, documented);
}

// Each subcommand's parser against the doc: every flag it knows is in its synopsis lines and
// the synopsis names no flag it does not know. --help is on the synopsis's first line.
TEST(CliDocs, EveryFlagOfEverySubcommandIsInTheSynopsisAndNoOther) {
  ASSERT_NE(synopsis_block().find("reductionlab-cli [SUBCOMMAND] --help\n"), std::string::npos);
  for (const std::string sub : {"devices", "variants", "run", "trace"}) {
    const CliResult r = run_cli({sub, "--help"});
    ASSERT_EQ(r.exit_code, 0) << sub << r.err;
    const std::string documented = synopsis_of(sub);
    ASSERT_FALSE(documented.empty()) << sub << " is not in the synopsis";
    std::set<std::string> doc_flags = flags_in(documented);
    doc_flags.insert("--help");
    EXPECT_EQ(option_flags(r.out), doc_flags) << sub;
    EXPECT_NE(r.out.find(documented), std::string::npos) << sub << " --help:\n" << r.out;
  }
}

// Running a documented command: on the host backend, small sizes, a short budget, files in a
// temporary directory, and always a session JSON to check the points in.
struct Ran {
  CliResult result;
  Session session;
  std::vector<std::string> args;
};

std::string small_sizes(const std::string& list) {
  std::string out;
  for (std::string item; const char c : list + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    std::uint64_t n = 0;
    const std::size_t dots = item.find("..");
    if (dots != std::string::npos)
      item = item.substr(0, dots) + "..2^13";  // every range in the doc starts at or below 2^13
    else if (parse_size(item, &n, nullptr) && n >= (std::uint64_t(1) << 24))
      item = "2^16";
    out += (out.empty() ? "" : ",") + item;
    item.clear();
  }
  return out;
}

Ran run_documented(const std::vector<std::string>& words, const TempDir& dir) {
  Ran ran;
  bool has_device = false, has_sizes = false, has_json = false;
  for (std::size_t i = 1; i < words.size(); ++i) {  // words[0]: reductionlab-cli
    const std::string& w = words[i];
    const bool value = i + 1 < words.size();
    if (w == "--budget-ms" && value) {  // the doc's timing gives way to the short one below
      ++i;
      continue;
    }
    ran.args.push_back(w);
    if (!value) continue;
    if (w == "--device") has_device = true;
    if (w == "--sizes") {
      has_sizes = true;
      ran.args.push_back(small_sizes(words[++i]));
    }
    if (w == "--json") has_json = true;
    if (w == "--json" || w == "--csv") ran.args.push_back(dir.file(words[++i]));
  }
  if (!has_device) ran.args.insert(ran.args.end(), {"--device", "cpu"});
  if (!has_sizes) ran.args.insert(ran.args.end(), {"--sizes", "2^16"});
  if (!has_json) ran.args.insert(ran.args.end(), {"--json", dir.file("session.json")});
  ran.args.insert(ran.args.end(), {"--budget-ms", "1"});
  ran.result = run_cli(ran.args);
  const auto json = std::find(ran.args.begin(), ran.args.end(), "--json");
  if (ran.result.exit_code == 0) {
    try {
      ran.session = session_from_json(slurp(*(json + 1)));
    } catch (const Error& e) {
      ADD_FAILURE() << "the session of `" << words.back() << "...`: " << e.what();
    }
  }
  return ran;
}

std::vector<std::string> words_of(const std::string& command) {
  std::vector<std::string> out;
  std::istringstream in(command);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::multiset<std::pair<std::string, int>> variant_unrolls(const Session& s) {
  std::multiset<std::pair<std::string, int>> out;
  for (const PointResult& p : s.results) out.insert({p.point.variant, p.point.unroll});
  return out;
}

// The doc's table of flags -> points: "interleaved U=1, unroll U=8", "unroll U=2, 4 and 8",
// or "error: ...". Each row runs at one small size; the points are the (variant, U) pairs.
struct TableRow {
  std::string flags, points;
};

std::vector<TableRow> flags_table() {
  std::vector<TableRow> rows;
  const std::string& md = cli_md();
  std::size_t at = md.find("| flags | points |");
  if (at == std::string::npos) return rows;
  const std::regex row(R"(^\| `([^`]+)` \| (.+) \|$)");
  for (const std::string& line : lines_of(md.substr(at))) {
    if (line.empty()) break;
    std::smatch m;
    if (std::regex_match(line, m, row)) rows.push_back({m[1], m[2]});
  }
  return rows;
}

using PointSet = std::set<std::pair<std::string, int>>;

PointSet points_claimed(std::string text) {
  text = std::regex_replace(text, std::regex(R"(\s*\(.*\))"), "");
  static const std::regex group(R"(([a-z_]+) U=(\d+(?:(?:, | and )\d+)*))"), number(R"(\d+)");
  PointSet out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), group);
       it != std::sregex_iterator(); ++it) {
    const std::string variant = (*it)[1], factors = (*it)[2];
    for (auto n = std::sregex_iterator(factors.begin(), factors.end(), number);
         n != std::sregex_iterator(); ++n)
      out.insert({variant, std::stoi(n->str())});
  }
  return out;
}

TEST(CliDocs, TheFlagsToPointsTableIsWhatRuns) {
  const auto rows = flags_table();
  ASSERT_GE(rows.size(), 4u) << "docs/cli.md: the table of flags -> points is gone";
  for (const TableRow& row : rows) {
    SCOPED_TRACE(row.flags);
    TempDir dir;
    const Ran ran = run_documented(words_of("reductionlab-cli run --sizes 1000 " + row.flags), dir);
    if (row.points.rfind("error", 0) == 0) {
      EXPECT_EQ(ran.result.exit_code, 2) << ran.result.err;
      // The message names a flag of the row, and the variant the claim names.
      const auto named = flags_in(ran.result.err.substr(0, ran.result.err.find('\n')));
      const auto typed = flags_in(row.flags);
      EXPECT_TRUE(std::any_of(named.begin(), named.end(), [&](auto& f) { return typed.count(f); }))
          << ran.result.err;
      for (const std::string& word :
           words_of(std::regex_replace(row.points, std::regex("[^a-z_]"), " ")))
        if (find_variant_by_id(word))
          EXPECT_NE(ran.result.err.find(word), std::string::npos) << ran.result.err;
      continue;
    }
    ASSERT_EQ(ran.result.exit_code, 0) << ran.result.err;
    const auto claimed = points_claimed(row.points);
    ASSERT_FALSE(claimed.empty()) << "cannot read the points of: " << row.points;
    const auto got = variant_unrolls(ran.session);
    EXPECT_EQ(PointSet(got.begin(), got.end()), claimed);
    EXPECT_EQ(got.size(), claimed.size()) << "one point per (variant, U) at one size";
  }
}

// The speed-up rule (docs/cli.md, engine/results.h), checked on a finished session: the
// baseline variant's lowest factor at each (size, type, workspace, block) is 1.00 exactly; every
// other Ok point is compared with a different point, so exactly 1.0 would be a self-comparison.
void expect_comparisons(const Session& s) {
  std::map<std::tuple<std::uint64_t, int, int, int>, int> lowest;
  std::map<std::tuple<std::uint64_t, int, int, int>, double> reference_ms;
  for (const PointResult& p : s.results)
    if (p.point.variant == s.spec.baseline && p.status == PointStatus::Ok) {
      auto key = std::make_tuple(p.point.size, int(p.point.type), int(p.point.workspace),
                                 p.point.block_size);
      auto [it, fresh] = lowest.emplace(key, p.point.unroll);
      if (!fresh) it->second = std::min(it->second, p.point.unroll);
      if (it->second == p.point.unroll) reference_ms[key] = p.total.median_ms;
    }
  for (const PointResult& p : s.results) {
    if (p.status != PointStatus::Ok) continue;
    ASSERT_TRUE(p.speedup) << p.point.label() << " has no speed-up";
    const auto key = std::make_tuple(p.point.size, int(p.point.type), int(p.point.workspace),
                                     p.point.block_size);
    const bool own_reference = p.point.variant == s.spec.baseline && lowest[key] == p.point.unroll;
    if (own_reference)
      EXPECT_EQ(*p.speedup, 1.0) << p.point.label();
    else if (p.total.median_ms != reference_ms[key])  // equal medians (CPU timer ticks) give 1.0
      EXPECT_NE(*p.speedup, 1.0) << p.point.label() << ": compared with itself";
  }
}

std::set<std::string> ids_of(const Session& s) {
  std::set<std::string> out;
  for (const PointResult& p : s.results) out.insert(p.point.variant);
  return out;
}

std::set<std::string> ladder_ids() {
  std::set<std::string> out;
  for (const VariantInfo& v : catalog())
    if (v.family == VariantFamily::SeedLadder && !v.seed_name.empty()) out.insert(v.id);
  return out;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

// What each example in the Examples block says it does, keyed by the start of its comment. An
// example without a claim here, or a claim whose example is gone, fails the test below.
using Claim = std::function<void(const Ran&)>;
const std::map<std::string, Claim>& claims() {
  static const std::map<std::string, Claim> all{
      {"The seed's ladder at its set-up",
       [](const Ran& r) {
         EXPECT_EQ(ids_of(r.session), ladder_ids());
         EXPECT_EQ(r.session.results.size(), 2 * ladder_ids().size());  // both workspaces
         for (const PointResult& p : r.session.results) EXPECT_EQ(p.point.block_size, 1024);
       }},
      {"The seed's unrolling experiment",
       [](const Ran& r) {
         EXPECT_EQ(variant_unrolls(r.session),
                   (std::multiset<std::pair<std::string, int>>{
                       {"unroll", 1}, {"unroll", 2}, {"unroll", 4}, {"unroll", 8}}));
         // The table says it too: x1.00 for U=1 (and for a U whose host time happens to round to
         // the same, as the table prints it: not a claim of the docs, so counted, not refused).
         std::size_t shown_as_one = 0;
         for (const PointResult& p : r.session.results) {
           ASSERT_TRUE(p.speedup) << p.point.label();
           if (p.point.unroll == 1) EXPECT_EQ(*p.speedup, 1.0);
           char text[32];
           std::snprintf(text, sizeof text, "%.2f", *p.speedup);
           shown_as_one += std::string(text) == "1.00";
         }
         EXPECT_EQ(count_of(r.result.out, " 1.00x "), shown_as_one) << r.result.out;
         EXPECT_NE(r.result.err.find("wrote "), std::string::npos);  // notes go to stderr
       }},
      {"A block-size sweep of two kernels",
       [](const Ran& r) {
         EXPECT_EQ(ids_of(r.session), (std::set<std::string>{"neighbored", "interleaved"}));
         std::set<int> blocks;
         for (const PointResult& p : r.session.results) blocks.insert(p.point.block_size);
         EXPECT_EQ(blocks, (std::set<int>{64, 128, 256, 512, 1024}));
         EXPECT_EQ(r.session.results.size(), 10u);
       }},
      {"A size sweep of every variant that runs on this device",
       [](const Ran& r) {
         std::set<std::string> runnable;  // on the host: every variant with a host model
         for (const VariantInfo& v : catalog())
           if (v.has_block_model && !is_lab(v.family)) runnable.insert(v.id);
         EXPECT_EQ(ids_of(r.session), runnable);
         std::set<std::uint64_t> sizes;
         for (const PointResult& p : r.session.results) sizes.insert(p.point.size);
         EXPECT_EQ(sizes, (std::set<std::uint64_t>{1 << 10, 1 << 11, 1 << 12, 1 << 13}));
         EXPECT_EQ(count_of(r.result.err, "--variants all left out"), 1u) << r.result.err;
         EXPECT_NE(r.result.out.find("%theo"), std::string::npos) << "the roof column";
       }},
      {"Every variant in float32",
       [](const Ran& r) {
         EXPECT_EQ(ids_of(r.session).count("reduce_add_sync"), 0u);
         for (const PointResult& p : r.session.results) EXPECT_EQ(p.point.type, DType::Float32);
         EXPECT_EQ(count_of(r.result.err, "left out reduce_add_sync: takes int32 only"), 1u)
             << r.result.err;
       }},
      {"The host backend, a small run",
       [](const Ran& r) {
         EXPECT_EQ(r.session.device.backend, "host");
         EXPECT_EQ(variant_unrolls(r.session),
                   (std::multiset<std::pair<std::string, int>>{{"interleaved", 1}, {"unroll", 8}}));
         EXPECT_EQ(r.session.results.front().point.size, 1000003u);
       }},
      {"Hardware counters beside the times",
       [](const Ran& r) {  // run here on the host: no counters, said once, the run goes on
         ASSERT_EQ(r.session.results.size(), 2u);
         for (const PointResult& p : r.session.results) {
           ASSERT_TRUE(p.counters.has_value()) << p.point.label();
           EXPECT_TRUE(p.counters->kernels.empty());
         }
         EXPECT_EQ(count_of(r.result.err, "counters: no hardware counters on the host"), 1u)
             << r.result.err;
         EXPECT_NE(r.result.out.find("bar st%"), std::string::npos) << r.result.out;
       }},
  };
  return all;
}

struct Example {
  std::string comment, command;
};

std::vector<Example> examples() {
  std::vector<Example> out;
  std::string comment;
  for (const std::string& line : lines_of(fenced_block_after(cli_md(), "### Examples"))) {
    if (line.rfind("# ", 0) == 0) comment = line.substr(2);
    if (line.rfind("reductionlab-cli ", 0) == 0) out.push_back({comment, line});
  }
  return out;
}

TEST(CliDocs, EveryExampleDoesWhatItSays) {
  const auto list = examples();
  ASSERT_EQ(list.size(), claims().size()) << "an example was added or removed: update claims()";
  for (const Example& ex : list) {
    SCOPED_TRACE(ex.command);
    ASSERT_EQ(ex.command.find_first_of("'\"\\|>"), std::string::npos) << "plain words only";
    const auto claim = std::find_if(claims().begin(), claims().end(), [&](const auto& c) {
      return ex.comment.rfind(c.first, 0) == 0;
    });
    ASSERT_NE(claim, claims().end()) << "no claim for the example `# " << ex.comment << "`";
    TempDir dir;
    const Ran ran = run_documented(words_of(ex.command), dir);
    ASSERT_EQ(ran.result.exit_code, 0) << ran.result.err;
    for (const PointResult& p : ran.session.results)
      EXPECT_EQ(p.status, PointStatus::Ok) << p.point.label() << ": " << p.message;
    expect_comparisons(ran.session);
    claim->second(ran);
  }
}

}  // namespace
}  // namespace rl::testing
