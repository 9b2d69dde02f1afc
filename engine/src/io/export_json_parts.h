// The pieces of a session's JSON (io/export.h), one value at a time, for the formats that carry
// a session's parts on their own: the run stream (io/stream.h) sends a point "as the session
// file holds it", so it is written and read by these very functions, never a copy of them.
// Private to the engine.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/run/results.h"

namespace rl::detail {

using OrderedJson = nlohmann::ordered_json;

OrderedJson device_to_json_value(const DeviceInfo& d);
OrderedJson spec_to_json_value(const ExperimentSpec& s);
OrderedJson result_to_json_value(const PointResult& r);
OrderedJson read_floor_to_json_value(const ReadFloor& f);

// Each throws rl::Error naming the field under `path` ("point.result.block_size: expected an
// integer"); results and floors are checked as a session's are (session_checks.h).
DeviceInfo device_from_json_value(const OrderedJson& v, const std::string& path);
ExperimentSpec spec_from_json_value(const OrderedJson& v, const std::string& path);
PointResult result_from_json_value(const OrderedJson& v, const std::string& path);
ReadFloor read_floor_from_json_value(const OrderedJson& v, const std::string& path);

}  // namespace rl::detail
