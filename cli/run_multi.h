// `reductionlab-cli run --devices cuda:0,cuda:1` (or --gpus all): one reduction across several
// GPUs (engine/multi/multi_run.h), run in this process, a table row per point and a line per GPU
// on stdout, the files asked for written at the end. docs/multi-gpu.md.
#pragma once

#include "run_counters.h"
#include "run_counts.h"
#include "run_spec.h"

namespace rlcli {

// Whether the flags ask for a multi-GPU run (--devices or --gpus given). Throws UsageError for
// --exchange or --gpu-counts without them.
bool wants_multi_gpu(const RunArgs& args);

// Throws UsageError for a bad flag (a device list, an exchange, a flag that does not apply to a
// multi-GPU run, a spec validate() refuses); returns the exit code (cli.h).
int run_multi_gpu(const RunArgs& args, const CountsFlags& counts, const CountersFlag& counters);

}  // namespace rlcli
