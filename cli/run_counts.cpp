#include "run_counts.h"

namespace rlcli {

void add_counts_options(CLI::App& sub, CountsFlags& flags) {
  CLI::Option* on = sub.add_flag(
      "--counts", flags.on,
      "Add the block model's counts of each point's work on a GPU to the table: barriers, "
      "warp-steps, lane efficiency, loads, stores, launches (default: on for the host backend, "
      "whose times are CPU times)");
  CLI::Option* off =
      sub.add_flag("--no-counts", flags.off, "Leave the counts out of the table on the host");
  on->excludes(off);
}

bool show_counts(const CountsFlags& flags, const rl::DeviceInfo& device) {
  if (flags.on) return true;
  if (flags.off) return false;
  return device.backend != "cuda";
}

}  // namespace rlcli
