// Variants past the classic ladder (modern kernels and CUB references) are listed in
// catalog_modern.cpp.
#pragma once

#include <vector>

#include "engine/catalog/catalog.h"

namespace rl {
void append_modern_variants(std::vector<VariantInfo>& out);
}  // namespace rl
