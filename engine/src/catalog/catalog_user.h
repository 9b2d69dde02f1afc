// The catalog's private helpers shared with its table of user kernels (catalog_user.cpp).
#pragma once

#include <string_view>

#include "engine/catalog/catalog.h"

namespace rl {

// Block sizes, unroll factors, types and workspaces of v.kernel, from kernels/accepts.h.
void take_kernel_accepts(VariantInfo& v);

// The registered user kernel of this id, or null.
const VariantInfo* find_user_variant(std::string_view id);

}  // namespace rl
