// One GPU and several are sampled by the same core (measure/sampling.h): fed the same sample
// times, a one-GPU point (the Runner over a scripted backend) and a multi-GPU point
// (sample_multi_point over scripted ranks) take the same number of samples, the same median and
// the same noisy flag, warm-ups included.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/measure/runner.h"
#include "multi/multi_point.h"

namespace rl {
namespace {

// The host backend's work, with the sample times a script gives (call i of run_sample, warm-ups
// included, gets times(i)).
class ScriptedBackend final : public Backend {
 public:
  explicit ScriptedBackend(std::function<double(int)> times)
      : host_(make_host_backend()), times_(std::move(times)) {}
  const DeviceInfo& device() const override { return host_->device(); }
  bool is_gpu() const override { return false; }
  std::string unsupported_reason(const PointSpec& p) const override {
    return host_->unsupported_reason(p);
  }
  void prepare(const PointSpec& p, const InputData& input) override { host_->prepare(p, input); }
  unsigned grid() const override { return host_->grid(); }
  SampleTimes run_sample(bool cold_l2) override {
    SampleTimes t = host_->run_sample(cold_l2);
    t.first_ms.reset();
    t.total_ms = times_(calls_++);
    return t;
  }
  ReductionOutput read_output() override { return host_->read_output(); }
  void release() override { host_->release(); }

 private:
  std::unique_ptr<Backend> host_;
  std::function<double(int)> times_;
  int calls_ = 0;
};

TimingOptions timing(double noise, int max_samples) {
  TimingOptions t;
  t.warmup = 2;
  t.min_samples = 5;
  t.max_samples = max_samples;
  t.noise = noise;
  t.budget_ms = 600'000;  // never the reason: the decisions must not depend on this machine
  return t;
}

struct Decision {
  int samples = 0;
  double median_ms = 0;
  bool noisy = false;
};

Decision one_gpu(const TimingOptions& t, const std::function<double(int)>& times) {
  Runner runner(std::make_unique<ScriptedBackend>(times));
  ExperimentSpec spec;
  spec.variants = {"interleaved"};
  spec.block_sizes = {64};
  spec.sizes = {1000};
  spec.timing = t;
  const Session s = runner.run(spec, {});
  EXPECT_EQ(s.results.size(), 1u);
  const PointResult& r = s.results.at(0);
  EXPECT_EQ(r.status, PointStatus::Ok) << r.message;
  return {r.total.samples, r.total.median_ms, r.noisy};
}

// Two GPUs: the second always a little faster, so the slowest (the first) sets the total.
Decision two_gpus(const TimingOptions& t, const std::function<double(int)>& times) {
  MultiPoint p;
  p.point = {Exchange::PeerPartials, 2, 1000, DType::Int32};
  p.devices = {0, 1};
  p.gpus.resize(2);
  int calls = 0;
  const bool done = sample_multi_point(
      t, nullptr,
      [&] {
        const double total = times(calls++);
        return std::vector<RankTimes>{{total * 0.75, total * 0.25, total},
                                      {total * 0.5, total * 0.25, total * 0.75}};
      },
      &p);
  EXPECT_TRUE(done);
  return {p.times.total.samples, p.times.total.median_ms, p.noisy};
}

void expect_same(const TimingOptions& t, const std::function<double(int)>& times,
                 const char* what) {
  const Decision a = one_gpu(t, times), b = two_gpus(t, times);
  EXPECT_EQ(a.samples, b.samples) << what;
  EXPECT_DOUBLE_EQ(a.median_ms, b.median_ms) << what;
  EXPECT_EQ(a.noisy, b.noisy) << what;
}

TEST(OneSampler, AQuietPointStopsAtTheMinimumOnBoth) {
  expect_same(
      timing(0.01, 100), [](int) { return 2.0; }, "constant");
  EXPECT_EQ(one_gpu(timing(0.01, 100), [](int) { return 2.0; }).samples, 5);
}

TEST(OneSampler, ANoisyStartSamplesOnUntilQuietOnBoth) {
  // Slow warm-ups and a spread that narrows: the same sample ends both.
  const auto times = [](int i) { return i < 2 ? 50.0 : (i % 2 ? 1.0 : 1.4); };
  expect_same(timing(0.02, 10'000), times, "alternating");
  const Decision d = one_gpu(timing(0.02, 10'000), times);
  EXPECT_GT(d.samples, 5);
  EXPECT_FALSE(d.noisy);
}

TEST(OneSampler, ANeverQuietPointIsNoisyAtTheMaximumOnBoth) {
  const auto times = [](int i) { return double(1 + i * i); };
  expect_same(timing(1e-9, 12), times, "growing");
  const Decision d = two_gpus(timing(1e-9, 12), times);
  EXPECT_EQ(d.samples, 12);
  EXPECT_TRUE(d.noisy);
}

}  // namespace
}  // namespace rl
