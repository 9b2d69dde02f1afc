// Warp-state samples per instruction for one point: plain value types on PointResult
// (results.h), filled by the line-sample pass (line_sample_pass.h, CUPTI's PC sampling), written
// and read by the exporters (counters_io.h), and placed on SASS and source lines by the Code view
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

// Samples at one program counter, by reason (CUPTI's names without the
// "smsp__pcsamp_warps_issue_stalled_" prefix: "barrier", "long_scoreboard", "selected", ...).
struct SampledPc {
  std::uint64_t offset = 0;  // bytes from the function's first instruction, as the SASS shows it
  std::vector<std::pair<std::string, std::uint64_t>> reasons;  // largest first
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

// The sampled PCs of one kernel function in one launch step of the point.
struct SampledFunction {
  std::string role;            // "first_kernel", "finish" or "whole", as the counters name steps
  std::string function;        // the mangled name, as the binary and the Code view name it
  std::vector<SampledPc> pcs;  // by offset
  std::uint64_t samples() const {
    std::uint64_t n = 0;
    for (const SampledPc& p : pcs) n += p.samples();
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
  std::string note;           // why there are none or fewer, or ""
  std::uint64_t samples() const {
    std::uint64_t n = 0;
    for (const SampledFunction& f : functions) n += f.samples();
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

}  // namespace rl
