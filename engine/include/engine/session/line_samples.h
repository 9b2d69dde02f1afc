// Warp-state samples and executed-instruction counts per instruction for one point: plain value
// types on PointResult (results.h), filled by the line-sample pass (line_sample_pass.h, CUPTI's
// PC sampling) or the line-count pass (line_count_pass.h, CUPTI's SASS metrics), written and read
// by the exporters (counters_io.h), and placed on SASS and source lines by the Code view
// (engine/code/line_metrics.h). Like the counters, they never come from a timed run.
//
// What a sample is: every 2^period_log2 cycles each SM sub-partition picks one of its warps and
// records its program counter and its state: "selected" (issuing), or why it could not issue
// ("barrier": waiting at __syncthreads(), "long_scoreboard": waiting on global memory, ...). A
// PC's samples per reason are what Nsight Compute's source page calls "Warp Stall Sampling (All
// Samples)"; the "not issued" subset CUPTI also reports is not kept.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rl {

// What counts mean: smsp__sass_inst_executed is the warp-level instructions executed at a PC
// (once per warp that issued it), smsp__sass_thread_inst_executed the thread-level ones (once
// per thread active in that warp). Their ratio over 32 is the PC's thread efficiency: 100% when
// every lane of every warp that got there was active, 50% when half sat out a divergent branch.
// Exact counts, not samples: the instrumentation counts every execution.

// Samples at one program counter, by reason (CUPTI's names without the
// "smsp__pcsamp_warps_issue_stalled_" prefix: "barrier", "long_scoreboard", "selected", ...),
// and its executed-instruction counts where they were taken (0 where not).
struct SampledPc {
  std::uint64_t offset = 0;  // bytes from the function's first instruction, as the SASS shows it
  std::vector<std::pair<std::string, std::uint64_t>> reasons;  // largest first
  std::uint64_t inst_executed = 0;         // warp-level instructions executed at this PC
  std::uint64_t thread_inst_executed = 0;  // thread-level: the active threads of each of those
  std::uint64_t samples() const {
    std::uint64_t n = 0;
    for (const auto& [r, k] : reasons) n += k;
    return n;
  }
  std::uint64_t reason(std::string_view name) const {
    for (const auto& [r, k] : reasons)
      if (r == name) return k;
    return 0;
  }
  bool operator==(const SampledPc&) const = default;
};

// The sampled (or counted) PCs of one kernel function in one launch step of the point.
struct SampledFunction {
  std::string role;            // "first_kernel", "finish" or "whole", as the counters name steps
  std::string function;        // the mangled name, as the binary and the Code view name it
  std::vector<SampledPc> pcs;  // by offset
  std::uint64_t samples() const {
    std::uint64_t n = 0;
    for (const SampledPc& p : pcs) n += p.samples();
    return n;
  }
  std::uint64_t inst_executed() const {
    std::uint64_t n = 0;
    for (const SampledPc& p : pcs) n += p.inst_executed;
    return n;
  }
  std::uint64_t thread_inst_executed() const {
    std::uint64_t n = 0;
    for (const SampledPc& p : pcs) n += p.thread_inst_executed;
    return n;
  }
  bool operator==(const SampledFunction&) const = default;
};

struct PointLineSamples {
  std::vector<SampledFunction> functions;
  std::string arch;           // the SASS the offsets belong to ("sm_90")
  int period_log2 = 0;        // a sample every 2^period_log2 cycles per SM sub-partition
  int launches = 0;           // sampled launches of each step (repeated until enough samples)
  std::uint64_t dropped = 0;  // samples the hardware dropped (buffer full)
  std::string note;           // why there are no samples or fewer, or ""
  // Executed-instruction counts (line_count_pass.h): the launches of each step that were counted
  // (0: none were taken, and the PCs' counts are all 0), and why there are none or fewer.
  int counted_launches = 0;
  std::string count_note;
  std::uint64_t samples() const {
    std::uint64_t n = 0;
    for (const SampledFunction& f : functions) n += f.samples();
    return n;
  }
  std::uint64_t inst_executed() const {
    std::uint64_t n = 0;
    for (const SampledFunction& f : functions) n += f.inst_executed();
    return n;
  }
  std::uint64_t thread_inst_executed() const {
    std::uint64_t n = 0;
    for (const SampledFunction& f : functions) n += f.thread_inst_executed();
    return n;
  }
  // Samples with this reason over every function.
  std::uint64_t reason(std::string_view name) const {
    std::uint64_t n = 0;
    for (const SampledFunction& f : functions)
      for (const SampledPc& p : f.pcs) n += p.reason(name);
    return n;
  }
  bool operator==(const PointLineSamples&) const = default;
};

// The share of a warp's 32 lanes active in the instructions counted: thread / (32 * inst), 0..1;
// 0 where nothing was counted.
inline double thread_efficiency(std::uint64_t inst_executed, std::uint64_t thread_inst_executed) {
  return inst_executed == 0 ? 0.0 : double(thread_inst_executed) / (32.0 * double(inst_executed));
}

}  // namespace rl
