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

// The rows and columns variants (verify_segments.cpp; verify_point hands them over): every row's
// (column's) sum against the host's, int32 exactly, float32 within segment_float_tolerance of
// its length; the message names the first wrong row (column) and how many are wrong. Then the
// total (the sums' sum) the same way.
void verify_segmented_point(const PointSpec& p, const InputData& input, const ReductionOutput& out,
                            PointResult* r);

// Relative error allowed for a float32 sum of `length` values in [0, 1) added in any order:
// the bound of a sequential float sum, (length - 1) x 2^-24, at least 1e-6 and at most 1e-2 (a
// dropped element of a row of 100 is still 1e-2 off).
double segment_float_tolerance(std::uint64_t length);

// A float value as a result shows it (value, expected, partials): 9 significant digits, enough
// to tell any two float32 apart.
std::string float_value_text(double v);

}  // namespace rl
