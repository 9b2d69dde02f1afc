// Host side of the measured warp timelines (kernels/timeline.h): buffers, the recording launch,
// the twin-against-real timing and the copy of the recorded warps.
#include <algorithm>
#include <string>
#include <vector>

#include "instrumented_record.cuh"
#include "kernels/accepts.h"
#include "kernels/timeline.h"
#include "timeline_launch.cuh"

namespace rl::kernels {
namespace {

using instrumented::Allocator;
using instrumented::DevicePtr;

std::string check_request(const TimelineLaunchRequest& r) {
  const LaunchArgs& a = r.launch;
  if (a.kernel == KernelId::User) {
    if (a.user_kernel == nullptr || r.user_twin == nullptr || r.user_twin_sink == nullptr)
      return "the user kernel is not loaded";
    if (a.block_size < 32 || a.block_size > 1024 || a.block_size % 32 != 0)
      return "block size " + std::to_string(a.block_size) + " is not whole warps up to 1024";
  } else if (!has_timeline_twin(a.kernel)) {
    return "no timed twin of this kernel";
  } else if (!accepts(a.kernel).block_sizes.contains(a.block_size))
    return "block size " + std::to_string(a.block_size) + " is not taken by this kernel";
  else if (!accepts(a.kernel).unroll_factors.contains(a.unroll))
    return "unroll " + std::to_string(a.unroll) + " is not taken by this kernel";
  if (a.kernel != KernelId::User && !accepts(a.kernel).takes_workspace(a.workspace))
    return "workspace not taken by this kernel";
  if (a.n == 0 || r.host_input == nullptr) return "no input";
  if (r.blocks.size() > kTimelineMaxSlots) return "record at most 16 blocks";
  if (r.blocks.empty() && (r.max_blocks == 0 || r.max_blocks > kTimelineMaxSlots))
    return "record 1 to 16 blocks of the SM";
  if (r.cost_runs < 0 || r.cost_runs > 1000) return "cost runs must be 0 to 1000";
  return {};
}

float median(std::vector<float> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

struct Sink {
  DevicePtr records, blocks, slot_table;
  RlTimelineSink view{};
  std::size_t record_bytes = 0, table_bytes = 0;
};

Sink make_sink(Allocator& a, const std::vector<unsigned>& blocks, unsigned sm, unsigned slots) {
  Sink s;
  s.record_bytes = std::size_t(slots) * RL_TL_MAX_WARPS * RL_TL_RECORD_WORDS * sizeof(unsigned);
  s.table_bytes = std::size_t(slots) * sizeof(unsigned);
  s.records = a.alloc(s.record_bytes, "timeline records");
  s.slot_table = a.alloc(s.table_bytes, "timeline slot table");
  if (!blocks.empty()) s.blocks = a.alloc(blocks.size() * sizeof(unsigned), "timeline block list");
  s.view.records = static_cast<unsigned*>(s.records.get());
  s.view.blocks = static_cast<const unsigned*>(s.blocks.get());
  s.view.slot_table = static_cast<unsigned*>(s.slot_table.get());
  s.view.block_count = slots;
  s.view.target_sm = blocks.empty() ? sm : RL_TL_NO_SM;
  return s;
}

// The recorded warps: a record is written when its count (the start mark at least) is set.
std::vector<WarpMarksRecord> read_records(const std::vector<unsigned>& raw, unsigned slots) {
  std::vector<WarpMarksRecord> out;
  for (unsigned s = 0; s < slots; ++s)
    for (unsigned w = 0; w < RL_TL_MAX_WARPS; ++w) {
      const unsigned* r = raw.data() + (std::size_t(s) * RL_TL_MAX_WARPS + w) * RL_TL_RECORD_WORDS;
      if (r[2] == 0) continue;
      WarpMarksRecord m;
      m.block = r[0];
      m.sm = r[1];
      m.count = r[2];
      m.warp = r[3];
      m.start_clock = r[4] | (std::uint64_t(r[5]) << 32);
      m.start_ns = r[6] | (std::uint64_t(r[7]) << 32);
      const unsigned kept = std::min(m.count, RL_TL_MAX_MARKS);
      m.stage.assign(r + RL_TL_HEADER_WORDS, r + RL_TL_HEADER_WORDS + kept * RL_TL_WORDS_PER_MARK);
      out.push_back(std::move(m));
    }
  return out;
}

struct Checked {
  cudaError_t err = cudaSuccess;
  std::string* where;
  bool operator()(cudaError_t e, const char* call) {
    if (e != cudaSuccess && err == cudaSuccess) {
      err = e;
      *where = call;
    }
    return err == cudaSuccess;
  }
};

// Times `launch` between two events on the default stream, in ms.
template <typename F>
float time_one(F&& launch, cudaEvent_t a, cudaEvent_t b, Checked& check) {
  float ms = 0;
  check(cudaEventRecord(a), "cudaEventRecord");
  check(launch(), "kernel launch (cost runs)");
  check(cudaEventRecord(b), "cudaEventRecord");
  check(cudaEventSynchronize(b), "cudaEventSynchronize (cost runs)");
  check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
  return ms;
}

}  // namespace

cudaError_t record_kernel_timeline(const TimelineLaunchRequest& r, TimelineLaunchResult* out,
                                   std::string* where) {
  std::string dummy;
  if (where == nullptr) where = &dummy;
  if (out == nullptr) return *where = "record_kernel_timeline: no output", cudaErrorInvalidValue;
  if (const std::string bad = check_request(r); !bad.empty())
    return *where = "record_kernel_timeline: " + bad, cudaErrorInvalidValue;
  LaunchArgs args = r.launch;
  LaunchPlan plan;
  if (const cudaError_t e = plan_launch(args, &plan); e != cudaSuccess)
    return *where = "plan_launch", e;
  for (unsigned b : r.blocks)
    if (b >= plan.grid)
      return *where = "record_kernel_timeline: block " + std::to_string(b) +
                      " is past the grid of " + std::to_string(plan.grid) + " blocks",
             cudaErrorInvalidValue;

  const unsigned slots = r.blocks.empty() ? r.max_blocks : unsigned(r.blocks.size());
  Allocator a{where};
  DevicePtr input = a.alloc(plan.input_capacity * 4, "input");
  DevicePtr partials = a.alloc(std::max<std::size_t>(plan.partial_count, 1) * 8, "partials");
  DevicePtr result = a.alloc(8, "result");
  // The one-launch kernels' finish counts in scratch: zeroed once, and zeroed again by the slot
  // that finishes, so the twin and the real kernel can take turns on it.
  DevicePtr scratch = a.alloc(std::max<std::size_t>(plan.scratch_bytes, 1), "scratch");
  Sink sink = make_sink(a, r.blocks, r.sm, slots);
  if (a.err != cudaSuccess) return a.err;
  Checked check{cudaSuccess, where};
  check(cudaMemset(scratch.get(), 0, std::max<std::size_t>(plan.scratch_bytes, 1)),
        "cudaMemset(scratch)");
  check(cudaMemcpy(input.get(), r.host_input, r.launch.n * 4, cudaMemcpyHostToDevice),
        "cudaMemcpy(input)");
  if (!r.blocks.empty())
    check(cudaMemcpy(sink.blocks.get(), r.blocks.data(), r.blocks.size() * sizeof(unsigned),
                     cudaMemcpyHostToDevice),
          "cudaMemcpy(block list)");
  args.input = input.get();
  args.partials = partials.get();
  args.result = result.get();
  args.scratch = scratch.get();

  timeline::TwinLaunch l;
  l.args = args;
  l.grid = plan.grid;
  l.sink = sink.view;
  l.stage_offset = r.launch.workspace == Workspace::Shared
                       ? (unsigned(r.launch.block_size) * 4 + 15) / 16 * 16
                       : 0;
  l.smem_bytes = l.stage_offset + std::size_t(r.launch.block_size / 32) * RL_TL_STAGE_WORDS * 4;
  // A user kernel's twin is its timeline-mode build: same arguments, sink in a module global.
  auto launch = [&]() -> cudaError_t {
    if (r.launch.kernel != KernelId::User) return timeline::launch_twin(l);
    if (r.launch.user_writes_total) {
      if (const cudaError_t e = cudaMemset(result.get(), 0, 8); e != cudaSuccess) return e;
    }
    void* in = input.get();
    void* out = r.launch.user_writes_total ? result.get() : partials.get();
    unsigned long long n = r.launch.n;
    void* params[] = {&in, &out, &n};
    return cudaLaunchKernel(r.user_twin, dim3(plan.grid), dim3(r.launch.block_size), params, 0,
                            nullptr);
  };
  if (r.launch.kernel == KernelId::User)
    check(cudaMemcpy(r.user_twin_sink, &sink.view, sizeof(sink.view), cudaMemcpyHostToDevice),
          "cudaMemcpy(rl_timeline_sink)");
  auto twin = [&] {
    const cudaError_t e = cudaMemset(sink.slot_table.get(), 0xff, sink.table_bytes);
    return e != cudaSuccess ? e : launch();
  };
  if (!check(twin(), "timed twin launch") ||
      !check(cudaDeviceSynchronize(), "timed twin (cudaDeviceSynchronize)"))
    return check.err;
  std::vector<unsigned> raw(sink.record_bytes / sizeof(unsigned));
  if (!check(cudaMemcpy(raw.data(), sink.records.get(), sink.record_bytes, cudaMemcpyDeviceToHost),
             "cudaMemcpy(timeline records)"))
    return check.err;

  TimelineLaunchResult res;
  res.grid = plan.grid;
  res.warps = read_records(raw, slots);
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&res.sm_count, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute(SM count)");
  if (r.launch.kernel == KernelId::User) {
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&res.resident_blocks_per_sm, r.user_twin,
                                                        r.launch.block_size, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(timeline entry)");
  } else {
    timeline::TwinLaunch o = l;
    o.occupancy = &res.resident_blocks_per_sm;
    check(timeline::launch_twin(o), "cudaOccupancyMaxActiveBlocksPerMultiprocessor(twin)");
  }
  if (check.err != cudaSuccess) return check.err;
  if (r.cost_runs > 0) {
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    check(cudaEventCreate(&e1), "cudaEventCreate");
    std::vector<float> twin_ms, real_ms;
    for (int i = 0; i < r.cost_runs && check.err == cudaSuccess; ++i) {
      twin_ms.push_back(time_one(launch, e0, e1, check));
      real_ms.push_back(time_one([&] { return launch_first(args, plan); }, e0, e1, check));
      check(cudaMemset(sink.slot_table.get(), 0xff, sink.table_bytes), "cudaMemset(slot table)");
    }
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (check.err != cudaSuccess) return check.err;
    res.twin_median_ms = median(twin_ms);
    res.real_median_ms = median(real_ms);
    res.cost_runs = r.cost_runs;
  }
  *out = std::move(res);
  return cudaSuccess;
}

cudaError_t record_spin_barrier_timeline(int block_size, unsigned spin_warp,
                                         unsigned long long spin_cycles, TimelineLaunchResult* out,
                                         std::string* where) {
  std::string dummy;
  if (where == nullptr) where = &dummy;
  if (out == nullptr || block_size < 64 || block_size > 1024 || block_size % 32 != 0 ||
      spin_warp >= unsigned(block_size / 32))
    return *where = "record_spin_barrier_timeline: bad request", cudaErrorInvalidValue;
  Allocator a{where};
  Sink sink = make_sink(a, {}, RL_TL_NO_SM, 1);
  DevicePtr block_list = a.alloc(sizeof(unsigned), "block list");  // block 0 (zeroed)
  if (a.err != cudaSuccess) return a.err;
  sink.view.blocks = static_cast<const unsigned*>(block_list.get());
  Checked check{cudaSuccess, where};
  check(timeline::launch_spin_barrier(block_size, spin_warp, spin_cycles, sink.view),
        "spin barrier launch");
  check(cudaDeviceSynchronize(), "spin barrier (cudaDeviceSynchronize)");
  std::vector<unsigned> raw(sink.record_bytes / sizeof(unsigned));
  check(cudaMemcpy(raw.data(), sink.records.get(), sink.record_bytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy(timeline records)");
  if (check.err != cudaSuccess) return check.err;
  *out = TimelineLaunchResult{};
  out->grid = 1;
  out->warps = read_records(raw, 1);
  return cudaSuccess;
}

}  // namespace rl::kernels
