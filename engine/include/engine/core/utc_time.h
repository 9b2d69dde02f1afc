// The wall-clock time a session, a stream or a run records: "2026-12-05T04:29:47Z" (UTC, ISO
// 8601, seconds).
#pragma once

#include <string>

namespace rl {

std::string utc_now();

}  // namespace rl
