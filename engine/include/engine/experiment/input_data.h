// Deterministic input for a (size, type): the same bytes on every run and every machine, so
// host and GPU see identical data and a saved session can be reproduced.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/core/types.h"

namespace rl {

// int32: values in [0, 255] (the classic ladder's rand() & 0xff), so a block's tile of at most
// 1024 * 16 elements sums well inside int32, and 64-bit partials hold any N.
// float32: values in [0, 1), so float rounding shows against the double reference.
struct InputData {
  DType type = DType::Int32;
  std::vector<std::int32_t> i32;
  std::vector<float> f32;
  std::uint64_t size() const { return type == DType::Int32 ? i32.size() : f32.size(); }
  const void* data() const {
    return type == DType::Int32 ? static_cast<const void*>(i32.data())
                                : static_cast<const void*>(f32.data());
  }
  // Exact reference: int64 sum for int32, double sum (pairwise, ~exact) for float32.
  std::int64_t exact_i64() const;
  double exact_double() const;
};

// Generated in chunks of 2^22 elements (memory taken chunk by chunk too), looking at `cancel`
// between them: at 2^30 a cancel acts within a few milliseconds, not after seconds. A cancelled
// call returns an empty InputData (size() 0).
InputData make_input(std::uint64_t n, DType type, std::uint64_t seed = 0x5EED,
                     const std::atomic<bool>* cancel = nullptr);

// Element i of make_input(n, Int32, seed) for any n > i, without generating the others (the
// labs' counts walk a whole launch this way).
std::int32_t input_i32_at(std::uint64_t i, std::uint64_t seed = 0x5EED);

}  // namespace rl
