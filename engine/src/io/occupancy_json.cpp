// The "occupancy" array of a result in a JSON session (device/kernel_occupancy.h): what the CUDA
// runtime said of each kernel of the point. Read with the same care as any file a person may
// hand the app: every field checked, sizes bounded.
#include "engine/core/error.h"
#include "io/export_json_parts.h"
#include "io/json_read.h"

namespace rl::detail {

namespace {

constexpr std::size_t kMaxKernels = 16;  // a point launches one to a few

using json::fail;

std::uint64_t count(const OrderedJson& obj, const char* key, const std::string& path,
                    std::uint64_t max) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(json::join(path, key), "missing");
  if (!it->is_number_integer() || it->get<long long>() < 0 ||
      std::uint64_t(it->get<long long>()) > max)
    fail(path + "." + key, "expected an integer 0.." + std::to_string(max));
  return std::uint64_t(it->get<long long>());
}

std::string text(const OrderedJson& obj, const char* key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(json::join(path, key), "missing");
  if (!it->is_string()) fail(path + "." + key, "expected a string");
  return it->get<std::string>();
}

}  // namespace

OrderedJson occupancy_to_json_value(const std::vector<KernelOccupancy>& kernels) {
  OrderedJson out = OrderedJson::array();
  for (const KernelOccupancy& k : kernels)
    out.push_back({{"role", k.role},
                   {"function", k.function},
                   {"grid", k.grid},
                   {"block", k.block},
                   {"dynamic_shared", k.dynamic_shared},
                   {"registers", k.registers},
                   {"static_shared", k.static_shared},
                   {"local_bytes", k.local_bytes},
                   {"blocks_per_sm", k.blocks_per_sm},
                   {"max_warps_per_sm", k.max_warps_per_sm}});
  return out;
}

std::vector<KernelOccupancy> occupancy_from_json_value(const OrderedJson& v,
                                                       const std::string& path) {
  if (!v.is_array()) fail(path, "expected an array");
  if (v.size() > kMaxKernels) fail(path, "more than 16 kernels");
  std::vector<KernelOccupancy> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    const OrderedJson& j = v[i];
    if (!j.is_object()) fail(at, "expected an object");
    KernelOccupancy k;
    k.role = text(j, "role", at);
    if (k.role.empty()) fail(at + ".role", "empty");
    k.function = text(j, "function", at);
    k.grid = unsigned(count(j, "grid", at, 0xffffffffu));
    k.block = int(count(j, "block", at, 1024));
    k.dynamic_shared = count(j, "dynamic_shared", at, 1u << 30);
    k.registers = int(count(j, "registers", at, 255));
    k.static_shared = count(j, "static_shared", at, 1u << 30);
    k.local_bytes = count(j, "local_bytes", at, 1u << 30);
    k.blocks_per_sm = int(count(j, "blocks_per_sm", at, 1024));
    k.max_warps_per_sm = int(count(j, "max_warps_per_sm", at, 1024));
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace rl::detail
