// Compile-time dispatch helpers: turn the runtime (type, workspace, unroll, block size) of a
// launch into the template arguments of a kernel instantiation.
#pragma once

#include <cstdint>
#include <type_traits>

#include "launch.h"

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
    case Workspace::Global: return f(std::integral_constant<Workspace, Workspace::Global>{});
    case Workspace::Shared: return f(std::integral_constant<Workspace, Workspace::Shared>{});
    default: return cudaErrorInvalidValue;
  }
}

// Unroll factors every ladder kernel is built for: 1 and the seed's 2, 4, 8, plus 16.
template <typename F>
cudaError_t with_unroll(int u, F&& f) {
  switch (u) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: return cudaErrorInvalidValue;
  }
}

// Block sizes for kernels that take the block size as a template parameter.
template <typename F>
cudaError_t with_block_size(int b, F&& f) {
  switch (b) {
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
    case 128: return f(std::integral_constant<int, 128>{});
    case 256: return f(std::integral_constant<int, 256>{});
    case 512: return f(std::integral_constant<int, 512>{});
    case 1024: return f(std::integral_constant<int, 1024>{});
    default: return cudaErrorInvalidValue;
  }
}

inline bool is_pow2_block(int b) { return b >= 32 && b <= 1024 && (b & (b - 1)) == 0; }

}  // namespace rl::kernels::detail
