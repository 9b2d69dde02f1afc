// `reductionlab-cli trace --measured`: the warp timeline one instrumented launch stamps on a GPU
// (engine/trace/measured_timeline.h), written as JSON with the numbers derived from it
// (engine/io/timeline_json.h timeline_report_json) to a file or to stdout.
#include <string>
#include <vector>

#include "cli.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/device/device.h"
#include "engine/io/timeline_json.h"
#include "engine/trace/measured_timeline.h"
#include "output_files.h"
#include "parse_args.h"
#include "trace_args.h"

namespace rlcli {

namespace {

bool given(const CLI::Option* o) {
  return o && o->count() > 0;
}

int non_negative(const char* flag, const std::string& text) {
  const int v = parse_int(flag, text);
  if (v < 0) throw UsageError(std::string(flag) + " " + text + ": must be 0 or more");
  return v;
}

std::vector<unsigned> parse_blocks(const std::string& text) {
  const std::vector<std::string> items = split_list("--blocks", text);
  if (items.size() > rl::kTimelineMaxBlocks)
    throw UsageError("--blocks " + rl::echo(text) + ": " + std::to_string(items.size()) +
                     " blocks; a timeline records at most " +
                     std::to_string(rl::kTimelineMaxBlocks));
  std::vector<unsigned> out;
  for (const std::string& item : items) out.push_back(unsigned(non_negative("--blocks", item)));
  return out;
}

// Which blocks: --blocks, or the first --max-blocks that run on --sm (SM 0 by default).
void choose_blocks(const TraceArgs& a, rl::TimelineRequest& r) {
  if (given(a.o_blocks)) {
    if (given(a.o_sm)) throw UsageError("--sm " + a.sm + ": give --sm or --blocks, not both");
    if (given(a.o_max_blocks))
      throw UsageError("--max-blocks " + a.max_blocks +
                       ": counts the blocks taken from --sm; --blocks lists them itself");
    r.blocks = parse_blocks(a.blocks);
    return;
  }
  if (given(a.o_sm)) r.sm = unsigned(non_negative("--sm", a.sm));
  if (given(a.o_max_blocks)) {
    const int m = parse_int("--max-blocks", a.max_blocks);
    if (m < 1 || m > int(rl::kTimelineMaxBlocks))
      throw UsageError("--max-blocks " + a.max_blocks + ": must be 1 to " +
                       std::to_string(rl::kTimelineMaxBlocks));
    r.max_blocks = unsigned(m);
  }
}

rl::TimelineRequest build_timeline_request(const TraceArgs& a) {
  if (given(a.o_block_index))
    throw UsageError("--block-index " + a.block_index +
                     ": a measured timeline records --blocks, or the blocks of --sm");
  if (given(a.o_kernel_name) && !given(a.o_kernel))
    throw UsageError("--kernel-name " + a.kernel_name + ": give it with --kernel");
  // Read, checked against the contract and registered, so that --variant may name it.
  if (given(a.o_kernel)) read_kernel_arg(a.kernel, a.kernel_name);
  const rl::TraceRequest base = build_trace_request(a);
  rl::TimelineRequest r;
  r.variant = base.variant;
  r.block_size = base.block_size;
  r.unroll = base.unroll;
  r.workspace = base.workspace;
  // The kernels past the ladder reduce in registers: that is their workspace unless one is given.
  if (!given(a.o_workspace))
    if (const auto ref = rl::resolve_variant(r.variant);
        ref && !ref->variant->takes_workspace(r.workspace) &&
        ref->variant->takes_workspace(rl::Workspace::Registers))
      r.workspace = rl::Workspace::Registers;
  r.type = base.type;
  if (given(a.o_size)) r.size = base.size;
  choose_blocks(a, r);
  if (given(a.o_cost_runs)) {
    r.cost_runs = parse_int("--cost-runs", a.cost_runs);
    if (r.cost_runs < 0 || r.cost_runs > 1000)
      throw UsageError("--cost-runs " + a.cost_runs + ": must be 0 to 1000");
  }
  try {
    rl::check_timeline_request(r);
  } catch (const rl::Error& e) {  // the variant has none, or the request does not fit it
    throw UsageError("trace --measured: " + std::string(e.what()));
  }
  return r;
}

// The CUDA device to record on; throws rl::Error (a runtime failure, exit 1) where there is no
// GPU at all, UsageError for a device that is not there.
int pick_device(const TraceArgs& a) {
  const DeviceChoice choice = parse_device("--device", a.device);
  if (choice.cpu)
    throw UsageError("--device " + a.device +
                     ": a measured timeline is stamped by the GPU as the kernel runs; give "
                     "cuda:N");
  const rl::Discovery found = rl::discover_devices();
  if (found.gpus.empty())
    throw rl::Error(
        "trace --measured: a measured timeline needs a GPU: each warp stamps the SM's clock64 "
        "and %globaltimer as the kernel runs, and there is no CUDA device here (" +
        found.no_gpu_reason + "). The host block model's trace needs none: leave out --measured.");
  if (choice.cuda_index >= int(found.gpus.size()))
    throw UsageError("--device " + a.device + ": " + rl::no_such_gpu(int(found.gpus.size())));
  return choice.cuda_index;
}

}  // namespace

void add_measured_options(CLI::App* sub, TraceArgs& a) {
  sub->add_flag("--measured", a.measured,
                "Record the warp timeline on a GPU instead: one instrumented launch stamps each "
                "warp's start, phases, every __syncthreads() and end");
  a.o_sm = sub->add_option("--sm", a.sm,
                           "--measured: record the first blocks that run on this SM (default 0)");
  a.o_blocks = sub->add_option("--blocks", a.blocks,
                               "--measured: record these block ids instead (comma-separated, at "
                               "most 16; not with --sm)");
  a.o_max_blocks = sub->add_option("--max-blocks", a.max_blocks,
                                   "--measured: how many blocks of --sm to record (1..16, "
                                   "default 4)");
  a.o_cost_runs = sub->add_option("--cost-runs", a.cost_runs,
                                  "--measured: launches of the instrumented and of the real "
                                  "kernel timed for the instrumentation's cost (0..1000, "
                                  "default 20; 0: not measured)");
  a.o_device = sub->add_option("--device", a.device, "--measured: the GPU (default cuda:0)");
  a.o_kernel = sub->add_option("--kernel", a.kernel,
                               "--measured: a .cu file with a kernel you wrote "
                               "(docs/user-kernels.md), so that --variant may name it");
  a.o_kernel_name = sub->add_option("--kernel-name", a.kernel_name,
                                    "--measured: which kernel of the --kernel file (default: its "
                                    "only one)");
  const std::pair<CLI::Option*, const char*> value_names[] = {{a.o_sm, "N"},
                                                              {a.o_blocks, "I,..."},
                                                              {a.o_max_blocks, "K"},
                                                              {a.o_cost_runs, "R"},
                                                              {a.o_device, "cuda:N"},
                                                              {a.o_kernel, "FILE.cu"},
                                                              {a.o_kernel_name, "NAME"}};
  for (const auto& [option, name] : value_names) option->type_name(name);
}

void check_no_measured_options(const TraceArgs& a) {
  for (const CLI::Option* o :
       {a.o_sm, a.o_blocks, a.o_max_blocks, a.o_cost_runs, a.o_device, a.o_kernel, a.o_kernel_name})
    if (given(o))
      throw UsageError(o->get_name() +
                       ": only with --measured (an option of the GPU's timeline; the host block "
                       "model's trace takes none)");
}

int write_measured_timeline(const TraceArgs& a) {
  const rl::TimelineRequest request = build_timeline_request(a);
  // "-" (and /dev/stdout) is stdout, written as it is; a file goes through the engine's writer.
  const Output out = plan_output("--json", a.json);
  const int device = pick_device(a);
  const OutputLocks locks = lock_outputs({&out}, "reductionlab-cli trace");
  remove_stale_temporaries(locks);
  rl::MeasuredTimeline timeline;
  try {
    timeline = rl::record_measured_timeline(request, device);
  } catch (const rl::CudaError&) {
    throw;                        // the GPU failed: a runtime failure
  } catch (const rl::Error& e) {  // the request does not fit this GPU (an SM it lacks)
    throw UsageError("trace --measured: " + std::string(e.what()));
  }
  const std::string text = rl::timeline_report_json(timeline, a.pretty ? 2 : -1) + "\n";
  return write_outputs({{&out, text}}) ? kExitOk : kExitRuntime;
}

}  // namespace rlcli
