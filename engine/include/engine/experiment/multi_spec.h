// One reduction across several GPUs of one host: each GPU holds a shard of the
// input, reduces it with one of the catalog's variants (the local reduction), and the partials
// are combined by an exchange: NCCL's all-reduce or reduce to a root, or one of the naive ways
// (copy every shard to the root and reduce there; peer copies of the partials to the root).
// This header is the experiment: what to run, its validation and its points.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/types.h"
#include "engine/experiment/spec.h"  // TimingOptions

namespace rl {

struct DeviceInfo;
struct VariantInfo;

// How the partials (or the shards) meet. The first GPU of a point is the root.
enum class Exchange {
  NcclAllReduce,  // ncclAllReduce of each GPU's partial: every GPU ends with the total
  NcclReduce,     // ncclReduce to the root
  GatherShards,   // naive: every shard copied (peer copy) to the root, which reduces all N
  PeerPartials,   // naive: every partial copied (peer copy) to the root, which adds them
};
std::string_view to_string(Exchange e);  // "nccl_allreduce", "nccl_reduce", ...
std::optional<Exchange> parse_exchange(std::string_view s);
const std::vector<Exchange>& all_exchanges();  // in the order above
// "all" or a comma-separated list ("nccl_allreduce,peer_partials"), repeats dropped, in the order
// given. Throws rl::Error naming the bad item and the names there are.
std::vector<Exchange> parse_exchange_list(std::string_view text);
bool uses_nccl(Exchange e);
std::string_view describe(Exchange e);  // one sentence, for --help and the app

struct MultiSpec {
  std::vector<int> devices;  // CUDA ordinals in rank order; the first is the root
  // How many of `devices` (always the first k) each point uses: the scaling axis. Empty: every
  // count from 1 to devices.size(), so the run holds one GPU reducing the whole input too.
  std::vector<int> gpu_counts;
  std::vector<Exchange> exchanges = all_exchanges();
  // The local reduction: one variant at one shape (default: the single pass, the fastest
  // kernel at large N on the H200).
  std::string variant = "single_pass";
  Workspace workspace = Workspace::Registers;
  int block_size = 1024;
  int unroll = 4;
  std::vector<std::uint64_t> sizes{std::uint64_t(1) << 28};
  std::vector<DType> types{DType::Int32};
  TimingOptions timing;
};

// Sets the local reduction to `v` at its own shape: unroll (`unroll`, as a name such as
// reduceUnroll8 fixes it, else the variant's default), the fastest workspace it takes
// (registers, then shared, then global) and B = 1024 where it takes it (else its largest).
void use_local_variant(MultiSpec& spec, const VariantInfo& v, std::optional<int> unroll = {});

// One point: an exchange over the first gpu_count devices at one size and type.
struct MultiPointSpec {
  Exchange exchange = Exchange::NcclAllReduce;
  int gpu_count = 1;
  std::uint64_t size = 0;
  DType type = DType::Int32;
  bool operator==(const MultiPointSpec&) const = default;
  std::string label() const;  // "nccl_allreduce G=2 N=268435456 int32"
};

// gpu_counts with the default filled in (1..devices.size()), ascending, without repeats.
std::vector<int> effective_gpu_counts(const MultiSpec& spec);

// The points, ordered by size, type, GPU count, exchange (so the shards are uploaded once per
// size, type and count).
std::vector<MultiPointSpec> expand(const MultiSpec& spec);

// How N elements are split over g GPUs: contiguous shards, the first N % g one element larger.
// Every shard holds at least one element when n >= g.
std::vector<std::uint64_t> shard_sizes(std::uint64_t n, int g);

// Every problem with the spec, one message each, naming the bad value. gpus: what discovery
// found (an ordinal not among them is an error). Memory is checked per GPU: its shard (the root
// also the whole input for gather_shards), the partials and the L2 flush buffer against its
// free memory.
std::vector<std::string> validate(const MultiSpec& spec, const std::vector<DeviceInfo>& gpus);

// "cuda:0,cuda:1" -> {0, 1}. Throws rl::Error naming the bad item: not cuda:N ("cpu" cannot
// take part), an ordinal no GPU has (gpu_count found), a device named twice, an empty list.
std::vector<int> parse_device_list(std::string_view text, int gpu_count);
// "all" -> every GPU; "K" -> the first K. Throws rl::Error (0, more than found, not a number).
std::vector<int> parse_gpu_count(std::string_view text, int gpu_count);
// Either of the two, as the app's GPUs field takes them: "cuda:..." is a device list, anything
// else a count ("all", "2"). Throws as they do.
std::vector<int> parse_gpus(std::string_view text, int gpu_count);

}  // namespace rl
