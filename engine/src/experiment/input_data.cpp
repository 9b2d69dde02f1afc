#include "engine/experiment/input_data.h"

#include <algorithm>
#include <numeric>

namespace rl {

namespace {
// splitmix64: tiny, fast and identical everywhere (std:: distributions are not portable).
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Pairwise double summation: error grows with log N, far below float's rounding.
double pairwise(const float* x, std::size_t n) {
  if (n <= 256) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
  }
  const std::size_t h = n / 2;
  return pairwise(x, h) + pairwise(x + h, n - h);
}

std::uint64_t key_of(DType type, std::uint64_t seed) {
  return splitmix64(seed ^ (type == DType::Int32 ? 0x11 : 0x22));
}
std::int32_t int32_element(std::uint64_t key, std::uint64_t i) {
  return static_cast<std::int32_t>(splitmix64(key + i) & 0xff);
}
}  // namespace

std::int32_t input_i32_at(std::uint64_t i, std::uint64_t seed) {
  return int32_element(key_of(DType::Int32, seed), i);
}

InputData make_input(std::uint64_t n, DType type, std::uint64_t seed,
                     const std::atomic<bool>* cancel) {
  constexpr std::uint64_t kChunk = std::uint64_t(1) << 22;
  InputData d;
  d.type = type;
  const std::uint64_t key = key_of(type, seed);
  // reserve() maps the memory; resize() per chunk touches (zeroes) it a chunk at a time.
  if (type == DType::Int32)
    d.i32.reserve(n);
  else
    d.f32.reserve(n);
  for (std::uint64_t begin = 0; begin < n; begin += kChunk) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return InputData{type, {}, {}};
    const std::uint64_t end = std::min(n, begin + kChunk);
    if (type == DType::Int32) {
      d.i32.resize(end);
      for (std::uint64_t i = begin; i < end; ++i) d.i32[i] = int32_element(key, i);
    } else {
      d.f32.resize(end);
      // 24 random bits / 2^24: exactly representable floats in [0, 1).
      for (std::uint64_t i = begin; i < end; ++i)
        d.f32[i] = static_cast<float>(splitmix64(key + i) >> 40) * (1.0f / 16777216.0f);
    }
  }
  return d;
}

std::int64_t InputData::exact_i64() const {
  if (type == DType::Int32) return std::accumulate(i32.begin(), i32.end(), std::int64_t(0));
  return static_cast<std::int64_t>(exact_double());
}

double InputData::exact_double() const {
  if (type == DType::Int32) return static_cast<double>(exact_i64());
  return pairwise(f32.data(), f32.size());
}

}  // namespace rl
