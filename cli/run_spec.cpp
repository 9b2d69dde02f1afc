#include "run_spec.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/experiment/presets.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/report/time_basis.h"
#include "engine/user/user_kernel.h"
#include "format.h"
#include "output_files.h"
#include "parse_args.h"

namespace rlcli {

namespace {

bool given(const CLI::Option* o) {
  return o && o->count() > 0;
}

std::string variant_id(const std::string& name) {
  const auto ref = rl::resolve_variant(name);
  return ref ? ref->variant->id : name;
}

// Why the baseline does not run: `all` left it out on this device, or it was not named.
std::string not_run_reason(const std::string& id, const std::vector<rl::Exclusion>& excluded) {
  for (const rl::Exclusion& e : excluded)
    if (e.variant == id) return "--variants all left it out on this device (" + e.reason + ")";
  return "not among the variants run (add " + id + " to --variants)";
}

// Speed-ups need the baseline in the run. An explicit --baseline outside the run is an error;
// otherwise the default (neighbored, the classic ladder's first kernel) falls back to the first
// variant run. The baseline's entries move to the front, so at each size it runs first and every
// later row already shows its speed-up.
void settle_baseline(const RunArgs& a, rl::ExperimentSpec& spec,
                     const std::vector<rl::Exclusion>& excluded) {
  auto in_run = [&](const std::string& id) {
    return std::any_of(spec.variants.begin(), spec.variants.end(),
                       [&](const std::string& n) { return variant_id(n) == id; });
  };
  if (given(a.o_baseline) && !in_run(spec.baseline))
    throw UsageError("--baseline " + a.baseline + ": " + not_run_reason(spec.baseline, excluded));
  if (!spec.baseline.empty() && !in_run(variant_id(spec.baseline))) {
    const std::string fallback = rl::default_baseline(spec);  // cub_segmented_rows for matrices
    spec.baseline = in_run(fallback) ? fallback : variant_id(spec.variants.front());
  }
  if (spec.baseline.empty()) return;
  spec.baseline = variant_id(spec.baseline);
  std::stable_partition(spec.variants.begin(), spec.variants.end(),
                        [&](const std::string& n) { return variant_id(n) == spec.baseline; });
}

// The flags a validation message (engine/spec.h) is about, most specific first: a message
// starts with its field ("block size 100: ..."); "variant X: takes block sizes ..." is about
// the block sizes typed as much as the variant. The first flag typed is named; a value from
// --spec FILE names the file; a default names nothing.
std::string flag_of(const RunArgs& a, const std::string& message) {
  struct Field {
    const char* text;
    bool prefix;  // else anywhere in the message
    std::vector<const CLI::Option*> flags;
  };
  const Field fields[] = {{"variants all", true, {a.o_variants}},
                          {": takes unroll factors", false, {a.o_unroll, a.o_variants}},
                          {": takes block sizes", false, {a.o_block_sizes, a.o_variants}},
                          {": takes workspaces", false, {a.o_workspace, a.o_variants}},
                          {": takes int32", false, {a.o_type, a.o_variants}},
                          {": takes float32", false, {a.o_type, a.o_variants}},
                          {"variant", true, {a.o_variants}},
                          {"unroll", true, {a.o_unroll}},
                          {"block size", true, {a.o_block_sizes}},
                          {"size", true, {a.o_sizes}},
                          {"shape", true, {a.o_shapes, a.o_cols, a.o_rows, a.o_total}},
                          {"workspace", true, {a.o_workspace}},
                          {"type", true, {a.o_type}},
                          {"noise", true, {a.o_noise}},
                          {"budget", true, {a.o_budget}},
                          {"samples", true, {a.o_min_samples, a.o_max_samples}},
                          {"time limit", true, {a.o_kernel_time_limit}},
                          {"max samples", true, {a.o_max_samples, a.o_min_samples}},
                          {"baseline", true, {a.o_baseline}},
                          {"points", true, {a.o_max_points}}};
  for (const Field& f : fields) {
    const std::size_t at = message.find(f.text);
    if (f.prefix ? at != 0 : at == std::string::npos) continue;
    for (const CLI::Option* o : f.flags)
      if (given(o)) return o->get_name();
    break;
  }
  return given(a.o_spec) ? "--spec " + a.spec_file : "";
}

[[noreturn]] void invalid(const RunArgs& a, const std::vector<std::string>& messages) {
  std::vector<std::string> lines;
  for (const std::string& m : messages) {
    const std::string flag = flag_of(a, m);
    // "noise 2: ..." becomes "--noise 2: ...", "block size 100: ..." "--block-sizes: block ...".
    const std::string bare = flag.substr(std::min<std::size_t>(2, flag.size()));
    if (flag.empty())
      lines.push_back(m);
    else if (m.rfind(bare + " ", 0) == 0 || m.rfind(bare + ":", 0) == 0)
      lines.push_back("--" + m);
    else
      lines.push_back(flag + ": " + m);
  }
  throw UsageError(lines.front(), {lines.begin() + 1, lines.end()});
}

}  // namespace

std::vector<std::string> default_variants() {
  std::vector<std::string> out;
  for (const rl::VariantInfo& v : rl::catalog())
    if (v.family == rl::VariantFamily::SeedLadder && !v.seed_name.empty()) out.push_back(v.id);
  return out;
}

namespace {

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
  a.o_reduce = sub.add_option("--reduce", a.reduce,
                              "Which rows and columns variants --variants all runs on the "
                              "shapes: rows, columns or both (default both)");
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
      sub.add_option("--kernel-time-limit", a.kernel_time_limit,
                     "Seconds a point of a --kernel may run without finishing before its worker is "
                     "stopped (an endless loop); default 10")
          ->type_name("S");
  a.o_workspace =
      sub.add_option("--workspace", a.workspace, "global, shared or both (default global)");
  a.o_block_sizes =
      sub.add_option("--block-sizes", a.block_sizes, "Comma list, e.g. 256,1024 (default 1024)");
  a.o_unroll = sub.add_option("--unroll", a.unroll,
                              "Comma list of unroll factors for variants named without one, e.g. "
                              "1,2,4,8 (default: each variant's own)");
  a.o_sizes = sub.add_option("--sizes", a.sizes,
                             "Comma list: 1000003, 2^24, 16M, 2^10..2^28 (default 2^24)");
  a.o_type = sub.add_option("--type", a.type, "int32, float32 or both (default int32)");
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
  a.o_noise = sub.add_option("--noise", a.noise,
                             "Stop sampling a point once the relative standard error of the mean "
                             "is below this (default 0.01)");
  a.o_budget = sub.add_option("--budget-ms", a.budget_ms,
                              "... or once this much time was spent sampling it (default 200)");
  a.o_min_samples = sub.add_option("--min-samples", a.min_samples,
                                   "Take at least this many samples of every point (default 5)");
  a.o_max_samples =
      sub.add_option("--max-samples", a.max_samples, "... and at most this many (default 1000)");
  a.o_max_points = sub.add_option("--max-points", a.max_points,
                                  "Refuse a run of more points than this (default 100000): "
                                  "raise it on purpose for a larger sweep");
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

namespace {

std::string read_spec_text(const RunArgs& a) {
  if (a.spec_file != "-") return read_file("--spec", a.spec_file, rl::kMaxSpecFileBytes);
  try {
    return rl::read_text_stdin(rl::kMaxSpecFileBytes);
  } catch (const rl::Error& e) {
    throw UsageError(std::string("--spec - (stdin): ") + e.what());
  }
}

// The --kernel files, read, checked against the contract and registered (so --variants and
// --baseline may name them); their names, in order.
std::vector<std::string> add_user_kernels(const RunArgs& a, rl::ExperimentSpec& spec) {
  if (given(a.o_kernel_name) && a.kernels.size() != 1)
    throw UsageError("--kernel-name " + a.kernel_name + ": give it with exactly one --kernel");
  std::vector<std::string> names;
  for (const std::string& path : a.kernels) {
    rl::UserKernelSource k = read_kernel_arg(path, a.kernel_name);
    std::erase_if(spec.user_kernels,
                  [&](const rl::UserKernelSource& old) { return old.name == k.name; });
    names.push_back(k.name);
    spec.user_kernels.push_back(std::move(k));
  }
  return names;
}

std::vector<std::uint64_t> parse_counts(const char* flag, const std::string& text) {
  std::vector<std::uint64_t> out;
  std::string error;
  if (!rl::parse_size_list(text, &out, &error)) throw UsageError(std::string(flag) + ": " + error);
  return out;
}

// --cols or --rows at --total: the shapes, and a line on stderr for each that does not divide.
std::vector<rl::MatrixShape> sweep_at_total(const RunArgs& a) {
  if (given(a.o_cols) && given(a.o_rows))
    throw UsageError("--total " + a.total + ": give --cols or --rows with it, not both");
  const bool rows = given(a.o_rows);
  const char* flag = rows ? "--rows" : "--cols";
  const std::vector<std::uint64_t> values = parse_counts(flag, rows ? a.rows : a.cols);
  const std::uint64_t total = parse_size_arg("--total", a.total);
  std::vector<rl::MatrixShape> shapes;
  std::vector<std::string> notes;
  std::string error;
  if (!rl::shapes_at_total(values, rows, total, &shapes, &notes, &error))
    throw UsageError(std::string(flag) + ": " + error);
  for (const std::string& n : notes) std::fprintf(stderr, "reductionlab-cli: %s\n", n.c_str());
  return shapes;
}

// The spec's own shapes (a preset's, a --spec file's) at another total, each keeping its cols.
std::vector<rl::MatrixShape> rescaled(const RunArgs& a, const std::vector<rl::MatrixShape>& from) {
  if (from.empty())
    throw UsageError("--total " + a.total +
                     ": needs --cols or --rows (or a preset or spec with shapes)");
  std::vector<std::uint64_t> cols;
  for (const rl::MatrixShape& m : from) cols.push_back(m.cols);
  std::vector<rl::MatrixShape> shapes;
  std::vector<std::string> notes;
  std::string error;
  if (!rl::shapes_at_total(cols, false, parse_size_arg("--total", a.total), &shapes, &notes,
                           &error))
    throw UsageError("--total " + a.total + ": " + error);
  for (const std::string& n : notes) std::fprintf(stderr, "reductionlab-cli: %s\n", n.c_str());
  return shapes;
}

// --shapes, --cols, --rows, --total and --reduce over the spec.
void apply_matrix_flags(const RunArgs& a, rl::ExperimentSpec& spec) {
  const bool sweep = given(a.o_cols) || given(a.o_rows) || given(a.o_total);
  if (given(a.o_shapes)) {
    if (sweep)
      throw UsageError("--shapes " + a.shapes +
                       ": give --shapes or --cols/--rows with --total, "
                       "not both");
    std::string error;
    if (!rl::parse_shape_list(a.shapes, &spec.shapes, &error))
      throw UsageError("--shapes: " + error);
  } else if (given(a.o_total)) {
    spec.shapes = given(a.o_cols) || given(a.o_rows) ? sweep_at_total(a) : rescaled(a, spec.shapes);
  } else if (given(a.o_cols) && given(a.o_rows)) {  // every rows x cols
    spec.shapes.clear();
    for (std::uint64_t r : parse_counts("--rows", a.rows))
      for (std::uint64_t c : parse_counts("--cols", a.cols)) spec.shapes.push_back({r, c});
  } else if (sweep) {
    throw UsageError(std::string(given(a.o_cols) ? "--cols" : "--rows") +
                     ": needs --total (the other side is total / this one) or both --rows and "
                     "--cols");
  }
  if (given(a.o_reduce)) {
    if (!rl::parse_reduce_filter(a.reduce, &spec.reduce))
      throw UsageError("--reduce " + rl::echo(a.reduce) + ": expected rows, columns or both");
    if (spec.shapes.empty())
      throw UsageError("--reduce " + a.reduce +
                       ": picks among the rows and columns variants, which run on shapes: give "
                       "--shapes or --cols with --total");
  }
}

}  // namespace

void apply_timing_flags(const RunArgs& a, rl::TimingOptions& t) {
  if (given(a.o_noise)) t.noise = parse_number("--noise", a.noise);
  if (given(a.o_budget)) t.budget_ms = parse_number("--budget-ms", a.budget_ms);
  if (given(a.o_min_samples)) t.min_samples = parse_int("--min-samples", a.min_samples);
  if (given(a.o_max_samples)) t.max_samples = parse_int("--max-samples", a.max_samples);
  // One flag raising the floor past the default ceiling (or the reverse) means the other too.
  if (given(a.o_min_samples) && !given(a.o_max_samples))
    t.max_samples = std::max(t.max_samples, t.min_samples);
  if (given(a.o_max_samples) && !given(a.o_min_samples))
    t.min_samples = std::min(t.min_samples, t.max_samples);
  if (a.warm_l2) t.cold_l2 = false;
}

rl::ExperimentSpec build_spec(const RunArgs& a) {
  rl::ExperimentSpec spec;
  if (given(a.o_preset)) {
    if (given(a.o_spec))
      throw UsageError("--preset " + a.preset + ": give --preset or --spec, not both");
    const rl::Preset* p = rl::find_preset(a.preset);
    if (!p)
      throw UsageError("--preset " + rl::echo(a.preset) + ": unknown preset (expected one of " +
                       rl::preset_ids() + "; reductionlab-cli presets lists them)");
    spec = p->spec;
  }
  if (given(a.o_spec)) {
    const std::string text = read_spec_text(a);
    try {
      spec = rl::spec_from_json(text);
    } catch (const std::exception& e) {  // rl::Error naming the field; never a raw library one
      throw UsageError("--spec " + a.spec_file + ": " + e.what());
    }
  }
  const std::vector<std::string> user = add_user_kernels(a, spec);
  if (given(a.o_variants)) spec.variants = parse_variant_names("--variants", a.variants);
  if (spec.variants.empty()) spec.variants = default_variants();
  for (const std::string& name : user)
    if (std::find(spec.variants.begin(), spec.variants.end(), name) == spec.variants.end())
      spec.variants.push_back(name);
  if (given(a.o_workspace)) spec.workspaces = parse_workspaces("--workspace", a.workspace);
  if (given(a.o_block_sizes)) spec.block_sizes = parse_int_list("--block-sizes", a.block_sizes);
  if (given(a.o_unroll)) spec.unroll_factors = parse_int_list("--unroll", a.unroll);
  if (given(a.o_sizes)) spec.sizes = parse_sizes_arg("--sizes", a.sizes);
  if (given(a.o_type)) spec.types = parse_types("--type", a.type);
  apply_matrix_flags(a, spec);
  apply_timing_flags(a, spec.timing);
  if (!a.kernel_time_limit.empty())
    spec.timing.user_kernel_limit_s = parse_number("--kernel-time-limit", a.kernel_time_limit);
  if (given(a.o_baseline)) spec.baseline = parse_variant_id("--baseline", a.baseline);
  if (given(a.o_max_points)) {
    const int n = parse_int("--max-points", a.max_points);
    if (n < 1) throw UsageError("--max-points " + a.max_points + ": a run has at least one point");
    spec.max_points = std::uint64_t(n);
  }
  return spec;
}

rl::ExperimentSpec settle_for_device(const rl::ExperimentSpec& asked, const RunArgs& a,
                                     const rl::DeviceInfo& device) {
  if (auto errors = rl::validate(asked, &device); !errors.empty()) invalid(a, errors);
  std::vector<rl::Exclusion> excluded;
  rl::ExperimentSpec spec = rl::resolve_all(asked, &device, &excluded);
  settle_baseline(a, spec, excluded);
  // Once, after the spec is known to be good: what `all` did not take, and why.
  for (const std::string& line : rl::describe_exclusions(excluded))
    std::fprintf(stderr, "reductionlab-cli: --variants all left out %s\n", line.c_str());
  return spec;
}

}  // namespace rlcli
