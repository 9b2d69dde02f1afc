// `run`'s flags as CLI11 options with their help text, and the readings of the flags that choose
// the output (--time, --table, --stream). Apart from building the spec (run_spec.cpp), which
// reads the values these options fill.
#include "run_spec.h"

#include <unistd.h>

#include <sstream>

#include "cli.h"
#include "engine/core/echo.h"
#include "engine/report/time_basis.h"
#include "flag_given.h"
#include "format.h"

namespace rlcli {

namespace {

// The defaults the help states are the engine's (a spec nobody changed), so they cannot drift
// from what a run without the flag does.
const rl::ExperimentSpec& engine_defaults() {
  static const rl::ExperimentSpec spec;
  return spec;
}

template <typename T>
std::string with_default(const std::string& text, const T& value) {
  std::ostringstream out;
  out << text << " (default " << value << ")";
  return out.str();
}

// Matrices for the variants that sum each row or column (docs/cli.md "Rows and columns").
void add_matrix_options(CLI::App& sub, RunArgs& a) {
  a.o_shapes = sub.add_option("--shapes", a.shapes,
                              "Matrices (rows x cols, row-major) for the rows and columns "
                              "variants: 4096x4096, 2^12x2^12, comma list");
  a.o_cols = sub.add_option("--cols", a.cols,
                            "A sweep of widths at a fixed --total: 32..2^24,1000,4097; rows = "
                            "total / cols, rounded down (said when it does not divide)");
  a.o_rows = sub.add_option("--rows", a.rows,
                            "The same sweeping the rows (cols = total / rows); with --cols and "
                            "no --total, every rows x cols");
  a.o_total = sub.add_option("--total", a.total,
                             "Elements of each matrix of a --cols or --rows sweep; alone, the "
                             "spec's (preset's) shapes at this total, each keeping its cols");
  a.o_reduce =
      sub.add_option("--reduce", a.reduce,
                     with_default("Which rows and columns variants --variants all runs on the "
                                  "shapes: rows, columns or both",
                                  rl::to_string(engine_defaults().reduce)));
}

// What to measure: device, variants, workspaces, block sizes, unroll factors, sizes, types.
void add_point_options(CLI::App& sub, RunArgs& a) {
  a.o_device = sub.add_option("--device", a.device,
                              "cpu or cuda:N (default: cuda:0 when there is a GPU, else cpu)");
  a.o_variants = sub.add_option(
      "--variants", a.variants,
      "Comma list of variant ids or classic kernel names, or all: every variant that applies to "
      "the request and device, the rest listed on stderr (default: the classic ladder)");
  a.o_kernel = sub.add_option("--kernel", a.kernels,
                              "A .cu file with a kernel you wrote (docs/user-kernels.md), run as "
                              "one more rung under its own name; repeatable")
                   ->type_name("FILE.cu");
  a.o_kernel_name = sub.add_option("--kernel-name", a.kernel_name,
                                   "Which kernel of the --kernel file (default: its only one)")
                        ->type_name("NAME");
  a.o_kernel_time_limit =
      sub.add_option(
             "--kernel-time-limit", a.kernel_time_limit,
             with_default("Seconds a point of a --kernel may run without finishing before its "
                          "worker is stopped (an endless loop)",
                          engine_defaults().timing.user_kernel_limit_s))
          ->type_name("S");
  a.o_workspace = sub.add_option(
      "--workspace", a.workspace,
      with_default("global, shared or both", rl::to_string(engine_defaults().workspaces.front())));
  a.o_block_sizes =
      sub.add_option("--block-sizes", a.block_sizes,
                     with_default("Comma list, e.g. 256,1024",
                                  rl::format_int_list(engine_defaults().block_sizes)));
  a.o_unroll = sub.add_option("--unroll", a.unroll,
                              "Comma list of unroll factors for variants named without one, e.g. "
                              "1,2,4,8 (default: each variant's own)");
  a.o_sizes = sub.add_option("--sizes", a.sizes,
                             with_default("Comma list: 1000003, 2^24, 16M, 2^10..2^28",
                                          rl::format_size_list(engine_defaults().sizes)));
  a.o_type = sub.add_option(
      "--type", a.type,
      with_default("int32, float32 or both", rl::to_string(engine_defaults().types.front())));
  add_matrix_options(sub, a);
}

// One reduction across several GPUs (run_multi.h, docs/multi-gpu.md).
void add_multi_gpu_options(CLI::App& sub, RunArgs& a) {
  a.o_devices = sub.add_option(
      "--devices", a.devices,
      "One reduction across these GPUs: each holds N/G elements, reduces them with the variant "
      "named (default single_pass) and the partials are combined by the exchanges");
  a.o_gpus = sub.add_option("--gpus", a.gpus,
                            "The same over every GPU (all) or the first K (instead of --devices)");
  a.o_exchange = sub.add_option(
      "--exchange", a.exchange,
      "Multi-GPU exchanges: nccl_allreduce, nccl_reduce, gather_shards (copy every shard to the "
      "root), peer_partials (copy the partials to the root), or all (default all)");
  a.o_gpu_counts = sub.add_option(
      "--gpu-counts", a.gpu_counts,
      "Multi-GPU: run over the first K of the GPUs for each K listed (default every K from 1 to "
      "G: the scaling, and one GPU reducing the whole input)");
}

// How long to sample each point.
void add_sampling_options(CLI::App& sub, RunArgs& a) {
  a.o_noise = sub.add_option(
      "--noise", a.noise,
      with_default("Stop sampling a point once the relative standard error of the mean "
                   "is below this",
                   engine_defaults().timing.noise));
  a.o_budget = sub.add_option("--budget-ms", a.budget_ms,
                              with_default("... or once this much time was spent sampling it",
                                           engine_defaults().timing.budget_ms));
  a.o_min_samples = sub.add_option("--min-samples", a.min_samples,
                                   with_default("Take at least this many samples of every point",
                                                engine_defaults().timing.min_samples));
  a.o_max_samples = sub.add_option(
      "--max-samples", a.max_samples,
      with_default("... and at most this many", engine_defaults().timing.max_samples));
  a.o_max_points = sub.add_option(
      "--max-points", a.max_points,
      with_default("Refuse a run of more points than this", engine_defaults().max_points) +
          ": raise it on purpose for a larger sweep");
}

// Baseline, outputs, where the experiment comes from, the time the table uses.
void add_session_options(CLI::App& sub, RunArgs& a) {
  a.o_baseline = sub.add_option("--baseline", a.baseline,
                                "Variant that speed-ups are measured against (default neighbored "
                                "when it runs, else the first variant)");
  a.o_csv = sub.add_option("--csv", a.csv,
                           "Write the summary CSV to FILE and raw samples to FILE.samples.csv");
  a.o_json = sub.add_option("--json", a.json, "Write the whole session as JSON to FILE");
  a.o_spec = sub.add_option("--spec", a.spec_file,
                            "Read the experiment from a JSON spec FILE (- reads stdin); flags "
                            "override it");
  a.o_preset = sub.add_option("--preset", a.preset,
                              "Start from one of the preset experiments (reductionlab-cli presets "
                              "lists them); flags override it");
  a.o_time = sub.add_option("--time", a.time,
                            "The time GB/s, %floor, %theo and speed-ups use in the table: whole "
                            "(whole reduction), gpu (timestamps out) or first (first kernel) "
                            "(default whole)");
  a.o_stream = sub.add_option("--stream", a.stream,
                              "Write the run to stdout as JSON lines, one per event (start, "
                              "progress, point, end), instead of the table: jsonl "
                              "(docs/remote.md)");
  sub.add_option("--table", a.table,
                 "The live table: wide (every column), narrow (under 120 columns: point, total, "
                 "speed-up, status) or auto (narrow when stdout is a terminal narrower than 120 "
                 "columns; default)")
      ->type_name("wide|narrow|auto");
  a.o_warm_l2 = sub.add_flag("--warm-l2", a.warm_l2,
                             "Do not flush L2 before each sample (default: cold L2, as nvbench)");
  sub.add_flag("--in-process", a.in_process,
               "Measure in this process, not in a worker process (after a GPU fault the rest of "
               "the run cannot use the GPU). For a profiler attached to the CLI: under Nsight "
               "Compute the worker's kernels ran up to 13% slower than in process (H200); "
               "without ncu both read the same");
  a.o_resume = sub.add_option("--resume", a.resume,
                              "Finish the run a saved session FILE holds (its experiment, on the "
                              "same device): its points are kept, the rest run; --json defaults "
                              "to FILE");
}

void set_value_names(RunArgs& a) {
  // Shown in --help instead of CLI11's "TEXT" (values are parsed by parse_args.h).
  const std::pair<CLI::Option*, const char*> value_names[] = {{a.o_device, "cpu|cuda:N"},
                                                              {a.o_variants, "ID,...|all"},
                                                              {a.o_workspace, "global|shared|both"},
                                                              {a.o_block_sizes, "B,..."},
                                                              {a.o_unroll, "U,..."},
                                                              {a.o_sizes, "N,..."},
                                                              {a.o_type, "int32|float32|both"},
                                                              {a.o_shapes, "RxC,..."},
                                                              {a.o_cols, "C,..."},
                                                              {a.o_rows, "R,..."},
                                                              {a.o_total, "N"},
                                                              {a.o_reduce, "rows|columns|both"},
                                                              {a.o_noise, "FRACTION"},
                                                              {a.o_budget, "MS"},
                                                              {a.o_min_samples, "N"},
                                                              {a.o_max_samples, "N"},
                                                              {a.o_max_points, "N"},
                                                              {a.o_baseline, "ID"},
                                                              {a.o_csv, "FILE"},
                                                              {a.o_json, "FILE"},
                                                              {a.o_spec, "FILE|-"},
                                                              {a.o_preset, "ID"},
                                                              {a.o_time, "whole|gpu|first"},
                                                              {a.o_resume, "FILE"},
                                                              {a.o_devices, "cuda:N,..."},
                                                              {a.o_gpus, "all|K"},
                                                              {a.o_exchange, "ID,...|all"},
                                                              {a.o_gpu_counts, "K,..."},
                                                              {a.o_stream, "jsonl"}};
  for (const auto& [option, name] : value_names) option->type_name(name);
}

}  // namespace

void add_run_options(CLI::App& sub, RunArgs& a) {
  add_point_options(sub, a);
  add_multi_gpu_options(sub, a);
  add_sampling_options(sub, a);
  add_session_options(sub, a);
  set_value_names(a);
}

rl::TimeBasis time_basis_of(const RunArgs& a) {
  const auto b = rl::parse_time_basis(a.time);
  if (!b) throw UsageError("--time " + rl::echo(a.time) + ": expected whole, gpu or first");
  return *b;
}

bool narrow_table_wanted(const RunArgs& a) {
  if (a.table == "wide") return false;
  if (a.table == "narrow") return true;
  if (a.table != "auto")
    throw UsageError("--table " + rl::echo(a.table) + ": expected wide, narrow or auto");
  const std::size_t width = terminal_columns(STDOUT_FILENO);
  return width > 0 && width < kNarrowTableColumns;
}

bool stream_wanted(const RunArgs& a) {
  if (!given(a.o_stream)) return false;
  if (a.stream != "jsonl") throw UsageError("--stream " + rl::echo(a.stream) + ": expected jsonl");
  return true;
}

}  // namespace rlcli
