// `reductionlab-cli variants`: one line per variant, starting with its id, then its classic
// kernel name ("-" where the classic ladder has none), family, workspaces, block sizes, unroll
// factors and the display name. Scripts read the first column.
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "format.h"

namespace rlcli {

namespace {

std::string seed_column(const rl::VariantInfo& v) {
  if (v.seed_name.empty()) return "-";
  return v.seed_name_has_unroll ? v.seed_name + "{U}" : v.seed_name;
}

std::string join_ints(const std::vector<int>& values, const char* empty) {
  if (values.empty()) return empty;
  std::string s;
  for (int x : values) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

std::string workspaces_column(const rl::VariantInfo& v) {
  std::string s;
  for (rl::Workspace w : v.workspaces) s += (s.empty() ? "" : ",") + std::string(rl::to_string(w));
  return s;
}

std::string family_column(const rl::VariantInfo& v) {
  switch (v.family) {
    case rl::VariantFamily::SeedLadder:
      return "classic";
    case rl::VariantFamily::Modern:
      return "modern";
    case rl::VariantFamily::CubReference:
      return "cub";
    case rl::VariantFamily::RowsAndColumns:
      return v.reduces == rl::Reduces::Columns ? "mat:cols" : "mat:rows";
    case rl::VariantFamily::DivergenceLab:
      return "lab:div";
    case rl::VariantFamily::PredicateLab:
      return "lab:pred";
    case rl::VariantFamily::UnrollLab:
      return "lab:unr";
  }
  return "?";
}

// header: a first row naming the columns (on a terminal, or asked for); without it, every line
// starts with an id, as scripts that read the first column expect.
int list_variants(bool verbose, bool header) {
  const auto& all = rl::catalog();
  std::size_t w_id = 2, w_seed = 4, w_ws = 10, w_b = 11, w_u = 6;
  for (const auto& v : all) {
    w_id = std::max(w_id, v.id.size());
    w_seed = std::max(w_seed, seed_column(v).size());
    w_ws = std::max(w_ws, workspaces_column(v).size());
    w_b = std::max(w_b, join_ints(v.block_sizes, "auto").size());
    w_u = std::max(w_u, join_ints(v.unroll_factors, "1").size());
  }
  if (header)
    std::printf("%s\n",
                (pad_right("id", w_id) + "  " + pad_right("classic", w_seed) + "  " +
                 pad_right("family", 8) + "  " + pad_right("workspaces", w_ws) + "  " +
                 pad_right("B=blocks", w_b + 2) + "  " + pad_right("U=unroll", w_u + 2) + "  name")
                    .c_str());
  for (const auto& v : all) {
    std::string line =
        pad_right(v.id, w_id) + "  " + pad_right(seed_column(v), w_seed) + "  " +
        pad_right(family_column(v), 8) + "  " + pad_right(workspaces_column(v), w_ws) +
        "  B=" + pad_right(join_ints(v.block_sizes, "auto"), w_b) +
        "  U=" + pad_right(join_ints(v.unroll_factors, "1"), w_u) + "  " + v.display_name;
    if (v.min_compute_capability > 75)
      line += " [needs sm_" + std::to_string(v.min_compute_capability) + "]";
    std::printf("%s\n", line.c_str());
    if (verbose) std::printf("    %s\n", v.explanation.c_str());
  }
  return kExitOk;
}

}  // namespace

Command add_variants_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "variants",
      "List every reduction variant: id, the classic kernel name ({U} = the unroll factor, e.g. "
      "reduceUnroll8), family, workspaces, block sizes (B), unroll factors (U), display name.");
  auto verbose = std::make_shared<bool>(false);
  sub->add_flag("--explain", *verbose, "Also print what each variant demonstrates");
  auto header = std::make_shared<std::string>("auto");
  sub->add_option("--header", *header,
                  "A first row naming the columns: yes, no, or auto (on a terminal; default)")
      ->type_name("yes|no|auto");
  return Command{
      sub, [verbose, header] {
        if (*header != "yes" && *header != "no" && *header != "auto")
          throw UsageError("--header " + rl::echo(*header) + ": expected yes, no or auto");
        const bool shown = *header == "yes" || (*header == "auto" && isatty(STDOUT_FILENO));
        return list_variants(*verbose, shown);
      }};
}

}  // namespace rlcli
