#include "engine/measure/verify.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "engine/catalog/catalog.h"
#include "engine/model/block_model.h"

namespace rl {

namespace {

template <typename V>
std::optional<std::size_t> first_mismatch(const std::vector<V>& a, const std::vector<V>& b) {
  if (a.size() != b.size()) return std::min(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(V)) != 0) return i;
  return std::nullopt;
}

void mark_wrong(PointResult* r, const std::string& why) {
  r->status = PointStatus::Wrong;
  r->message = why;
}
}  // namespace

std::string float_value_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

double float_tolerance(std::uint64_t n) {
  // Worst case for positive data is about (depth) * 2^-24 relative; grid-stride kernels add up
  // to n / (threads) terms sequentially. 1e-4 covers both up to 2^30 with room, and still
  // catches a dropped block or tile at the sizes the tests use.
  (void)n;
  return 1e-4;
}

void verify_point(const PointSpec& p, const InputData& input, const ReductionOutput& out,
                  bool check_against_model, PointResult* r) {
  r->status = PointStatus::Ok;
  std::optional<ReductionOutput> model;
  const VariantInfo* variant = find_variant_by_id(p.variant);
  if (variant && variant->is_segmented()) return verify_segmented_point(p, input, out, r);
  const bool sums_input = variant == nullptr || variant->sums_input;
  // A lab's total is a function of the input that only the host model gives.
  if (check_against_model || !sums_input) model = model_reduce(p, input);
  if (!sums_input && !model) {
    mark_wrong(r, "no host model to check " + p.variant + " against");
    return;
  }
  if (p.type == DType::Int32) {
    const std::int64_t exact = sums_input ? input.exact_i64() : model->total_i64;
    r->value = std::to_string(out.total_i64);
    r->expected = std::to_string(exact);
    if (out.total_i64 != exact) {
      mark_wrong(r, "total " + r->value + " differs from the " +
                        (sums_input ? "exact sum " : "host model's ") + r->expected);
      return;
    }
  } else {
    const double exact = input.exact_double();
    r->value = float_value_text(out.total_f32);
    r->abs_error = std::fabs(double(out.total_f32) - exact);
    r->rel_error = exact != 0 ? r->abs_error / std::fabs(exact) : r->abs_error;
    r->expected = float_value_text(model ? double(model->total_f32) : exact);
    if (model) {
      if (std::memcmp(&model->total_f32, &out.total_f32, sizeof(float)) != 0) {
        mark_wrong(r, "total " + r->value + " differs from the host model's " + r->expected +
                          " (same algorithm, so the bits must match)");
        return;
      }
    } else if (!(r->rel_error <= float_tolerance(p.size))) {
      mark_wrong(r, "total " + r->value + " is off the double-precision sum " +
                        float_value_text(exact) + " by " + float_value_text(r->rel_error) +
                        " (relative)");
      return;
    }
  }
  if (model && model->has_partials && out.has_partials) {
    const auto bad = p.type == DType::Int32 ? first_mismatch(out.partials_i64, model->partials_i64)
                                            : first_mismatch(out.partials_f32, model->partials_f32);
    if (bad) {
      const std::size_t i = *bad;
      std::string got = "?", want = "?";
      if (p.type == DType::Int32 && i < out.partials_i64.size() && i < model->partials_i64.size()) {
        got = std::to_string(out.partials_i64[i]);
        want = std::to_string(model->partials_i64[i]);
      } else if (i < out.partials_f32.size() && i < model->partials_f32.size()) {
        got = float_value_text(out.partials_f32[i]);
        want = float_value_text(model->partials_f32[i]);
      }
      mark_wrong(r, "block " + std::to_string(i) + "'s partial " + got +
                        " differs from the host model's " + want);
    }
  }
}

}  // namespace rl
