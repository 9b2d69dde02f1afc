// Which source lines a step of a block trace executes (the animation highlights the
// current step's lines). The rule is the code view's phase marks (code_view.h: every kernel
// line carries the catalog phase it belongs to) narrowed by what the step is: a tree step of
// stride S lands on the line that adds `+ S]` where the kernel spells its strides out (complete
// unrolling), else on the `for (stride ...)` loop and its barrier; a warp-level step lands on
// the warp reduction it runs (written out in the kernel, or the helper call that hides it).
// Plain C++, no Qt: the app and the tests share it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/code/code_view.h"
#include "engine/trace/trace.h"

namespace rl::code {

struct StepLines {
  std::vector<int> lines;  // indices into CodeEntry::source, kernel lines only, ascending
  std::string phase;       // the catalog phase the step belongs to ("tree: ..."), or ""
  std::string reason;      // why `lines` is empty ("" when lines were found)
};

// The lines of t.steps[step] in e (the entry of t's variant). Never guesses: where the rule
// finds no line of the kernel that runs the step (a kind it does not know, code of another
// variant, a cluster block that is not its leader when the leader hands on the sum), `lines`
// is empty and `reason` says why.
StepLines step_lines(const CodeEntry& e, const Trace& t, std::size_t step);

// The step kinds every trace may hold and the code view's phase kind each belongs to
// (scripts/code_view_sources.py: PHASE_RULES), "" for a kind without source of its own.
std::string_view mark_kind_of(std::string_view step_kind);

// Step kinds that run no line of their own, so step_lines never finds any: none today (a
// "skipped" step of the blockDim.x if-chain still runs its `if` and its __syncthreads()).
// Kept as a list so a new kind without source is named here, not silently left dark.
const std::vector<std::string>& kinds_without_source();

}  // namespace rl::code
