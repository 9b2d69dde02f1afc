// `reductionlab-cli trace`: the step-by-step trace of one block of a variant, from the host
// block model (engine/trace.h), as JSON to a file or to stdout (--json -); with --measured, the
// warp timeline a GPU stamps instead (cmd_trace_measured.cpp).
#include <cstdio>
#include <memory>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/trace/trace.h"
#include "output_files.h"
#include "parse_args.h"
#include "trace_args.h"

namespace rlcli {

rl::TraceRequest build_trace_request(const TraceArgs& a) {
  rl::TraceRequest r;
  const auto ref = rl::resolve_variant(a.variant);
  if (!ref)
    throw UsageError("--variant " + rl::echo(a.variant) +
                     ": unknown variant (run `reductionlab-cli variants` for the list)");
  r.variant = a.variant;
  r.block_size = parse_int("--block-size", a.block_size);
  if (a.o_unroll->count() > 0) {
    r.unroll = parse_int("--unroll", a.unroll);
    if (ref->unroll && *ref->unroll != *r.unroll)
      throw UsageError("--unroll " + a.unroll + ": conflicts with --variant " + a.variant +
                       " (unroll " + std::to_string(*ref->unroll) + ")");
  }
  const auto ws = parse_workspaces("--workspace", a.workspace);
  if (ws.size() != 1)
    throw UsageError("--workspace " + rl::echo(a.workspace) +
                     ": a trace takes one workspace (global or shared)");
  r.workspace = ws.front();
  const auto types = parse_types("--type", a.type);
  if (types.size() != 1)
    throw UsageError("--type " + rl::echo(a.type) + ": a trace takes one type (int32 or float32)");
  r.type = types.front();
  if (a.o_size->count() > 0) r.size = parse_size_arg("--size", a.size);
  if (a.o_block_index->count() > 0) {
    const int b = parse_int("--block-index", a.block_index);
    if (b < 0) throw UsageError("--block-index " + a.block_index + ": must be 0 or more");
    r.block_index = unsigned(b);
  }
  return r;
}

namespace {

int write_trace(const TraceArgs& a) {
  if (a.measured) return write_measured_timeline(a);
  check_no_measured_options(a);
  const rl::TraceRequest request = build_trace_request(a);
  // "-" (and /dev/stdout) is stdout, written as it is; a file goes through the engine's writer.
  const Output out = plan_output("--json", a.json);
  // One writer per file, as for a run: a run or another trace writing it refuses this one.
  const OutputLocks locks = lock_outputs({&out}, "reductionlab-cli trace");
  remove_stale_temporaries(locks);
  std::string text;
  try {
    text = rl::trace_json_text(request, a.pretty ? 2 : -1) + "\n";
  } catch (const rl::Error& e) {  // the request does not fit the variant (block size, unroll...)
    throw UsageError(e.what());
  }
  return write_outputs({{&out, text}}) ? kExitOk : kExitRuntime;
}

}  // namespace

Command add_trace_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "trace",
      "Write the step-by-step trace of one block (workspace values, warp masks, barriers, "
      "counters) as JSON, from the host block model; with --measured, the warp timeline a GPU "
      "stamps as the kernel runs");
  auto a = std::make_shared<TraceArgs>();
  sub->add_option("--variant", a->variant, "Variant id or classic kernel name (reduceUnroll8)")
      ->required();
  sub->add_option("--block-size", a->block_size, "Threads per block (power of two, 32..1024)")
      ->required();
  a->o_unroll = sub->add_option("--unroll", a->unroll, "Unroll factor (default: the variant's)");
  a->o_workspace = sub->add_option(
      "--workspace", a->workspace,
      "global (default, as in the classic ladder) or shared; registers for the kernels past the "
      "ladder (with --measured, their default)");
  a->o_size = sub->add_option("--size", a->size,
                              "N: the totals cover the whole launch of N elements (default: one "
                              "block's tile; with --measured 2^24); 2^24 and 16M are accepted");
  sub->add_option("--type", a->type, "int32 (default) or float32");
  a->o_block_index =
      sub->add_option("--block-index", a->block_index, "Which block to trace (default 0)");
  sub->add_option("--json", a->json, "Output FILE, or - for stdout")->required();
  sub->add_flag("--pretty", a->pretty, "Indent the JSON");
  add_measured_options(sub, *a);
  // Shown in --help instead of CLI11's "TEXT" (values are parsed by parse_args.h).
  const std::pair<const char*, const char*> value_names[] = {
      {"--variant", "ID"},    {"--block-size", "B"},
      {"--unroll", "U"},      {"--workspace", "global|shared"},
      {"--size", "N"},        {"--type", "int32|float32"},
      {"--block-index", "I"}, {"--json", "FILE|-"}};
  for (const auto& [flag, name] : value_names) sub->get_option(flag)->type_name(name);
  return Command{sub, [a] { return write_trace(*a); }};
}

}  // namespace rlcli
