// `reductionlab-cli devices`: every GPU with the numbers that decide a reduction's roof, or why
// there is none, then the host.
#include <cstdio>

#include "cli.h"
#include "device.h"
#include "error.h"
#include "format.h"

namespace rlcli {

namespace {

int list_devices(bool measure) {
  const rl::Discovery found = rl::discover_devices();
  int exit_code = kExitOk;
  if (found.gpus.empty()) std::printf("no GPU: %s\n", found.no_gpu_reason.c_str());
  for (const rl::DeviceInfo& d : found.gpus) {
    std::printf("cuda:%d  %s  sm_%d%d  %d SMs  L2 %s  memory %s (%s free)  theoretical %s GB/s",
                d.index, d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count,
                format_bytes(d.l2_bytes).c_str(), format_bytes(d.total_memory).c_str(),
                format_bytes(d.free_memory).c_str(),
                d.theoretical_gbps > 0 ? format_fixed(d.theoretical_gbps, 0).c_str() : "?");
    if (measure) {
      try {
        const double copy = rl::measure_copy_bandwidth_gbps(d.index);
        std::printf("  copy %s GB/s (%s%% of theoretical)", format_fixed(copy, 0).c_str(),
                    d.theoretical_gbps > 0
                        ? format_fixed(100.0 * copy / d.theoretical_gbps, 1).c_str()
                        : "?");
      } catch (const rl::Error& e) {
        std::printf("\n");
        std::fprintf(stderr, "reductionlab-cli: measuring copy bandwidth on cuda:%d: %s\n", d.index,
                     e.what());
        exit_code = kExitRuntime;
        continue;
      }
    }
    std::printf("\n");
  }
  if (!found.gpus.empty() && !found.no_gpu_reason.empty())
    std::printf("note: some GPUs were not usable: %s\n", found.no_gpu_reason.c_str());
  const rl::DeviceInfo& h = found.host;
  std::printf("cpu     %s  memory %s  (%s)\n", h.name.empty() ? "unknown CPU" : h.name.c_str(),
              format_bytes(h.total_memory).c_str(), h.note.c_str());
  return exit_code;
}

}  // namespace

Command add_devices_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "devices",
      "List the GPUs (name, sm_XY, SMs, L2, memory, theoretical DRAM GB/s) or the reason there "
      "is none, and the host");
  auto measure = std::make_shared<bool>(false);
  sub->add_flag("--measure", *measure,
                "Also measure device-to-device copy bandwidth (the practical roof), a few hundred "
                "ms per GPU");
  return Command{sub, [measure] { return list_devices(*measure); }};
}

}  // namespace rlcli
