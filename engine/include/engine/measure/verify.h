// Checks a point's output against the host: int32 exactly (total and every partial), float32
// bit for bit against the block model where the variant has one, else against a double
// reference within a bound. Fills status, message, value, expected and the float error.
#pragma once

#include <cstdint>
#include <string>
#include "engine/backend/backend.h"
#include "engine/session/results.h"

#include "engine/backend/backend.h"
#include "engine/session/results.h"

namespace rl {

void verify_point(const PointSpec& p, const InputData& input, const ReductionOutput& out,
                  bool check_against_model, PointResult* r);

// Relative error allowed for float32 totals of variants without a bit-exact model: 2^-24 per
// level of a summation tree plus per-thread sequential sums, with margin. Data are in [0, 1).
double float_tolerance(std::uint64_t n);

// A float value as a result shows it (value, expected, partials): 9 significant digits, enough
// to tell any two float32 apart.
std::string float_value_text(double v);

}  // namespace rl
