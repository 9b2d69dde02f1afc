// `reductionlab-cli presets`: the classic ladder's experiments the app's preset picker offers, one
// block each: the id `run --preset` takes, the name, what it shows, and what it runs.
#include <cstdio>

#include "cli.h"
#include "engine/experiment/presets.h"
#include "engine/experiment/spec.h"

namespace rlcli {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& x : items) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string ints(const std::vector<int>& values, const char* none) {
  std::vector<std::string> items;
  for (int v : values) items.push_back(std::to_string(v));
  return items.empty() ? none : joined(items);
}

int list_presets() {
  for (const rl::Preset& p : rl::presets()) {
    // A preset of matrices lists its shapes: its variants run on nothing else.
    std::vector<std::string> sizes;
    if (p.spec.shapes.empty())
      for (std::uint64_t n : p.spec.sizes) sizes.push_back(rl::format_size(n));
    for (const rl::MatrixShape& m : p.spec.shapes) sizes.push_back(rl::format_shape(m));
    std::printf("%s  %s\n    %s\n    variants %s; block sizes %s; unroll %s; %s %s\n", p.id.c_str(),
                p.name.c_str(), p.description.c_str(), joined(p.spec.variants).c_str(),
                ints(p.spec.block_sizes, "each variant's own").c_str(),
                ints(p.spec.unroll_factors, "each variant's own").c_str(),
                p.spec.shapes.empty() ? "sizes" : "shapes", joined(sizes).c_str());
  }
  return kExitOk;
}

}  // namespace

Command add_presets_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "presets",
      "List the preset experiments (the app's presets): the id `run --preset ID` takes, the name, "
      "what it shows and what it runs.");
  return Command{sub, [] { return list_presets(); }};
}

}  // namespace rlcli
