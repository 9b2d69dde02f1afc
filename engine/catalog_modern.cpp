// Scaffolding until the modern kernels land: no variants past the seed yet.
#include "catalog_modern.h"

namespace rl {
void append_modern_variants(std::vector<VariantInfo>&) {}
}  // namespace rl
