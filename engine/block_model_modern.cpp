// Scaffolding until the modern kernels land.
#include "block_model.h"

namespace rl {
std::optional<ReductionOutput> model_reduce_modern(const PointSpec&, const InputData&) {
  return std::nullopt;
}
}  // namespace rl
