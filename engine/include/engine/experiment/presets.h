// The classic ladder's experiments as ready-made specs, one list for every front end: the app's
// preset picker and menu, `reductionlab-cli run --preset ID` and `reductionlab-cli presets`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/experiment/spec.h"

namespace rl {

struct Preset {
  std::string id;           // what --preset takes: "ladder", "unroll", "block-sizes", "sizes"
  std::string name;         // the picker's entry: "The classic ladder (N=2^24, block 1024)"
  std::string description;  // what it shows, and what it costs on the host backend
  ExperimentSpec spec;
};

const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view id);
// "ladder, unroll, block-sizes, sizes": for messages.
std::string preset_ids();
// The preset whose experiment `spec` is (same variants, workspaces, block sizes, unroll factors,
// sizes, shapes and types; timing aside), or -1.
int preset_index_of(const ExperimentSpec& spec);

}  // namespace rl
