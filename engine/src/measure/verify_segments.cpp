// Verification of the rows and columns variants (verify.h verify_segmented_point): each sum
// against the host's reference, then the total.
#include <algorithm>
#include <cmath>

#include "engine/catalog/catalog.h"
#include "engine/measure/verify.h"
#include "engine/model/block_model.h"

namespace rl {

namespace {

void mark_wrong(PointResult* r, const std::string& why) {
  r->status = PointStatus::Wrong;
  r->message = why;
}

std::string int_text(double v) {
  return std::to_string(static_cast<std::int64_t>(v));
}

}  // namespace

double segment_float_tolerance(std::uint64_t length) {
  const double sequential = double(length > 0 ? length - 1 : 0) * std::ldexp(1.0, -24);
  return std::clamp(sequential, 1e-6, 1e-2);
}

void verify_segmented_point(const PointSpec& p, const InputData& input, const ReductionOutput& out,
                            PointResult* r) {
  r->status = PointStatus::Ok;
  const VariantInfo* v = find_variant_by_id(p.variant);
  const bool columns = v && v->reduces == Reduces::Columns;
  const std::string what = columns ? "column" : "row";
  const std::uint64_t length = columns ? p.rows : p.cols;  // elements in each sum
  const std::vector<double> want = exact_segment_sums(p, input);
  const bool i32 = p.type == DType::Int32;
  if (out.partial_count() != want.size()) {
    mark_wrong(r, std::to_string(out.partial_count()) + " " + what + " sums, expected " +
                      std::to_string(want.size()) + " (" + format_shape(p.rows, p.cols) + ")");
    return;
  }
  const double tol = segment_float_tolerance(length);
  std::uint64_t wrong = 0;
  std::string first;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double got = i32 ? double(out.partials_i64[i]) : double(out.partials_f32[i]);
    const bool ok = i32 ? out.partials_i64[i] == static_cast<std::int64_t>(want[i])
                        : std::fabs(got - want[i]) <= tol * std::fabs(want[i]);
    if (ok) continue;
    if (wrong++ == 0)
      first = what + " " + std::to_string(i) + "'s sum " +
              (i32 ? std::to_string(out.partials_i64[i]) + " differs from the exact " +
                         int_text(want[i])
                   : float_value_text(got) + " is off the double-precision " +
                         float_value_text(want[i]) + " by more than " + float_value_text(tol) +
                         " (relative, for " + std::to_string(length) + " elements)");
  }
  // The total: the sums' sum (total_from_segments), against the whole input's.
  if (i32) {
    r->value = std::to_string(out.total_i64);
    r->expected = std::to_string(input.exact_i64());
  } else {
    const double exact = input.exact_double();
    r->value = float_value_text(out.total_f32);
    r->expected = float_value_text(exact);
    r->abs_error = std::fabs(double(out.total_f32) - exact);
    r->rel_error = exact != 0 ? r->abs_error / std::fabs(exact) : r->abs_error;
  }
  if (wrong) {
    mark_wrong(r, first + "; " + std::to_string(wrong) + " of " + std::to_string(want.size()) +
                      " " + what + "s wrong");
    return;
  }
  const bool total_ok = i32 ? out.total_i64 == input.exact_i64() : r->rel_error <= tol;
  if (!total_ok)
    mark_wrong(r, "total " + r->value + " differs from the " +
                      (i32 ? "exact sum " : "double-precision sum ") + r->expected);
}

}  // namespace rl
