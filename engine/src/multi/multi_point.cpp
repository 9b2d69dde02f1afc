#include "multi/multi_point.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/core/bandwidth.h"
#include "engine/measure/verify.h"
#include "measure/sampling.h"

namespace rl {

namespace {

std::string gpu_name(const MultiPoint& p, std::size_t rank) {
  return "cuda:" + std::to_string(p.devices[rank]);
}

// Which ranks hold the total after the exchange: every one after an all-reduce, else the root.
std::size_t ranks_with_total(const MultiPoint& p) {
  return p.point.exchange == Exchange::NcclAllReduce ? p.devices.size() : 1;
}

void mark_wrong(MultiPoint* p, const std::string& why) {
  if (p->status != PointStatus::Wrong) p->message = why;  // the first wrong value is named
  p->status = PointStatus::Wrong;
}

bool float_close(double got, double exact, std::uint64_t n, double* rel) {
  const double abs_error = std::fabs(got - exact);
  *rel = exact != 0 ? abs_error / std::fabs(exact) : abs_error;
  return *rel <= float_tolerance(n);
}

}  // namespace

void verify_multi(const RigValues& v, const ExpectedSums& x, MultiPoint* p) {
  p->status = PointStatus::Ok;
  p->message.clear();
  const bool ints = p->point.type == DType::Int32;
  p->expected = ints ? std::to_string(x.total_i64) : float_value_text(x.total_f64);
  for (std::size_t r = 0; r < ranks_with_total(*p); ++r) {
    double rel = 0;
    const bool ok = ints ? v.total_i64[r] == x.total_i64
                         : float_close(v.total_f32[r], x.total_f64, p->point.size, &rel);
    const std::string got =
        ints ? std::to_string(v.total_i64[r]) : float_value_text(v.total_f32[r]);
    if (r == 0) {
      p->value = got;
      p->rel_error = rel;
    }
    if (!ok)
      mark_wrong(
          p, gpu_name(*p, r) + "'s total " + got + " differs from the host's sum " + p->expected);
  }
  if (p->point.exchange == Exchange::GatherShards) return;  // only the root reduces
  for (std::size_t r = 0; r < p->gpus.size(); ++r) {
    GpuShare& g = p->gpus[r];
    double rel = 0;
    const bool ok = ints ? v.partial_i64[r] == x.shard_i64[r]
                         : float_close(v.partial_f32[r], x.shard_f64[r], g.elements, &rel);
    g.partial = ints ? std::to_string(v.partial_i64[r]) : float_value_text(v.partial_f32[r]);
    g.expected_partial = ints ? std::to_string(x.shard_i64[r]) : float_value_text(x.shard_f64[r]);
    if (!ok)
      mark_wrong(p, gpu_name(*p, r) + "'s partial " + g.partial + " differs from its shard's sum " +
                        g.expected_partial);
  }
}

void summarize_multi(const std::vector<std::vector<RankTimes>>& samples, MultiPoint* p) {
  p->local_samples_ms.clear();
  p->exchange_samples_ms.clear();
  p->total_samples_ms.clear();
  for (GpuShare& g : p->gpus) {
    g.local_samples_ms.clear();
    g.exchange_samples_ms.clear();
    g.total_samples_ms.clear();
  }
  for (const std::vector<RankTimes>& sample : samples) {
    double local = 0, total = 0;
    for (std::size_t r = 0; r < sample.size() && r < p->gpus.size(); ++r) {
      const RankTimes& t = sample[r];
      if (t.total < 0) continue;  // no part in this exchange
      p->gpus[r].local_samples_ms.push_back(t.local);
      p->gpus[r].exchange_samples_ms.push_back(t.exchange);
      p->gpus[r].total_samples_ms.push_back(t.total);
      local = std::max(local, t.local);
      total = std::max(total, t.total);
    }
    p->local_samples_ms.push_back(local);
    p->exchange_samples_ms.push_back(std::max(0.0, total - local));
    p->total_samples_ms.push_back(total);
  }
  for (GpuShare& g : p->gpus)
    g.times = {summarize(g.local_samples_ms), summarize(g.exchange_samples_ms),
               summarize(g.total_samples_ms)};
  p->times = {summarize(p->local_samples_ms), summarize(p->exchange_samples_ms),
              summarize(p->total_samples_ms)};
}

bool sample_multi_point(const TimingOptions& timing, const std::atomic<bool>* cancel,
                        const std::function<std::vector<RankTimes>()>& one_sample, MultiPoint* p) {
  for (int i = 0; i < timing.warmup; ++i) {
    if (cancel && cancel->load()) return false;
    one_sample();
  }
  std::vector<std::vector<RankTimes>> samples;
  std::vector<double> totals;
  bool stopped = false;
  const bool quiet = sample_until_quiet(timing, cancel, &stopped, totals, [&] {
    samples.push_back(one_sample());
    double total = 0;
    for (const RankTimes& t : samples.back()) total = std::max(total, t.total);
    return total;
  });
  if (stopped) return false;
  summarize_multi(samples, p);
  p->noisy = !quiet;
  return true;
}

bool measure_point(Rig& rig, NcclClique* clique, const TimingOptions& timing,
                   const ExpectedSums& expected, const std::atomic<bool>* cancel, MultiPoint* p) {
  const Exchange e = p->point.exchange;
  if (!sample_multi_point(
          timing, cancel, [&] { return rig.sample(e, clique, timing.cold_l2); }, p))
    return false;
  verify_multi(rig.read_values(), expected, p);
  return true;
}

}  // namespace rl
