// The pieces of a session's JSON (io/export.h), one value at a time, for the formats that carry
// a session's parts on their own: the run stream (process/stream.h) sends a point "as the session
// file holds it", and a multi-GPU session (export_multi*.cpp) spells its devices, summaries and
// timing as a one-GPU session does; both write and read them with these very functions, never
// a copy of them. Private to the engine.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/session/results.h"

namespace rl::detail {

using OrderedJson = nlohmann::ordered_json;

// JSON has no NaN or infinity; they are written as strings ("nan", "inf", "-inf") so that a
// float error of NaN survives. Every writer of a session's numbers goes through these.
OrderedJson json_number(double d);
OrderedJson json_numbers(const std::vector<double>& values);

OrderedJson device_to_json_value(const DeviceInfo& d);
OrderedJson spec_to_json_value(const ExperimentSpec& s);
// s.results[i], with its derived numbers (session/metrics.h point_rates) for readers.
OrderedJson result_to_json_value(const Session& s, std::size_t i);
OrderedJson read_floor_to_json_value(const ReadFloor& f);
OrderedJson summary_to_json_value(const Summary& s);
OrderedJson timing_to_json_value(const TimingOptions& t);
// A link between two GPUs (device/links.h), in a multi-GPU session and in `devices --json`.
OrderedJson link_to_json_value(const PeerLink& l);

// Each throws rl::Error naming the field under `path` ("point.result.block_size: expected an
// integer"); results and floors are checked as a session's are (session_checks.h).
DeviceInfo device_from_json_value(const OrderedJson& v, const std::string& path);
ExperimentSpec spec_from_json_value(const OrderedJson& v, const std::string& path);
PointResult result_from_json_value(const OrderedJson& v, const std::string& path);
ReadFloor read_floor_from_json_value(const OrderedJson& v, const std::string& path);
Summary summary_from_json_value(const OrderedJson& v, const std::string& path);
TimingOptions timing_from_json_value(const OrderedJson& v, const std::string& path);
// A spec's user kernels, each checked against the contract and registered with the catalog
// (engine/user/user_kernel.h): a session reads them before the points that name them.
std::vector<UserKernelSource> user_kernels_from_json_value(const OrderedJson& v,
                                                           const std::string& path);
// A result's kernels as the CUDA runtime saw them (device/kernel_occupancy.h); later in schema 1,
// only where measured.
OrderedJson occupancy_to_json_value(const std::vector<KernelOccupancy>& kernels);
std::vector<KernelOccupancy> occupancy_from_json_value(const OrderedJson& v,
                                                       const std::string& path);
// A measured warp timeline (io/timeline_json.h), alone and in a session's "timelines". Reading
// checks it whole (session/timeline_analysis.h timeline_problems).
OrderedJson timeline_to_json_value(const MeasuredTimeline& t);
MeasuredTimeline timeline_from_json_value(const OrderedJson& v, const std::string& path);
// The NVLink fields came later (files before them lack them): absent reads as "not asked".
PeerLink link_from_json_value(const OrderedJson& v, const std::string& path);

}  // namespace rl::detail
