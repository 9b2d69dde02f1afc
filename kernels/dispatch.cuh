// Compile-time dispatch helpers: turn the runtime (type, workspace, unroll, block size) of a
// launch into the template arguments of a kernel instantiation.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/accepts.h"
#include "kernels/launch.h"

namespace rl::kernels::detail {

// std::type_identity is C++20; device code is C++17.
template <typename T>
struct type_tag {
  using type = T;
};

template <typename F>
cudaError_t with_type(DType t, F&& f) {
  if (t == DType::Int32) return f(type_tag<int32_t>{});
  return f(type_tag<float>{});
}

template <typename F>
cudaError_t with_workspace(Workspace w, F&& f) {
  switch (w) {
    case Workspace::Global:
      return f(std::integral_constant<Workspace, Workspace::Global>{});
    case Workspace::Shared:
      return f(std::integral_constant<Workspace, Workspace::Shared>{});
    default:
      return cudaErrorInvalidValue;
  }
}

// Dispatches a runtime power of two in [Min, Max] to f(std::integral_constant<int, v>), or
// returns cudaErrorInvalidValue: the one place that turns block sizes, unroll factors and vector
// counts into template arguments.
template <int Min, int Max, typename F>
cudaError_t with_pow2(int v, F&& f) {
  if constexpr (Min > Max) {
    return cudaErrorInvalidValue;
  } else {
    if (v == Min) return f(std::integral_constant<int, Min>{});
    return with_pow2<Min * 2, Max>(v, std::forward<F>(f));
  }
}

// Unroll factors the tiled kernels are instantiated for: 1 and the classic ladder's 2, 4, 8, plus
// 16. Each family static_asserts that this covers its rows of kernels/accepts.h.
inline constexpr Pow2Range kUnrollBuilt{1, 16};
template <typename F>
cudaError_t with_unroll(int u, F&& f) {
  return with_pow2<kUnrollBuilt.min, kUnrollBuilt.max>(u, std::forward<F>(f));
}

// Block sizes for kernels that take the block size as a template parameter.
inline constexpr Pow2Range kBlockBuilt{32, 1024};
template <typename F>
cudaError_t with_block_size(int b, F&& f) {
  return with_pow2<kBlockBuilt.min, kBlockBuilt.max>(b, std::forward<F>(f));
}

inline bool is_pow2_block(int b) {
  return kBlockBuilt.contains(b);
}

// Whether with_unroll and with_block_size instantiate everything kernel k is listed for.
constexpr bool dispatch_covers(KernelId k) {
  return kUnrollBuilt.covers(accepts(k).unroll_factors) &&
         kBlockBuilt.covers(accepts(k).block_sizes);
}

}  // namespace rl::kernels::detail
