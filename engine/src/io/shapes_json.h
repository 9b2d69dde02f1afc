// The matrix parts of a spec and of a point in a session's JSON: a spec's "shapes" and
// "reduce", a point's "rows" and "cols". All optional keys, written only where there is a
// matrix, so files without matrices read and write as before. Private to the engine.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/experiment/spec.h"

namespace rl::detail {

// Adds "shapes" ([{"rows": R, "cols": C}, ...]) and "reduce" where not the defaults.
void shapes_to_json(const ExperimentSpec& s, nlohmann::ordered_json& spec);
// Reads a spec's "shapes": objects {"rows", "cols"} or text as people type it ("4096x4096",
// "2^12x2^12", a comma list in one string). Values are checked by validate(), not here.
std::vector<MatrixShape> shapes_from_json(const nlohmann::ordered_json& v, const std::string& path);
ReduceFilter reduce_from_json(const nlohmann::ordered_json& v, const std::string& path);

// A matrix point's "rows" and "cols" (nothing for a whole-array point).
void point_shape_to_json(const PointSpec& p, nlohmann::ordered_json& point);
// Reads them into p (variant and size already read): both or neither; required for a rows or
// columns variant and refused for the others; rows x cols must be the size.
void point_shape_from_json(const nlohmann::ordered_json& obj, const std::string& path,
                           PointSpec& p);

}  // namespace rl::detail
