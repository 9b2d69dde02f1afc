// `reductionlab-cli run`'s flags and how they become an rl::ExperimentSpec: start from --spec
// FILE (or the defaults: the classic ladder at N = 2^24, B = 1024, global workspace, int32), then
// every flag given explicitly overrides its field.
#pragma once

#include <CLI/CLI.hpp>

#include "engine/session/metrics.h"

#include <string>

#include "engine/device/device.h"
#include "engine/experiment/spec.h"

namespace rlcli {

struct RunArgs {
  std::string device, variants, workspace, block_sizes, unroll, sizes, type;
  // Matrices for the rows and columns variants: --shapes, or --cols / --rows with --total.
  std::string shapes, cols, rows, total, reduce;
  std::string noise, budget_ms, min_samples, max_samples, max_points, baseline, csv, json,
      spec_file, resume;
  std::string preset, time = "whole", stream;
  std::string table = "auto";  // --table: the live table's layout
  // A multi-GPU run (run_multi.h): the GPUs, the exchanges, the GPU counts.
  std::string devices, gpus, exchange, gpu_counts;
  // --kernel FILE.cu (repeatable) and --kernel-name: kernels the user wrote (docs/user-kernels.md).
  std::vector<std::string> kernels;
  std::string kernel_name;
  std::string kernel_time_limit;  // --kernel-time-limit S
  bool warm_l2 = false;
  bool in_process = false;  // --in-process: no worker process
  // Which flags were given (CLI11 counts them).
  CLI::Option *o_device = nullptr, *o_variants = nullptr, *o_workspace = nullptr,
              *o_block_sizes = nullptr, *o_unroll = nullptr, *o_sizes = nullptr, *o_type = nullptr,
              *o_noise = nullptr, *o_budget = nullptr, *o_min_samples = nullptr,
              *o_max_samples = nullptr, *o_baseline = nullptr, *o_csv = nullptr, *o_json = nullptr,
              *o_spec = nullptr, *o_resume = nullptr, *o_warm_l2 = nullptr, *o_preset = nullptr,
              *o_time = nullptr, *o_devices = nullptr, *o_gpus = nullptr, *o_exchange = nullptr,
              *o_gpu_counts = nullptr, *o_stream = nullptr, *o_max_points = nullptr,
              *o_kernel = nullptr, *o_kernel_name = nullptr, *o_kernel_time_limit = nullptr,
              *o_shapes = nullptr, *o_cols = nullptr, *o_rows = nullptr, *o_total = nullptr,
              *o_reduce = nullptr;
};

void add_run_options(CLI::App& sub, RunArgs& args);

// The variants run when none are named: every variant with a classic name (the classic ladder).
std::vector<std::string> default_variants();

// The time the table's GB/s, roofs and speed-ups use (--time whole|gpu|first).
rl::TimeBasis time_basis_of(const RunArgs& args);

// --table wide|narrow|auto: whether the live table is narrow (under 120 columns, for a terminal
// that narrow); auto: narrow when stdout is a terminal narrower than 120 columns. Throws
// UsageError for another value.
bool narrow_table_wanted(const RunArgs& args);

// --stream jsonl: events on stdout (engine/process/stream.h) instead of the table; false without
// it. Throws UsageError for another value.
bool stream_wanted(const RunArgs& args);

// Throws UsageError for a bad value or an unreadable --spec file (`--spec -`: stdin). A shape
// sweep whose total does not divide says so on stderr (rows rounded down). Validation
// against the device happens later, once the device is known (settle_for_device); `all` stays until
// then.
rl::ExperimentSpec build_spec(const RunArgs& args);
// --noise, --budget-ms, --min-samples, --max-samples and --warm-l2 over t, for one GPU and
// several alike.
void apply_timing_flags(const RunArgs& args, rl::TimingOptions& t);

// The spec to run on `device`: validated (UsageError with every message), "all" replaced by
// the variants that apply (those left out printed once on stderr, with why), the baseline
// settled (an explicit --baseline must run; the default falls back to the first variant) and
// moved to the front so it runs first at each size.
rl::ExperimentSpec settle_for_device(const rl::ExperimentSpec& spec, const RunArgs& args,
                                     const rl::DeviceInfo& device);

}  // namespace rlcli
