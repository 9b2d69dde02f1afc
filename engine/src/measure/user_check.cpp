#include "measure/user_check.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include "engine/measure/verify.h"
#include "engine/user/user_kernel.h"

namespace rl {

namespace {

struct CheckInput {
  std::string what;  // "all equal (7)"
  InputData data;
};

InputData patterned(std::uint64_t n, DType t, int pattern) {
  InputData d;
  d.type = t;
  if (t == DType::Int32) {
    d.i32.resize(n);
    for (std::uint64_t i = 0; i < n; ++i)
      d.i32[i] = pattern == 0   ? -1 - std::int32_t((i * 7) % 255)
                 : pattern == 1 ? 7
                 : pattern == 2 ? std::numeric_limits<std::int32_t>::max()
                                : std::numeric_limits<std::int32_t>::min();
  } else {
    d.f32.resize(n);
    for (std::uint64_t i = 0; i < n; ++i)
      d.f32[i] = pattern == 0 ? -float((i * 7) % 255 + 1) / 256.0f : 0.5f;
  }
  return d;
}

std::vector<CheckInput> inputs_for(std::uint64_t n, DType t) {
  std::vector<CheckInput> in;
  in.push_back({"the run's input", make_input(n, t)});
  in.push_back({"all negative", patterned(n, t, 0)});
  in.push_back({t == DType::Int32 ? "all equal (7)" : "all equal (0.5)", patterned(n, t, 1)});
  // Totals far outside int32: a block that adds in int wraps (alternating extremes would not
  // show it: their total fits, and wrapped arithmetic gets it right).
  if (t == DType::Int32) {
    in.push_back({"the int32 extremes (every value INT32_MAX)", patterned(n, t, 2)});
    in.push_back({"the int32 extremes (every value INT32_MIN)", patterned(n, t, 3)});
  }
  return in;
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// The first block whose partial differs from the host's sum of its tile, for int32 on the
// engine's plan (one block per tile of B x U elements); "" when none does or it cannot be said.
std::string first_bad_block(const PointSpec& p, const InputData& in, const ReductionOutput& out) {
  const std::uint64_t tile = std::uint64_t(p.block_size) * p.unroll;
  if (p.type != DType::Int32 || out.partials_i64.size() != (p.size + tile - 1) / tile) return {};
  for (std::size_t b = 0; b < out.partials_i64.size(); ++b) {
    std::int64_t want = 0;
    for (std::uint64_t i = b * tile; i < std::min(p.size, (b + 1) * tile); ++i) want += in.i32[i];
    if (out.partials_i64[b] != want)
      return "; block " + std::to_string(b) + " is the first whose partial differs (expected " +
             std::to_string(want) + ", got " + std::to_string(out.partials_i64[b]) + ")";
  }
  return {};
}

std::string wrong_total(const PointSpec& p, const CheckInput& in, const ReductionOutput& out) {
  const std::string where = p.variant + " is wrong at N=" + std::to_string(p.size) + " " +
                            std::string(to_string(p.type)) + ", " + in.what + ": ";
  if (p.type == DType::Int32) {
    const std::int64_t want = in.data.exact_i64();
    if (out.total_i64 == want) return {};
    return where + "expected " + std::to_string(want) + ", got " + std::to_string(out.total_i64) +
           first_bad_block(p, in.data, out);
  }
  const double want = in.data.exact_double();
  double scale = 0;
  for (float v : in.data.f32) scale += std::fabs(v);
  const double err = std::fabs(double(out.total_f32) - want);
  const double allowed = float_tolerance(p.size) * std::max(scale, 1e-30);
  if (std::isfinite(out.total_f32) && err <= allowed) return {};
  return where + "expected " + number(want) + " (a double sum), got " + number(out.total_f32) +
         ", off by " + number(err) + " where " + number(allowed) + " is allowed";
}

}  // namespace

std::string check_user_point(Backend& backend, const PointSpec& p,
                             const std::atomic<bool>* cancel) {
  std::vector<std::uint64_t> sizes = user_check_sizes();
  if (p.size <= (std::uint64_t(1) << 24) &&
      std::find(sizes.begin(), sizes.end(), p.size) == sizes.end())
    sizes.push_back(p.size);
  std::string wrong;
  for (std::uint64_t n : sizes) {
    // All of a size's inputs alive at once: the backend skips an upload when the data pointer,
    // size and type are those it uploaded last.
    const std::vector<CheckInput> inputs = inputs_for(n, p.type);
    PointSpec q = p;
    q.size = n;
    for (const CheckInput& in : inputs) {
      if (cancel && cancel->load()) break;
      backend.prepare(q, in.data);
      backend.run_sample(false);
      wrong = wrong_total(q, in, backend.read_output());
      if (!wrong.empty()) break;
    }
    backend.release();
    if (!wrong.empty() || (cancel && cancel->load())) break;
  }
  return wrong;
}

}  // namespace rl
