// `reductionlab-cli devices`: every GPU with the numbers that decide a reduction's roof, or why
// there is none, then the host.
#include <cstdio>

#include "cli.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/multi/multi_run.h"
#include "engine/process/stream.h"
#include "engine/process/supervisor.h"
#include "engine/report/link_text.h"
#include "engine/run/run_target.h"
#include "format.h"

namespace rlcli {

namespace {

// The copy (information: it reads and writes) and the read floor, the roof of a reduction: at
// the device's floor size and at a few sizes from latency-bound to DRAM-bound (the engine's).
void print_measured(const rl::DeviceInfo& d) {
  const rl::DeviceMeasurement m = rl::measure_device(d.index);
  std::printf("\n  copy %s GB/s (reads + writes; information, not a roof)",
              format_fixed(m.device.measured_copy_gbps, 0).c_str());
  for (const rl::ReadFloor& f : m.floors) {
    std::printf(
        "\n  read floor %9s: %10s (gpu %s)  %6s GB/s = %s%% of theoretical  [%s%s]",
        format_bytes(f.bytes).c_str(), format_ms(f.time.median_ms).c_str(),
        f.gpu_time.empty() ? "-" : format_ms(f.gpu_time.median_ms).c_str(),
        format_fixed(f.gbps(), 0).c_str(),
        d.theoretical_gbps > 0 ? format_fixed(rl::pct_of_theoretical(f.gbps(), d), 1).c_str() : "?",
        f.shape.c_str(), f.noisy ? ", noisy" : "");
  }
}

int list_devices(bool measure, bool json) {
  // The links too: P2P access from the runtime, NVLinks from the driver's NVML (or why not).
  const rl::Discovery found = rl::discover_devices_with_links();
  if (json) {  // one line of the run stream's format (engine/process/stream.h), for the app
    if (measure)
      throw UsageError(
          "--measure with --json: --json lists the devices only (measure with "
          "`devices --measure`)");
    std::fputs(rl::stream_devices_line(found).c_str(), stdout);
    return kExitOk;
  }
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
        print_measured(d);
      } catch (const rl::Error& e) {
        std::printf("\n");
        std::fprintf(stderr, "reductionlab-cli: measuring cuda:%d: %s\n", d.index, e.what());
        exit_code = kExitRuntime;
        continue;
      }
    }
    std::printf("\n");
  }
  if (!found.gpus.empty() && !found.no_gpu_reason.empty())
    std::printf("note: some GPUs were not usable: %s\n", found.no_gpu_reason.c_str());
  // Between the GPUs: what joins each pair (multi-GPU runs, docs/multi-gpu.md).
  for (const std::string& line : rl::link_lines(found.links))
    std::printf("link    %s\n", line.c_str());
  std::printf("nccl    %s\n", rl::nccl_status().text.c_str());
  const rl::DeviceInfo& h = found.host;
  std::printf("cpu     %s  memory %s  (%s)\n", h.name.empty() ? "unknown CPU" : h.name.c_str(),
              format_bytes(h.total_memory).c_str(), h.note.c_str());
  // Where GPU runs will happen: a worker process isolates a GPU fault to one point.
  std::string looked_at;
  const std::string worker = rl::find_worker(&looked_at);
  if (worker.empty())
    std::printf("worker  none (looked at %s): GPU runs happen in this process\n",
                looked_at.c_str());
  else
    std::printf("worker  %s\n", worker.c_str());
  return exit_code;
}

}  // namespace

Command add_devices_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "devices",
      "List the GPUs (name, sm_XY, SMs, L2, memory, theoretical DRAM GB/s) or the reason there "
      "is none, and the host");
  auto measure = std::make_shared<bool>(false);
  sub->add_flag(
      "--measure", *measure,
      "Also measure the read floor (a kernel that only reads: the roof of a reduction) "
      "at 256 KiB..1 GiB and the device-to-device copy bandwidth, about a second per GPU");
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json,
                "Write the list as one JSON line (the --stream format, event devices: every "
                "GPU, or why there is none, and the host), for the app (docs/remote.md)");
  return Command{sub, [measure, json] { return list_devices(*measure, *json); }};
}

}  // namespace rlcli
