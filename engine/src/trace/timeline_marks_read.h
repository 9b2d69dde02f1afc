// Reading the warp records the GPU wrote (kernels/timeline.h) into marks (session/timeline.h):
// the mark codes of kernels/include/kernels/timeline_marks.cuh named, and each mark's 32-bit
// clock and %globaltimer words widened against the warp's full 64-bit start.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/session/timeline.h"
#include "kernels/timeline.h"

namespace rl {

// user_phases: the names of rl_phase() marks by their rl_tl_name_hash(); a hash not in it reads
// as "phase #<hash>". Blocks come in slot order, warps by index.
std::vector<BlockTimeline> blocks_from_records(const std::vector<kernels::WarpMarksRecord>& records,
                                               unsigned warps_per_block,
                                               const std::map<unsigned, std::string>& user_phases);

}  // namespace rl
