// Line counts: how many instructions each SASS and source line of a point's kernels executed,
// and with how many of a warp's 32 threads (thread efficiency: where the lanes of a divergent
// branch sat out). Exact counts from CUPTI's SASS metrics, which patch the kernel's code with
// counters of their own; they go into the point's PointLineSamples beside any samples, per
// (function, PC offset). No time ever comes from a counted launch.
//
// One launch step per process, launched before anything else. Measured on the H200 with CUDA
// 13.0's CUPTI and driver 580: the SASS metrics return records for the first kernel a process
// launches after enabling them, and only when no other kernel ran in that process before it:
// another kernel first, a cudaMemset of 8 KiB or more (the driver runs those as a kernel) or a
// device-to-device copy, before the range or inside it, and nothing at all comes back; a second
// kernel inside the range is not counted either. Host-to-device copies and allocations do not
// disturb it. So each step is counted by a worker process of its own (process/worker.h,
// `--count-point`), which uploads the point's input with host-to-device copies only, and the
// supervisor (process/supervisor.h) merges the steps into the point. The finishing pass is counted
// over partials of zero uploaded the same way: its loop and tree (kernels/finish.cu) run the
// same instructions whatever the values.
//
// Not in one process with PC sampling (line_sample_pass.h) or the counters (counter_pass.h):
// a context that ever had PC sampling returns no SASS records, and the profiler would count the
// instrumentation too. A run takes one of the three (runner.h kCountersOrLineSamples).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/experiment/spec.h"
#include "engine/session/line_samples.h"

namespace rl {

struct InputData;

// What counting one launch step gave.
struct CountedStep {
  int steps = 0;                           // launch steps of the point (1, or 2 with a finish)
  std::vector<SampledFunction> functions;  // the counted function, its role set (may be empty)
  std::string arch;                        // "sm_90": the SASS the offsets belong to
  std::uint64_t dropped = 0;               // records CUPTI dropped
  int kernels_in_step = 0;  // kernels the step launches (CUB's call: two), 0: unknown
  std::string note;         // why nothing or less was counted, or ""
};

// Counts launch step `step` (0: the first kernel over `input`, 1: the finishing pass, which
// ignores it) of point p on CUDA
// device `device`, in this process, which must not have launched a kernel before (see the top).
// Never throws for a counting problem: the note says why (no CUPTI, not permitted, counted in
// this process before); throws rl::Error for a CUDA failure, naming the call and the point.
CountedStep count_launch_step(int device, const PointSpec& p, const InputData& input, int step);

// Merges one counted step into a point's line samples: its functions (add_line_counts), the
// arch, counted_launches (1 once any step counted), and its note appended to count_note.
void merge_counted_step(PointLineSamples& into, const CountedStep& step);

// Adds the counts of `counted` to `into`, matching functions by (role, function) and PCs by
// offset: counts add up, samples are kept, and a function or PC `into` lacks is added (a PC that
// executed but was never sampled); each function's PCs stay by offset.
void add_line_counts(std::vector<SampledFunction>& into,
                     const std::vector<SampledFunction>& counted);

// The worker's reply for one counted step, one line of JSON, and its reader (throws rl::Error
// naming the bad field).
std::string counted_step_to_json(const CountedStep& s);
CountedStep counted_step_from_json(const std::string& text);

}  // namespace rl
