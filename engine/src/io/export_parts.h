// The pieces of a one-GPU session's JSON that a multi-GPU session shares (a device, a summary,
// the timing options), so both files spell them alike and read them with the same checks.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/stats.h"
#include "engine/run/device.h"
#include "engine/run/spec.h"

namespace rl {

nlohmann::ordered_json device_to_json(const DeviceInfo& d);
nlohmann::ordered_json summary_to_json(const Summary& s);
nlohmann::ordered_json timing_to_json(const TimingOptions& t);

// Throw rl::Error naming the field under `path` that is wrong.
DeviceInfo device_from_json(const nlohmann::ordered_json& v, const std::string& path);
Summary summary_from_json(const nlohmann::ordered_json& v, const std::string& path);
TimingOptions timing_from_json(const nlohmann::ordered_json& v, const std::string& path);

}  // namespace rl
