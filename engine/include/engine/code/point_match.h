// Which point of a session the Code view's shown instantiation stands for: the same variant,
// type, unroll factor, workspace and block size, carrying what the caller needs (line samples,
// the runtime's occupancy). One rule for every per-point thing the view shows.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "engine/code/code_view.h"
#include "engine/session/results.h"

namespace rl::code {

// The point of `session` that matches the resolved query and for which `has` holds: at `size`
// when given, else the largest N. nullptr when there is none.
const PointResult* matching_point(const Session& session, const CodeQuery& resolved,
                                  const std::function<bool(const PointResult&)>& has,
                                  std::optional<std::uint64_t> size = std::nullopt);

// The matching point with the CUDA runtime's occupancy (device/kernel_occupancy.h), largest N.
const PointResult* occupancy_point(const Session& session, const CodeQuery& resolved);

}  // namespace rl::code
