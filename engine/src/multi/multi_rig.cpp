#include "multi/multi_rig.h"

#include <cstring>

#include "multi/nccl_api.h"

namespace rl {

ExpectedSums expected_sums(const InputData& input, const std::vector<std::uint64_t>& shards) {
  ExpectedSums e;
  std::uint64_t at = 0;
  for (std::uint64_t n : shards) {
    std::int64_t si = 0;
    double sf = 0;
    if (input.type == DType::Int32)
      for (std::uint64_t i = at; i < at + n; ++i) si += input.i32[i];
    else
      for (std::uint64_t i = at; i < at + n; ++i) sf += double(input.f32[i]);
    e.shard_i64.push_back(si);
    e.shard_f64.push_back(sf);
    e.total_i64 += si;
    e.total_f64 += sf;
    at += n;
  }
  return e;
}

Rig::Rig(const std::vector<DeviceInfo>& gpus, const InputData& input, const LocalKernel& kernel,
         bool gather_at_root)
    : shards_(shard_sizes(input.size(), int(gpus.size()))), type_(input.type) {
  context_ = "N=" + std::to_string(input.size()) + " " + std::string(to_string(type_)) + " over " +
             std::to_string(gpus.size()) + " GPU(s)";
  std::uint64_t offset = 0;
  for (std::size_t r = 0; r < gpus.size(); ++r) {
    ranks_.push_back(std::make_unique<ShardGpu>(gpus[r].index, gpus[r].l2_bytes));
    const bool root_gathers = r == 0 && gather_at_root;
    const std::uint64_t room = root_gathers ? input.size() : shards_[r];
    ranks_[r]->load(input, offset, shards_[r], room, root_gathers ? input.size() : 0, kernel,
                    context_);
    offset += shards_[r];
  }
}

std::vector<RankTimes> Rig::sample(Exchange e, NcclClique* clique, bool cold_l2) {
  for (auto& g : ranks_) {
    g->poison_cells();  // a sum the exchange failed to write cannot pass for one it wrote
    if (cold_l2) g->flush_l2();
  }
  // Every GPU idle before any starts, so the starts are as close as one thread can make them.
  for (auto& g : ranks_) {
    g->make_current();
    RL_CUDA_CHECK(cudaStreamSynchronize(g->stream()), "before a sample, " + context_);
  }
  std::vector<RankTimes> times(ranks_.size());
  if (e == Exchange::GatherShards) {
    gather_then_reduce();
    ShardGpu& root = *ranks_[0];
    root.synchronize();
    times[0].exchange = root.start_to_mid_ms();
    times[0].local = root.mid_to_end_ms();
    times[0].total = times[0].exchange + times[0].local;
    return times;
  }
  if (uses_nccl(e)) {
    if (!clique) throw Error("no NCCL communicators for " + std::string(to_string(e)));
    local_then_nccl(e, *clique);
  } else {
    local_then_peer_partials();
  }
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    ranks_[r]->synchronize();
    times[r].local = ranks_[r]->start_to_mid_ms();
    times[r].exchange = ranks_[r]->mid_to_end_ms();
    times[r].total = times[r].local + times[r].exchange;
  }
  return times;
}

void Rig::local_then_nccl(Exchange e, NcclClique& clique) {
  std::vector<const void*> send;
  std::vector<void*> recv;
  std::vector<cudaStream_t> streams;
  for (auto& g : ranks_) {
    g->make_current();
    g->record_start();
    g->reduce_shard();
    g->record_mid();
    send.push_back(g->partial());
    recv.push_back(g->total());
    streams.push_back(g->stream());
  }
  const std::string ctx = std::string(to_string(e)) + ", " + context_;
  if (e == Exchange::NcclAllReduce)
    clique.all_reduce(send, recv, type_, streams, ctx);
  else
    clique.reduce(send, recv, type_, streams, ctx);
  for (auto& g : ranks_) {
    g->make_current();
    g->record_end();
  }
}

void Rig::local_then_peer_partials() {
  for (auto& g : ranks_) {
    g->make_current();
    g->record_start();
    g->reduce_shard();
    g->record_mid();
    // The other GPUs' part ends with their partial: the root pulls it.
    if (g != ranks_.front()) g->record_end();
  }
  ShardGpu& root = *ranks_[0];
  root.make_current();
  const std::size_t cell = kernels::accum_size(type_);
  RL_CUDA_CHECK(cudaMemcpyAsync(root.gathered(), root.partial(), cell, cudaMemcpyDeviceToDevice,
                                root.stream()),
                "the root's own partial, " + context_);
  for (std::size_t r = 1; r < ranks_.size(); ++r) {
    root.wait_for(ranks_[r]->mid_event());
    peer_copy(static_cast<char*>(root.gathered()) + r * cell, root.device(), ranks_[r]->partial(),
              ranks_[r]->device(), cell, root.stream(), context_);
  }
  add_gathered_partials();
  root.record_end();
}

// The root adds the gathered partials with the finishing pass every reduction ends with
// (kernels/finish.cu): one block, the partials in rank order.
void Rig::add_gathered_partials() {
  ShardGpu& root = *ranks_[0];
  kernels::LaunchArgs args;
  args.type = type_;
  args.partials = root.gathered();
  args.result = root.total();
  args.stream = root.stream();
  kernels::LaunchPlan plan;
  plan.partial_count = ranks_.size();
  plan.needs_finish = true;
  RL_CUDA_CHECK(kernels::launch_finish(args, plan), "adding the partials at the root, " + context_);
}

void Rig::gather_then_reduce() {
  ShardGpu& root = *ranks_[0];
  root.make_current();
  root.record_start();
  const std::size_t elem = dtype_size(type_);
  std::uint64_t offset = shards_[0];
  for (std::size_t r = 1; r < ranks_.size(); ++r) {
    peer_copy(root.input_at(offset), root.device(), ranks_[r]->input_at(0), ranks_[r]->device(),
              shards_[r] * elem, root.stream(), context_);
    offset += shards_[r];
  }
  root.record_mid();
  root.reduce_whole();
  root.record_end();
}

RigValues Rig::read_values() {
  RigValues v;
  for (auto& g : ranks_) {
    g->make_current();
    RL_CUDA_CHECK(cudaStreamSynchronize(g->stream()), "reading the results, " + context_);
    std::int64_t cells[2] = {0, 0};  // partial, total: one Accum each (8 bytes at most)
    RL_CUDA_CHECK(cudaMemcpy(&cells[0], g->partial(), 8, cudaMemcpyDeviceToHost),
                  "reading a partial, " + context_);
    RL_CUDA_CHECK(cudaMemcpy(&cells[1], g->total(), 8, cudaMemcpyDeviceToHost),
                  "reading a total, " + context_);
    float f[2];
    std::memcpy(&f[0], &cells[0], sizeof(float));
    std::memcpy(&f[1], &cells[1], sizeof(float));
    v.partial_i64.push_back(cells[0]);
    v.total_i64.push_back(cells[1]);
    v.partial_f32.push_back(f[0]);
    v.total_f32.push_back(f[1]);
  }
  return v;
}

}  // namespace rl
