// `reductionlab-cli run --counts / --no-counts`: whether the live table shows the block model's
// counts of each point (engine/model_counts.h: barriers, warp-steps, lane efficiency, loads,
// stores, launches). On by default on the host backend, whose times are CPU times of an
// emulation; --counts adds them on a GPU, --no-counts leaves them out on the host. JSON and CSV
// carry the counts either way.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/device/device.h"

namespace rlcli {

struct CountsFlags {
  bool on = false, off = false;
};

void add_counts_options(CLI::App& sub, CountsFlags& flags);

// Whether the table shows the counts on `device`.
bool show_counts(const CountsFlags& flags, const rl::DeviceInfo& device);

}  // namespace rlcli
