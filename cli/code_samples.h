// `reductionlab-cli code --samples SESSION`: the per-line metrics (engine/code/line_metrics.h) of
// a point a run with --line-samples or --line-counts measured: its SASS or source with each
// line's share of the kernel's warp samples and its largest stall, and/or its executed
// instructions and thread efficiency, or (alone) a summary of where the warps waited and what
// ran most.
#pragma once

#include <string>

#include "engine/code/code_view.h"

namespace rlcli {

enum class SampledText { Summary, Sass, Source };

// Throws UsageError for a session that cannot be read or holds no samples for the entry.
void print_line_samples(const rl::code::CodeEntry& e, const std::string& session_path,
                        const std::string& size, SampledText what);

}  // namespace rlcli
