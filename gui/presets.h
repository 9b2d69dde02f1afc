// The seed's experiments as ready-made specs: the ladder at 2^24 with block 1024, unroll
// 1/2/4/8, a block-size sweep and a size sweep from 2^10 to 2^28.
#pragma once

#include <QString>

#include <vector>

#include "spec.h"

namespace rl::gui {

struct Preset {
  QString name;
  QString description;  // what it shows, and what it costs on the host backend
  ExperimentSpec spec;
};

const std::vector<Preset>& presets();
// The preset whose experiment `spec` is (same variants, workspaces, block sizes, unroll factors,
// sizes and types; timing aside), or -1.
int preset_index_of(const ExperimentSpec& spec);

}  // namespace rl::gui
