#include "engine/multi/multi_run.h"
#include "engine/core/build_info.h"
#include "engine/core/utc_time.h"

#include <ctime>
#include <map>
#include <memory>
#include <optional>

#include "core/cuda_raii.h"
#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/input_data.h"
#include "multi/multi_point.h"
#include "multi/multi_rig.h"
#include "multi/nccl_api.h"

namespace rl {

namespace {

// Peer copies for the link bandwidth: large enough for NVLink's rate to show, small enough
// to take a few ms.
constexpr std::size_t kPeerCopyBytes = std::size_t(256) << 20;

void notice(const MultiCallbacks& cb, const std::string& what) {
  if (cb.on_notice) cb.on_notice(what);
}

LocalKernel local_kernel(const MultiSpec& s, DType type) {
  LocalKernel k;
  k.kernel = find_variant_by_id(s.variant)->kernel;  // validated
  k.workspace = s.workspace;
  k.block_size = s.block_size;
  k.unroll = s.unroll;
  k.type = type;
  return k;
}

// The state a run keeps across points: NCCL communicators per GPU count (created when first
// needed; a failure is kept so it is said once per point, not retried), read floors.
class MultiRun {
 public:
  MultiRun(MultiSession& s, const MultiCallbacks& cb, const std::atomic<bool>* cancel)
      : s_(s), cb_(cb), cancel_(cancel) {}

  // Runs the points [begin, end) of one size, type and GPU count. False when cancelled.
  bool run_group(const std::vector<MultiPointSpec>& points, std::size_t begin, std::size_t end);

 private:
  const InputData& input_for(std::uint64_t n, DType t);
  NcclClique* clique_for(int count, std::string* why);
  void measure_floors(Rig& rig);
  double read_roof(const Rig& rig) const;
  MultiPoint blank_point(const MultiPointSpec& p, const std::vector<std::uint64_t>& shards) const;

  MultiSession& s_;
  const MultiCallbacks& cb_;
  const std::atomic<bool>* cancel_;
  std::optional<InputData> input_;
  std::map<int, std::unique_ptr<NcclClique>> cliques_;
  std::map<int, std::string> clique_failures_;
  std::size_t done_ = 0;
};

const InputData& MultiRun::input_for(std::uint64_t n, DType t) {
  if (!input_ || input_->size() != n || input_->type != t) {
    input_.reset();  // the previous one freed first: 2^30 elements are 4 GiB
    input_ = make_input(n, t);
  }
  return *input_;
}

NcclClique* MultiRun::clique_for(int count, std::string* why) {
  if (auto it = cliques_.find(count); it != cliques_.end()) return it->second.get();
  if (auto it = clique_failures_.find(count); it != clique_failures_.end()) {
    *why = it->second;
    return nullptr;
  }
  const std::vector<int> devices(s_.spec.devices.begin(), s_.spec.devices.begin() + count);
  try {
    notice(cb_, "opening NCCL communicators for " + std::to_string(count) + " GPU(s)");
    auto clique = std::make_unique<NcclClique>(devices);
    return (cliques_[count] = std::move(clique)).get();
  } catch (const Error& e) {
    *why = clique_failures_[count] = e.what();
    return nullptr;
  }
}

void MultiRun::measure_floors(Rig& rig) {
  for (int r = 0; r < rig.count(); ++r) {
    ShardGpu& g = rig.rank(r);
    const std::uint64_t bytes = g.shard_elements() * 4;
    bool known = false;
    for (const ShardFloor& f : s_.read_floors)
      known = known || (f.device == g.device() && f.bytes == bytes);
    if (known) continue;
    try {
      s_.read_floors.push_back({g.device(), bytes, g.read_floor_ms(s_.spec.timing)});
    } catch (const Error& e) {
      notice(cb_, "read floor on cuda:" + std::to_string(g.device()) + ": " + e.what());
    }
  }
}

double MultiRun::read_roof(const Rig& rig) const {
  double sum = 0;
  for (int r = 0; r < rig.count(); ++r) {
    const int device = s_.spec.devices[r];
    const std::uint64_t bytes = rig.shards()[r] * 4;
    double gbps = 0;
    for (const ShardFloor& f : s_.read_floors)
      if (f.device == device && f.bytes == bytes) gbps = f.gbps();
    if (gbps == 0) return 0;  // one unknown floor leaves the sum unknown
    sum += gbps;
  }
  return sum;
}

MultiPoint MultiRun::blank_point(const MultiPointSpec& p,
                                 const std::vector<std::uint64_t>& shards) const {
  MultiPoint mp;
  mp.point = p;
  mp.devices.assign(s_.spec.devices.begin(), s_.spec.devices.begin() + p.gpu_count);
  for (int r = 0; r < p.gpu_count; ++r) {
    GpuShare g;
    g.device = mp.devices[r];
    g.elements = shards[r];
    mp.gpus.push_back(g);
  }
  return mp;
}

bool MultiRun::run_group(const std::vector<MultiPointSpec>& points, std::size_t begin,
                         std::size_t end) {
  const MultiPointSpec& first = points[begin];
  const InputData& input = input_for(first.size, first.type);
  const std::vector<std::uint64_t> shards = shard_sizes(first.size, first.gpu_count);
  bool gathers = false;
  for (std::size_t i = begin; i < end; ++i)
    gathers = gathers || points[i].exchange == Exchange::GatherShards;
  std::vector<DeviceInfo> gpus(s_.devices.begin(), s_.devices.begin() + first.gpu_count);
  std::unique_ptr<Rig> rig;
  std::string rig_failure;
  try {
    notice(cb_, "loading " + first.label().substr(first.label().find(' ') + 1));
    rig = std::make_unique<Rig>(gpus, input, local_kernel(s_.spec, first.type), gathers);
    measure_floors(*rig);
  } catch (const Error& e) {
    rig_failure = e.what();
  }
  const ExpectedSums expected = expected_sums(input, shards);
  for (std::size_t i = begin; i < end; ++i) {
    MultiPoint mp = blank_point(points[i], shards);
    const Exchange e = mp.point.exchange;
    std::string why;
    NcclClique* clique = nullptr;
    if (!rig) {
      mp.status = PointStatus::Failed;
      mp.message = rig_failure;
    } else if (uses_nccl(e) && !s_.nccl_available) {
      mp.status = PointStatus::Skipped;
      mp.message = "NCCL is " + s_.nccl;
    } else if (uses_nccl(e) && !(clique = clique_for(mp.point.gpu_count, &why))) {
      mp.status = PointStatus::Failed;
      mp.message = why;
    } else {
      try {
        notice(cb_, "running " + mp.point.label());
        if (!measure_point(*rig, clique, s_.spec.timing, expected, cancel_, &mp)) return false;
        mp.read_roof_gbps = read_roof(*rig);
      } catch (const Error& err) {
        mp.status = PointStatus::Failed;
        mp.message = err.what();
      }
    }
    s_.points.push_back(mp);
    if (cb_.on_point) cb_.on_point(s_.points.back(), done_, points.size());
    if (cb_.on_session) cb_.on_session(s_);
    ++done_;
  }
  return true;
}

}  // namespace

MultiSession run_multi(const MultiSpec& spec, const MultiCallbacks& cb,
                       const std::atomic<bool>* cancel) {
  const Discovery found = discover_devices();
  if (found.gpus.empty()) throw Error("no GPU: " + found.no_gpu_reason);
  if (const auto errors = validate(spec, found.gpus); !errors.empty()) {
    std::string all;
    for (const std::string& m : errors) all += (all.empty() ? "" : "; ") + m;
    throw Error(all);
  }
  MultiSession s;
  s.tool_version = rl::tool_version();
  s.git_commit = rl::git_commit();
  s.created_utc = utc_now();
  s.spec = spec;
  for (int d : spec.devices)
    for (const DeviceInfo& g : found.gpus)
      if (g.index == d) s.devices.push_back(g);
  const NcclStatus nccl = nccl_status();
  s.nccl = nccl.text;
  s.nccl_available = nccl.available;
  enable_peer_access(spec.devices);
  s.links = discover_links(spec.devices);
  for (PeerLink& l : s.links) {
    notice(cb, "measuring the peer copy cuda:" + std::to_string(l.from) +
                   " -> cuda:" + std::to_string(l.to));
    try {
      l.measured_gbps = measure_peer_copy_gbps(l.from, l.to, kPeerCopyBytes);
    } catch (const Error& e) {
      notice(cb, e.what());
    }
  }
  const std::vector<MultiPointSpec> points = expand(spec);
  MultiRun run(s, cb, cancel);
  for (std::size_t begin = 0; begin < points.size();) {
    std::size_t end = begin + 1;
    while (end < points.size() && points[end].size == points[begin].size &&
           points[end].type == points[begin].type &&
           points[end].gpu_count == points[begin].gpu_count)
      ++end;
    if ((cancel && cancel->load()) || !run.run_group(points, begin, end)) {
      s.cancelled = true;
      break;
    }
    begin = end;
  }
  return s;
}

}  // namespace rl
