// `run`'s flags made into an rl::ExperimentSpec (build_spec): a preset or --spec FILE, the
// --kernel files, then each flag given over its field, the matrix flags (--shapes, --cols,
// --rows, --total, --reduce) included. The options themselves are in run_options.cpp.
#include "run_spec.h"

#include <algorithm>
#include <cstdio>

#include "cli.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/experiment/presets.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"
#include "engine/user/user_kernel.h"
#include "flag_given.h"
#include "output_files.h"
#include "parse_args.h"

namespace rlcli {

std::vector<std::string> default_variants() {
  std::vector<std::string> out;
  for (const rl::VariantInfo& v : rl::catalog())
    if (v.family == rl::VariantFamily::SeedLadder && !v.seed_name.empty()) out.push_back(v.id);
  return out;
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

}  // namespace rlcli
