// Vocabulary shared by the whole engine: data types, workspaces, kernel ids (defined by the
// kernels library, kernels/ids.h, so both floors agree; no CUDA header comes with them) and their
// names in files and on the command line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <cstddef>

#include "kernels/ids.h"

namespace rl {

using kernels::DType;
using kernels::KernelId;
using kernels::Workspace;

std::string_view to_string(DType t);      // "int32", "float32"
std::string_view to_string(Workspace w);  // "global", "shared", "registers"
std::optional<DType> parse_dtype(std::string_view s);
std::optional<Workspace> parse_workspace(std::string_view s);

// A block size any variant may take: a power of two from 32 (one warp) to 1024 (CUDA's limit per
// block); each variant and device may take fewer (catalog.h, spec.h).
inline constexpr int kMinBlockSize = 32;
inline constexpr int kMaxBlockSize = 1024;
inline constexpr bool is_block_size(long long b) {
  return b >= kMinBlockSize && b <= kMaxBlockSize && (b & (b - 1)) == 0;
}
// What every refusal of such a block size says after the number.
inline constexpr const char* kBlockSizeRule = "must be a power of two from 32 to 1024";

// Bytes of one input element (both types are 4 bytes wide).
inline std::size_t dtype_size(DType) {
  return 4;
}

}  // namespace rl
