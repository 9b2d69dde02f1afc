// The total of a rows or columns variant's output (backend.h): the sum of its per-row (column)
// sums, computed on the host from what the kernel wrote, on every backend alike.
#include "engine/backend/backend.h"

namespace rl {

void total_from_segments(ReductionOutput& out) {
  if (out.type == DType::Int32) {
    std::int64_t total = 0;
    for (std::int64_t v : out.partials_i64) total += v;
    out.total_i64 = total;
  } else {
    double total = 0;
    for (float v : out.partials_f32) total += double(v);
    out.total_f32 = static_cast<float>(total);
  }
}

}  // namespace rl
