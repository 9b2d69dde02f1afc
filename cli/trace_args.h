// The options of `reductionlab-cli trace`, as typed (parsed when the command runs, parse_args.h),
// shared by the host block model's trace (cmd_trace.cpp) and the measured timeline
// (cmd_trace_measured.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "engine/trace/trace.h"

namespace rlcli {

struct TraceArgs {
  std::string variant, block_size, unroll, workspace = "global", size, type = "int32", block_index,
                                           json;
  bool pretty = false;
  CLI::Option *o_unroll = nullptr, *o_size = nullptr, *o_block_index = nullptr,
              *o_workspace = nullptr;
  // --measured and the options only it takes.
  bool measured = false;
  std::string sm, blocks, max_blocks, cost_runs, device = "cuda:0", kernel, kernel_name;
  CLI::Option *o_sm = nullptr, *o_blocks = nullptr, *o_max_blocks = nullptr, *o_cost_runs = nullptr,
              *o_device = nullptr, *o_kernel = nullptr, *o_kernel_name = nullptr;
};

// The variant, block size, unroll, workspace, type, size and block index; throws UsageError
// naming the flag.
rl::TraceRequest build_trace_request(const TraceArgs& a);

// Adds --measured and the options only it takes to `trace`.
void add_measured_options(CLI::App* sub, TraceArgs& a);
// Throws UsageError for an option of --measured given without it.
void check_no_measured_options(const TraceArgs& a);
// `trace --measured`: records the timeline on the GPU and writes it with its derived numbers.
int write_measured_timeline(const TraceArgs& a);

}  // namespace rlcli
