// Per-line metrics: a point's warp samples and executed-instruction counts
// (session/line_samples.h) placed on the Code view's SASS lines by offset and on its source
// lines through the build's line table, with what could not be placed counted, never dropped
// silently. Plain C++: the CLI's `code --samples`, the app's Code tab and the tests share it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/code/code_view.h"
#include "engine/session/line_samples.h"
#include "engine/session/results.h"

namespace rl::code {

struct ReasonSamples {
  std::uint64_t total = 0;
  std::vector<std::pair<std::string, std::uint64_t>> reasons;  // largest first once sorted
  // The counts of the instructions placed here (summed: a line's thread efficiency is its
  // thread instructions over 32 times its warp instructions, not an average of its PCs').
  std::uint64_t inst_executed = 0, thread_inst_executed = 0;
  double thread_efficiency() const {  // 0..1; 0 where nothing was counted
    return rl::thread_efficiency(inst_executed, thread_inst_executed);
  }
  void add(const SampledPc& pc);
  void add(const ReasonSamples& other);
  void sort();
  std::uint64_t reason(std::string_view name) const;
  // The largest reason a warp was waiting for ("selected", issuing, is not a wait); "" if none.
  std::string top_stall() const;
};

struct LineMetrics {
  std::string arch;                   // the SASS the samples were placed on
  std::vector<ReasonSamples> sass;    // one per line of the entry's SASS text for arch
  std::vector<ReasonSamples> source;  // one per line of entry.source
  ReasonSamples kernel;               // every sample in the entry's own functions
  std::uint64_t other_functions = 0;  // in kernels the entry does not show (the finishing pass)
  std::uint64_t unplaced = 0;         // at offsets the entry's SASS has no instruction for
  std::uint64_t off_source = 0;       // on a SASS line with no source line shown
  // The same three for the executed warp instructions, where the point has counts.
  std::uint64_t other_functions_inst = 0, unplaced_inst = 0, off_source_inst = 0;
  bool sampled = false;            // the point has warp samples (PC sampling)
  bool counted = false;            // the point has executed-instruction counts
  std::vector<std::string> notes;  // what could not be placed, and why
  bool empty() const { return kernel.total == 0 && kernel.inst_executed == 0; }
};

// The samples and counts of `s` on entry `e`. Empty, with a note, when the entry has no SASS for
// their architecture or they have none of its functions.
LineMetrics line_metrics(const CodeEntry& e, const PointLineSamples& s);

// The point of `session` that matches the resolved query and carries line samples: at `size`
// when given, else the largest N. nullptr when there is none.
const PointResult* sampled_point(const Session& session, const CodeQuery& resolved,
                                 std::optional<std::uint64_t> size = std::nullopt);

// "37.2% barrier": a line's share of the kernel's samples and its largest stall; "" for none.
std::string line_note(const ReasonSamples& line, std::uint64_t kernel_total);

// A count in at most 5 characters: "812", "1.2M", "12.3K", "412G"; "" for 0.
std::string short_count(std::uint64_t n);
// "1.2M inst, 50% threads": a line's executed warp instructions and thread efficiency; "" for
// a line that executed none.
std::string count_note(const ReasonSamples& line);

}  // namespace rl::code
