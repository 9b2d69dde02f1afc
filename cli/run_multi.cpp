#include "run_multi.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/multi/multi_run.h"
#include "engine/process/multi_supervisor.h"
#include "engine/process/supervisor.h"
#include "engine/report/link_text.h"
#include "format.h"
#include "parse_args.h"
#include "run_outputs.h"
#include "run_signals.h"

namespace rlcli {

namespace {

bool given(const CLI::Option* o) {
  return o && o->count() > 0;
}

// Flags of a one-GPU run that mean nothing here: refused by name, not ignored.
void refuse_one_gpu_flags(const RunArgs& a, const CountsFlags& counts,
                          const CountersFlag& counters) {
  const std::pair<const CLI::Option*, const char*> one_gpu[] = {
      {a.o_device, "--device"},
      {a.o_resume, "--resume"},
      {a.o_spec, "--spec"},
      {a.o_preset, "--preset"},
      {a.o_baseline, "--baseline"},
      {a.o_time, "--time"},
      {counters.option, "--counters"},
      {counters.line_samples, "--line-samples"},
      {counters.line_counts, "--line-counts"}};
  for (const auto& [option, flag] : one_gpu)
    if (given(option))
      throw UsageError(std::string(flag) +
                       ": does not apply to a multi-GPU run (--devices / --gpus); "
                       "docs/multi-gpu.md lists the flags it takes");
  if (counts.on || counts.off)
    throw UsageError("--counts: does not apply to a multi-GPU run (--devices / --gpus)");
  if (given(a.o_devices) && given(a.o_gpus))
    throw UsageError("--gpus " + a.gpus + ": give --devices or --gpus, not both");
}

std::vector<rl::Exchange> parse_exchanges(const std::string& text) {
  split_list("--exchange", text);  // an empty item is said as for every list flag
  try {
    return rl::parse_exchange_list(text);
  } catch (const rl::Error& e) {
    throw UsageError(std::string("--exchange ") + e.what());
  }
}

// One value of a list flag (the local reduction runs at one shape).
int one_int(const char* flag, const std::string& text) {
  const std::vector<int> v = parse_int_list(flag, text);
  if (v.size() != 1)
    throw UsageError(std::string(flag) + " " + text +
                     ": a multi-GPU run takes one value (the local reduction's shape)");
  return v.front();
}

// The local reduction: the variant named (one), its workspace, block size and unroll factor
// (each one value; defaults: the variant's own, B = 1024 where it takes it).
void set_local_kernel(const RunArgs& a, rl::MultiSpec& s) {
  std::optional<int> named_unroll;  // reduceUnroll8 fixes U = 8
  if (given(a.o_variants)) {
    const std::vector<std::string> names = parse_variant_names("--variants", a.variants);
    if (names.size() != 1 || names.front() == "all")
      throw UsageError("--variants " + a.variants +
                       ": a multi-GPU run reduces every shard with one variant; name one");
    const auto ref = rl::resolve_variant(names.front());
    s.variant = ref->variant->id;
    named_unroll = ref->unroll;
  }
  const rl::VariantInfo& v = *rl::find_variant_by_id(s.variant);
  rl::use_local_variant(s, v, named_unroll);
  if (given(a.o_unroll)) {
    if (named_unroll)
      throw UsageError("--unroll " + a.unroll + ": the name " + a.variants +
                       " fixes U=" + std::to_string(*named_unroll) + "; name the variant " + v.id +
                       " for other factors");
    s.unroll = one_int("--unroll", a.unroll);
  }
  if (given(a.o_workspace)) {
    const std::vector<rl::Workspace> w = parse_workspaces("--workspace", a.workspace);
    if (w.size() != 1)
      throw UsageError("--workspace " + a.workspace + ": a multi-GPU run takes one workspace");
    s.workspace = w.front();
  }
  if (given(a.o_block_sizes)) s.block_size = one_int("--block-sizes", a.block_sizes);
}

// The GPUs the flags name among `count` found (a count of kAnyCount checks the syntax only).
constexpr int kAnyCount = 1024;
std::vector<int> devices_of(const RunArgs& a, int count) {
  try {
    return given(a.o_devices) ? rl::parse_device_list(a.devices, count)
                              : rl::parse_gpu_count(a.gpus, count);
  } catch (const rl::Error& e) {
    throw UsageError((given(a.o_devices) ? "--devices " + rl::echo(a.devices) + ": "
                                         : "--gpus " + rl::echo(a.gpus) + ": ") +
                     e.what());
  }
}

// Every flag read and checked on its own (no GPU needed); the devices come later.
rl::MultiSpec multi_spec_from_flags(const RunArgs& a) {
  rl::MultiSpec s;
  devices_of(a, kAnyCount);  // a malformed list is said before looking for GPUs
  if (given(a.o_exchange)) s.exchanges = parse_exchanges(a.exchange);
  if (given(a.o_gpu_counts)) s.gpu_counts = parse_int_list("--gpu-counts", a.gpu_counts);
  set_local_kernel(a, s);
  if (given(a.o_sizes)) s.sizes = parse_sizes_arg("--sizes", a.sizes);
  if (given(a.o_type)) s.types = parse_types("--type", a.type);
  apply_timing_flags(a, s.timing);
  return s;
}

// The spec on the GPUs found: the devices resolved, then validated (rl::validate: every
// message, the first on the error line, the rest after it).
void settle_on_gpus(const RunArgs& a, const rl::Discovery& found, rl::MultiSpec& s) {
  s.devices = devices_of(a, int(found.gpus.size()));
  if (auto errors = rl::validate(s, found.gpus); !errors.empty())
    throw UsageError(errors.front(), {errors.begin() + 1, errors.end()});
}

std::string devices_text(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) out += (out.empty() ? "cuda:" : ",cuda:") + std::to_string(d);
  return out;
}

std::string time_cell(const rl::Summary& s) {
  return pad_left(s.empty() ? "-" : format_ms(s.median_ms), 11);
}

void print_header(const rl::MultiSpec& s, const std::string& nccl) {
  std::printf("multi-GPU run over %s; local reduction %s B=%d U=%d (%s workspace); %s\n",
              devices_text(s.devices).c_str(), s.variant.c_str(), s.block_size, s.unroll,
              std::string(rl::to_string(s.workspace)).c_str(), nccl.c_str());
  std::printf("%-15s %2s %8s %-7s %11s %11s %11s %9s %9s  %s\n", "exchange", "G", "N", "type",
              "local", "exchange", "total", "GB/s", "roof GB/s", "status");
}

void print_point(const rl::MultiPoint& p) {
  std::string status = std::string(rl::to_string(p.status));
  std::transform(status.begin(), status.end(), status.begin(), ::toupper);
  if (p.status == rl::PointStatus::Ok) status = p.noisy ? "ok NOISY" : "ok";
  if (!p.message.empty()) status += " (" + p.message + ")";
  std::printf("%-15s %2d %8s %-7s %s %s %s %9s %9s  %s\n",
              std::string(rl::to_string(p.point.exchange)).c_str(), p.point.gpu_count,
              rl::format_size(p.point.size).c_str(),
              std::string(rl::to_string(p.point.type)).c_str(), time_cell(p.times.local).c_str(),
              time_cell(p.times.exchange).c_str(), time_cell(p.times.total).c_str(),
              p.total_gbps() > 0 ? format_fixed(p.total_gbps(), 0).c_str() : "-",
              p.read_roof_gbps > 0 ? format_fixed(p.read_roof_gbps, 0).c_str() : "-",
              status.c_str());
  if (p.gpus.size() < 2 || p.times.total.empty()) return;
  for (const rl::GpuShare& g : p.gpus)
    std::printf("    cuda:%-2d %12llu elements %s %s %s%s\n", g.device,
                static_cast<unsigned long long>(g.elements), time_cell(g.times.local).c_str(),
                time_cell(g.times.exchange).c_str(), time_cell(g.times.total).c_str(),
                g.partial.empty() ? "" : ("  partial " + g.partial).c_str());
}

void print_links(const rl::MultiSession& s) {
  for (const std::string& line : rl::link_lines(s.links)) std::printf("link %s\n", line.c_str());
}

int exit_code_for(const rl::MultiSession& s, int signal) {
  if (s.cancelled) return signal ? 128 + signal : kExitCancelled;
  bool wrong = false, failed = false;
  for (const rl::MultiPoint& p : s.points) {
    wrong = wrong || p.status == rl::PointStatus::Wrong;
    failed = failed || p.status == rl::PointStatus::Failed;
  }
  if (wrong)
    std::fprintf(stderr, "reductionlab-cli: a point verified WRONG against the host (exit 3)\n");
  else if (failed)
    std::fprintf(stderr, "reductionlab-cli: a point FAILED to run (exit 1)\n");
  return wrong ? kExitWrong : failed ? kExitRuntime : kExitOk;
}

}  // namespace

bool wants_multi_gpu(const RunArgs& a) {
  const bool multi = given(a.o_devices) || given(a.o_gpus);
  if (!multi && (given(a.o_exchange) || given(a.o_gpu_counts)))
    throw UsageError(std::string(given(a.o_exchange) ? "--exchange" : "--gpu-counts") +
                     ": needs --devices or --gpus (a multi-GPU run)");
  return multi;
}

int run_multi_gpu(const RunArgs& a, const CountsFlags& counts, const CountersFlag& counters) {
  refuse_one_gpu_flags(a, counts, counters);
  rl::MultiSpec spec = multi_spec_from_flags(a);
  const rl::Discovery found = rl::discover_devices();
  if (found.gpus.empty())
    throw UsageError((given(a.o_devices) ? "--devices " + a.devices : "--gpus " + a.gpus) +
                     ": no GPU: " + found.no_gpu_reason);
  settle_on_gpus(a, found, spec);
  const RunOutputs outputs(a);  // names, directories and collisions checked before the run
  const rl::NcclStatus nccl = rl::nccl_status();
  if (!nccl.available)
    std::fprintf(stderr, "reductionlab-cli: the NCCL exchanges will be SKIPPED: NCCL is %s\n",
                 nccl.text.c_str());
  print_header(spec, nccl.available ? nccl.text : "no NCCL");
  rl::MultiCallbacks cb;
  cb.on_point = [](const rl::MultiPoint& p, std::size_t, std::size_t) {
    print_point(p);
    std::fflush(stdout);
  };
  cb.on_notice = [](const std::string& what) {
    std::fprintf(stderr, "reductionlab-cli: %s\n", what.c_str());
  };
  const CancelOnSignals signals;
  // In a worker process, as a one-GPU run is (a GPU fault or an NCCL abort ends the worker, and
  // the points it finished are kept); in this one with --in-process or without the worker.
  rl::MultiSession session;
  try {
    session = rl::run_multi_gpu(spec, cb, signals.flag(), a.in_process);
  } catch (const rl::Error& e) {
    std::fprintf(stderr, "reductionlab-cli: the multi-GPU run could not start: %s\n", e.what());
    return kExitRuntime;
  }
  print_links(session);
  if (!outputs.write_multi(session)) return kExitRuntime;
  return exit_code_for(session, signals.signal());
}

}  // namespace rlcli
