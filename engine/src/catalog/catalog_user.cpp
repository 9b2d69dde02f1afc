// The user kernels beside the built-in table. Entries live as long as the process: a
// VariantInfo pointer handed out stays valid when its name is registered again with a new source.
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "catalog/catalog_user.h"

namespace rl {

namespace {

struct UserEntry {
  VariantInfo info;
  UserKernelSource source;
};

struct UserTable {
  std::mutex mutex;
  std::deque<UserEntry> entries;                                 // never erased
  std::map<std::string, const UserEntry*, std::less<>> by_name;  // the latest of each name
};

UserTable& table() {
  static UserTable t;
  return t;
}

VariantInfo user_variant_info(const UserKernelSource& k) {
  VariantInfo v;
  v.id = k.name;
  v.kernel = KernelId::User;
  v.display_name = k.name;
  v.family = VariantFamily::User;
  v.explanation = k.started_from.empty()
                      ? "A kernel you wrote."
                      : "A kernel you wrote, starting from " + k.started_from + ".";
  v.phases = {"your kernel: one partial per block", "finish: one block sums the partials"};
  take_kernel_accepts(v);
  v.default_unroll = 1;
  v.seed_unroll = 1;
  v.has_block_model = false;  // only the GPU runs it; its total is checked against the input
  v.sums_input = true;
  return v;
}

}  // namespace

const VariantInfo* add_user_variant(const UserKernelSource& k) {
  UserTable& t = table();
  const std::lock_guard lock(t.mutex);
  if (auto it = t.by_name.find(k.name); it != t.by_name.end() && it->second->source == k)
    return &it->second->info;
  t.entries.push_back(UserEntry{user_variant_info(k), k});
  t.by_name[k.name] = &t.entries.back();
  return &t.entries.back().info;
}

const VariantInfo* find_user_variant(std::string_view id) {
  UserTable& t = table();
  const std::lock_guard lock(t.mutex);
  const auto it = t.by_name.find(id);
  return it == t.by_name.end() ? nullptr : &it->second->info;
}

std::optional<UserKernelSource> user_variant_source(std::string_view id) {
  UserTable& t = table();
  const std::lock_guard lock(t.mutex);
  const auto it = t.by_name.find(id);
  if (it == t.by_name.end()) return std::nullopt;
  return it->second->source;
}

std::vector<std::string> user_variant_ids() {
  UserTable& t = table();
  const std::lock_guard lock(t.mutex);
  std::vector<std::string> ids;
  for (const auto& [name, entry] : t.by_name) ids.push_back(name);
  return ids;
}

}  // namespace rl
