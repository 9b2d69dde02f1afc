#include "engine/experiment/multi_spec.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/device/device.h"

namespace rl {

namespace {

struct ExchangeName {
  Exchange exchange;
  const char* id;
  const char* description;
};

constexpr ExchangeName kExchanges[] = {
    {Exchange::NcclAllReduce, "nccl_allreduce",
     "each GPU reduces its shard, then ncclAllReduce sums the partials: every GPU holds the total"},
    {Exchange::NcclReduce, "nccl_reduce",
     "each GPU reduces its shard, then ncclReduce sums the partials on the root"},
    {Exchange::GatherShards, "gather_shards",
     "naive: every shard is copied to the root (peer copies), which reduces the whole input"},
    {Exchange::PeerPartials, "peer_partials",
     "naive: each GPU reduces its shard, the partials are copied to the root (peer copies) and "
     "the root adds them"},
};

const ExchangeName& entry(Exchange e) {
  for (const ExchangeName& n : kExchanges)
    if (n.exchange == e) return n;
  return kExchanges[0];
}

std::string gigabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", double(bytes) / 1e9);
  return buf;
}

// Device memory a GPU needs for its part of a point: its shard (the root: the whole input when
// the shards are gathered), a few partials, the L2 flush buffer, and room for NCCL's own
// buffers and the kernels' scratch.
std::uint64_t bytes_needed(std::uint64_t elements, std::size_t l2_bytes) {
  constexpr std::uint64_t kSlack = std::uint64_t(256) << 20;
  return elements * 4 + 2 * std::uint64_t(l2_bytes) + kSlack;
}

const DeviceInfo* find_gpu(const std::vector<DeviceInfo>& gpus, int index) {
  for (const DeviceInfo& d : gpus)
    if (d.index == index) return &d;
  return nullptr;
}

// The one-GPU validation of the local reduction's variant, shape, types, sizes and timing
// (engine/experiment/spec.h), its device memory check left to check_memory (shards, not N).
void check_local(const MultiSpec& s, const DeviceInfo& root, std::vector<std::string>& errors) {
  ExperimentSpec one;
  one.variants = {s.variant};
  one.workspaces = {s.workspace};
  one.block_sizes = {s.block_size};
  one.unroll_factors = {s.unroll};
  one.sizes = s.sizes;
  one.types = s.types;
  one.timing = s.timing;
  one.baseline = s.variant;
  const VariantInfo* v = find_variant_by_id(s.variant);
  if (v && v->block_sizes.empty()) one.block_sizes = {1024};  // the variant picks its own
  DeviceInfo no_memory_check = root;
  no_memory_check.total_memory = 0;
  for (const std::string& m : validate(one, &no_memory_check)) errors.push_back(m);
  if (v && v->kernel == KernelId::EpochPass)
    errors.push_back(
        "variant epoch_pass: it keeps its total in its own scratch, read by the host, while a "
        "multi-GPU run exchanges each GPU's total where the kernel wrote it; use single_pass");
  if (s.workspace == Workspace::Global)
    errors.push_back(
        "workspace global: a multi-GPU run keeps every shard in place across samples, and the "
        "global workspace reduces in place (overwrites its input); use shared or registers");
}

void check_memory(const MultiSpec& s, const std::vector<DeviceInfo>& gpus,
                  std::vector<std::string>& errors) {
  const bool gathers = std::count(s.exchanges.begin(), s.exchanges.end(), Exchange::GatherShards);
  for (std::uint64_t n : s.sizes) {
    for (int count : effective_gpu_counts(s)) {
      if (n < std::uint64_t(count)) continue;  // reported by validate()
      const std::vector<std::uint64_t> shards = shard_sizes(n, count);
      for (int rank = 0; rank < count; ++rank) {
        const DeviceInfo* d = find_gpu(gpus, s.devices[rank]);
        if (!d || d->total_memory == 0) continue;
        const std::uint64_t elements = rank == 0 && gathers ? n : shards[rank];
        const std::uint64_t need = bytes_needed(elements, d->l2_bytes);
        if (need > d->total_memory)
          errors.push_back(
              "size " + format_size(n) + " over " + std::to_string(count) +
              " GPU(s): cuda:" + std::to_string(d->index) + " needs " + gigabytes(need) +
              (rank == 0 && gathers ? " (the whole input, "
                                      "gather_shards)"
                                    : " (its shard)") +
              "; " + gigabytes(d->total_memory) + " total, " + gigabytes(d->free_memory) + " free");
      }
    }
  }
}

}  // namespace

std::string_view to_string(Exchange e) {
  return entry(e).id;
}

std::optional<Exchange> parse_exchange(std::string_view s) {
  for (const ExchangeName& n : kExchanges)
    if (s == n.id) return n.exchange;
  return std::nullopt;
}

std::vector<Exchange> parse_exchange_list(std::string_view text) {
  if (text == "all") return all_exchanges();
  std::vector<Exchange> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);  // "a, b" as "a,b"
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    const auto e = parse_exchange(item);
    if (!e)
      throw Error(echo(std::string(item)) +
                  ": unknown exchange (expected nccl_allreduce, nccl_reduce, gather_shards, "
                  "peer_partials or all)");
    if (std::find(out.begin(), out.end(), *e) == out.end()) out.push_back(*e);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

const std::vector<Exchange>& all_exchanges() {
  static const std::vector<Exchange> all{Exchange::NcclAllReduce, Exchange::NcclReduce,
                                         Exchange::GatherShards, Exchange::PeerPartials};
  return all;
}

bool uses_nccl(Exchange e) {
  return e == Exchange::NcclAllReduce || e == Exchange::NcclReduce;
}

std::string_view describe(Exchange e) {
  return entry(e).description;
}

std::string MultiPointSpec::label() const {
  return std::string(to_string(exchange)) + " G=" + std::to_string(gpu_count) +
         " N=" + std::to_string(size) + " " + std::string(rl::to_string(type));
}

std::vector<int> effective_gpu_counts(const MultiSpec& spec) {
  std::vector<int> counts = spec.gpu_counts;
  if (counts.empty())
    for (int k = 1; k <= int(spec.devices.size()); ++k) counts.push_back(k);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::vector<MultiPointSpec> expand(const MultiSpec& spec) {
  std::vector<MultiPointSpec> out;
  for (std::uint64_t n : spec.sizes)
    for (DType t : spec.types)
      for (int count : effective_gpu_counts(spec))
        for (Exchange e : spec.exchanges) out.push_back(MultiPointSpec{e, count, n, t});
  return out;
}

std::vector<std::uint64_t> shard_sizes(std::uint64_t n, int g) {
  std::vector<std::uint64_t> out;
  if (g <= 0) return out;
  const std::uint64_t base = n / std::uint64_t(g), extra = n % std::uint64_t(g);
  for (int i = 0; i < g; ++i) out.push_back(base + (std::uint64_t(i) < extra ? 1 : 0));
  return out;
}

std::vector<std::string> validate(const MultiSpec& s, const std::vector<DeviceInfo>& gpus) {
  std::vector<std::string> errors;
  if (s.devices.empty()) errors.push_back("devices: name at least one GPU");
  constexpr std::size_t kMostGpus = 64;  // the root gathers one partial per GPU (shard_gpu.h)
  if (s.devices.size() > kMostGpus)
    errors.push_back("devices: " + std::to_string(s.devices.size()) + " GPUs; at most " +
                     std::to_string(kMostGpus));
  std::set<int> seen;
  for (int d : s.devices) {
    if (!find_gpu(gpus, d))
      errors.push_back("device cuda:" + std::to_string(d) + ": " + no_such_gpu(int(gpus.size())));
    if (!seen.insert(d).second)
      errors.push_back("device cuda:" + std::to_string(d) + ": named twice");
  }
  for (int c : s.gpu_counts)
    if (c < 1 || c > int(s.devices.size()))
      errors.push_back("GPU count " + std::to_string(c) + ": must be from 1 to " +
                       std::to_string(s.devices.size()) + " (the devices named)");
  if (s.exchanges.empty()) errors.push_back("exchanges: name at least one");
  if (s.sizes.empty()) errors.push_back("sizes: name at least one");
  if (s.types.empty()) errors.push_back("types: name at least one");
  if (!errors.empty()) return errors;

  const int most = effective_gpu_counts(s).back();
  for (std::uint64_t n : s.sizes)
    if (n < std::uint64_t(most))
      errors.push_back("size " + format_size(n) + ": cannot be split over " + std::to_string(most) +
                       " GPUs (each GPU needs at least one element)");
  check_local(s, *find_gpu(gpus, s.devices.front()), errors);
  if (const VariantInfo* v = find_variant_by_id(s.variant))
    for (int d : s.devices)
      if (const DeviceInfo* g = find_gpu(gpus, d);
          g && g->compute_capability() < v->min_compute_capability)
        errors.push_back("variant " + v->id + ": needs sm_" +
                         std::to_string(v->min_compute_capability) + "; cuda:" + std::to_string(d) +
                         " is sm_" + std::to_string(g->compute_capability()));
  if (errors.empty()) check_memory(s, gpus, errors);
  return errors;
}

std::vector<int> parse_device_list(std::string_view text, int gpu_count) {
  std::vector<int> out;
  std::string item;
  const std::string all = std::string(text) + ",";
  for (char c : all) {
    if (c != ',') {
      if (c != ' ') item += c;
      continue;
    }
    if (item.empty()) throw Error(echo(text) + ": an empty item; expected cuda:N,cuda:M,...");
    if (item == "cpu")
      throw Error("cpu: the host cannot take part in a multi-GPU run; name GPUs (cuda:N)");
    int index = -1;
    const bool digits = item.size() > 5 && item.rfind("cuda:", 0) == 0 && item.size() <= 9 &&
                        std::all_of(item.begin() + 5, item.end(), ::isdigit);
    if (digits) index = std::stoi(item.substr(5));
    if (index < 0) throw Error(echo(item) + ": expected cuda:N (N a GPU's ordinal)");
    if (index >= gpu_count) throw Error(item + ": " + no_such_gpu(gpu_count));
    if (std::find(out.begin(), out.end(), index) != out.end())
      throw Error(item + ": named twice; name each GPU once");
    out.push_back(index);
    item.clear();
  }
  return out;
}

std::vector<int> parse_gpu_count(std::string_view text, int gpu_count) {
  int k = 0;
  if (text == "all") {
    k = gpu_count;
  } else {
    const bool digits =
        !text.empty() && text.size() <= 4 && std::all_of(text.begin(), text.end(), ::isdigit);
    if (!digits) throw Error(echo(text) + ": expected all or a number of GPUs");
    k = std::stoi(std::string(text));
    if (k < 1) throw Error(std::string(text) + ": at least one GPU");
    if (k > gpu_count)
      throw Error(std::string(text) + ": only " + std::to_string(gpu_count) + " GPU(s) found");
  }
  if (k == 0) throw Error("all: no GPU found");
  std::vector<int> out;
  for (int i = 0; i < k; ++i) out.push_back(i);
  return out;
}

std::vector<int> parse_gpus(std::string_view text, int gpu_count) {
  return text.find("cuda:") != std::string_view::npos ? parse_device_list(text, gpu_count)
                                                      : parse_gpu_count(text, gpu_count);
}

void use_local_variant(MultiSpec& s, const VariantInfo& v, std::optional<int> unroll) {
  s.variant = v.id;
  s.unroll = unroll.value_or(v.default_unroll);
  s.workspace = v.takes_workspace(Workspace::Registers) ? Workspace::Registers
                : v.takes_workspace(Workspace::Shared)  ? Workspace::Shared
                                                        : Workspace::Global;
  s.block_size = v.block_sizes.empty() ? 0 : v.takes_block_size(1024) ? 1024 : v.block_sizes.back();
}

}  // namespace rl
