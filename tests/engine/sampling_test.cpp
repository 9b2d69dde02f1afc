// The one stopping rule (measure/sampling.h) that one-GPU points, multi-GPU points and every read
// floor are sampled by: at least min_samples, then until quiet, or max_samples, or the budget;
// a cancel stops before the next sample.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "measure/sampling.h"

namespace rl {
namespace {

TimingOptions timing(int min_samples, int max_samples, double noise) {
  TimingOptions t;
  t.min_samples = min_samples;
  t.max_samples = max_samples;
  t.noise = noise;
  t.budget_ms = 60'000;  // never the reason here
  return t;
}

TEST(Sampling, StopsAtTheMinimumWhenQuiet) {
  std::vector<double> s;
  bool cancelled = false;
  EXPECT_TRUE(sample_until_quiet(timing(5, 100, 0.01), nullptr, &cancelled, s, [] { return 1.0; }));
  EXPECT_EQ(s.size(), 5u);
  EXPECT_FALSE(cancelled);
}

TEST(Sampling, SamplesOnUntilQuietThenStops) {
  // Alternating 1 and 3 ms: the standard error of the mean falls as 1/sqrt(n).
  std::vector<double> s;
  bool cancelled = false;
  int i = 0;
  EXPECT_TRUE(sample_until_quiet(timing(2, 10'000, 0.05), nullptr, &cancelled, s,
                                 [&] { return ++i % 2 ? 1.0 : 3.0; }));
  EXPECT_GT(s.size(), 2u);
  EXPECT_LT(summarize(s).noise, 0.05);
  std::vector<double> one_fewer(s.begin(), s.end() - 1);
  EXPECT_GE(summarize(one_fewer).noise, 0.05) << "stopped later than the first quiet sample";
}

TEST(Sampling, ANoisyPointStopsAtTheMaximumAndSaysSo) {
  std::vector<double> s;
  bool cancelled = false;
  int i = 0;
  EXPECT_FALSE(
      sample_until_quiet(timing(2, 7, 1e-9), nullptr, &cancelled, s, [&] { return double(++i); }));
  EXPECT_EQ(s.size(), 7u);
}

TEST(Sampling, ACancelStopsBeforeTheNextSample) {
  std::vector<double> s;
  bool cancelled = false;
  std::atomic<bool> cancel{false};
  EXPECT_FALSE(sample_until_quiet(timing(10, 100, 0.01), &cancel, &cancelled, s, [&] {
    if (s.size() == 2) cancel = true;
    return 1.0;
  }));
  EXPECT_TRUE(cancelled);
  EXPECT_EQ(s.size(), 3u);
}

}  // namespace
}  // namespace rl
