// The user kernels a spec names, registered with the catalog after the contract's checks.
#include <cctype>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/user/user_kernel.h"

namespace rl {

std::string register_user_kernel(const UserKernelSource& k) {
  const std::vector<std::string> errors = check_user_kernel(k);
  if (!errors.empty()) return errors.front();
  add_user_variant(k);
  return {};
}

bool is_user_variant(std::string_view id) {
  const VariantInfo* v = find_variant_by_id(id);
  return v && v->family == VariantFamily::User;
}

std::string starter_kernel_file(std::string_view variant_id) {
  const VariantInfo* v = find_variant_by_id(variant_id);
  if (!v) return "interleaved.cu";
  switch (v->kernel) {
    case KernelId::Neighbored:
      return "neighbored.cu";
    case KernelId::NeighboredLess:
    case KernelId::Interleaved:
      return "interleaved.cu";
    case KernelId::Unroll:
      return "unroll.cu";
    case KernelId::UnrollWarpVolatile:
    case KernelId::UnrollWarpSync:
    case KernelId::CompleteUnrollWarpVolatile:
    case KernelId::CompleteUnrollWarpSync:
    case KernelId::CompleteUnrollVolatile:
    case KernelId::CompleteUnrollSync:
      return "unroll_warp.cu";
    default:
      return "warp_shuffle.cu";  // past the classic ladder: registers and shuffles
  }
}

std::string starter_rung_name(std::string_view variant_id) {
  const VariantInfo* v = find_variant_by_id(variant_id);
  std::string base = v ? (v->seed_name.empty() ? v->id : v->seed_name) : std::string(variant_id);
  if (base.rfind("reduce", 0) == 0) base = base.substr(6);
  std::string name = "my";
  bool upper = true;
  for (char c : base) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

std::vector<std::uint64_t> user_check_sizes() {
  return {1, 31, 1023, 1025, (std::uint64_t(1) << 20) + 17};
}

}  // namespace rl
