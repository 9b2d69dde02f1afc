// JSON of a point's counts (the "counts" object of a result in a session) and back. The reader
// takes what the writer writes and ignores the derived fields (warp_steps, lane_efficiency);
// it throws rl::Error naming the bad field under `path` ("results[3].counts.grid: ...").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/session/counts.h"

namespace rl {

nlohmann::ordered_json counts_to_json(const ModelCounts& c);
ModelCounts counts_from_json(const nlohmann::ordered_json& j, const std::string& path);

}  // namespace rl
