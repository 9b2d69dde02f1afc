// The counter pass's repeats on the host: each kernel profiled kCounterRepeats times gives the
// median and the range of every counter, said steady or unsteady by the catalog's one rule; the
// files carry the range, and sessions from before repeats still open.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/counters/counter_catalog.h"
#include "engine/counters/counter_pass.h"
#include "engine/io/export.h"
#include "engine/report/counters_text.h"
#include "engine/report/format.h"
#include "export_fixtures.h"

namespace rl {
namespace {

constexpr const char* kBarrier = "smsp__warp_issue_stalled_barrier_per_warp_active.pct";
constexpr const char* kInst = "smsp__inst_executed.sum";

TEST(CounterRule, PercentWithinTwoPointsOthersWithinFivePercent) {
  EXPECT_TRUE(counter_values_agree(kBarrier, 51.9, 50.0));
  EXPECT_FALSE(counter_values_agree(kBarrier, 52.1, 50.0));
  // percent of peak is a percent metric (the catalog's unit %)
  EXPECT_FALSE(counter_values_agree("dram__throughput.avg.pct_of_peak_sustained_elapsed", 61, 64));
  EXPECT_TRUE(counter_values_agree(kInst, 1040, 1000));
  EXPECT_FALSE(counter_values_agree(kInst, 1060, 1000));
  EXPECT_TRUE(counter_values_agree(kInst, 1, 0));  // a count of one event is no spread
  EXPECT_FALSE(counter_values_agree(kInst, 3, 0));
  EXPECT_TRUE(counter_steady(kBarrier, {14.9, 15.4}));
  EXPECT_FALSE(counter_steady(kBarrier, {11.3, 17.2}));
}

TEST(CounterRepeats, MedianAndRangeOfEachMetric) {
  const std::vector<KernelCounters> repeats{
      {"finish", {{kBarrier, 17.2}, {kInst, 1000}}},
      {"finish", {{kBarrier, 11.3}, {kInst, 1000}}},
      {"finish", {{kBarrier, 15.0}}},  // a metric one repeat did not read
  };
  const KernelCounters k = combine_repeats(repeats);
  EXPECT_EQ(k.role, "finish");
  EXPECT_EQ(k.value(kBarrier), 15.0);
  EXPECT_EQ(k.range(kBarrier), (CounterRange{11.3, 17.2}));
  EXPECT_EQ(k.value(kInst), 1000);  // median of the two that read it
  EXPECT_EQ(k.range(kInst), (CounterRange{1000, 1000}));
  // Two repeats: the mean of the middle two. One: its values, no range.
  EXPECT_EQ(combine_repeats({repeats[0], repeats[1]}).value(kBarrier), (17.2 + 11.3) / 2);
  const KernelCounters one = combine_repeats({repeats[0]});
  EXPECT_EQ(one.values, repeats[0].values);
  EXPECT_TRUE(one.ranges.empty());
  EXPECT_TRUE(combine_repeats({}).values.empty());
  // A ratio over nothing (NaN) is no value: the median and range of the others, or NaN alone.
  const double nan = std::nan("");
  const KernelCounters with_nan = combine_repeats({{"finish", {{kBarrier, nan}, {kInst, nan}}},
                                                   {"finish", {{kBarrier, 12.0}, {kInst, nan}}},
                                                   {"finish", {{kBarrier, 14.0}, {kInst, nan}}}});
  EXPECT_EQ(with_nan.value(kBarrier), 13.0);
  EXPECT_EQ(with_nan.range(kBarrier), (CounterRange{12.0, 14.0}));
  EXPECT_TRUE(std::isnan(*with_nan.value(kInst)));
  EXPECT_FALSE(with_nan.range(kInst).has_value());
}

PointCounters repeated_counters() {
  PointCounters c;
  c.passes = 2;
  c.repeats = 3;
  KernelCounters first{"first_kernel", {{kBarrier, 46.2}, {kInst, 1234}}};
  first.ranges = {{kBarrier, {46.1, 46.4}}, {kInst, {1234, 1234}}};
  KernelCounters finish{"finish", {{kBarrier, 15.0}}};
  finish.ranges = {{kBarrier, {11.3, 17.2}}};
  c.kernels = {first, finish};
  return c;
}

TEST(CounterRepeats, FilesKeepTheRangesAndOlderFilesReadAsOneRepeat) {
  Session s = testing::make_full_session();
  s.results.front().counters = repeated_counters();
  const std::string text = session_to_json(s);
  EXPECT_EQ(*session_from_json(text).results.front().counters, repeated_counters());
  auto doc = nlohmann::json::parse(text);
  auto& counters = doc["results"][0]["counters"];
  EXPECT_EQ(counters["repeats"], 3);
  EXPECT_EQ(counters["kernels"][1]["ranges"][kBarrier], nlohmann::json::array({11.3, 17.2}));
  // Before repeats: no "repeats", no "ranges".
  counters.erase("repeats");
  for (auto& k : counters["kernels"]) k.erase("ranges");
  const PointCounters old = *session_from_json(doc.dump()).results.front().counters;
  EXPECT_EQ(old.repeats, 1);
  EXPECT_TRUE(old.kernels[1].ranges.empty());
  EXPECT_EQ(old.kernels[1].value(kBarrier), 15.0);
}

TEST(CounterRepeats, BadRangesAreRefusedNamingTheField) {
  Session s = testing::make_full_session();
  s.results.front().counters = repeated_counters();
  const auto good = nlohmann::json::parse(session_to_json(s));
  const std::string at = std::string("results[0].counters.kernels[1].ranges.") + kBarrier;
  auto doc = good;
  doc["results"][0]["counters"]["kernels"][1]["ranges"][kBarrier] = {17.2, 11.3};
  EXPECT_NE(testing::session_error(doc.dump()).find(at + ": the lowest value is above"),
            std::string::npos)
      << testing::session_error(doc.dump());
  doc = good;
  doc["results"][0]["counters"]["kernels"][1]["ranges"][kBarrier] = 12;
  EXPECT_NE(testing::session_error(doc.dump()).find(at + ": expected [lowest, highest]"),
            std::string::npos);
  doc = good;
  doc["results"][0]["counters"]["kernels"][1]["ranges"][kInst] = {1, 2};
  EXPECT_NE(testing::session_error(doc.dump()).find("a range for a metric without a value"),
            std::string::npos);
  doc = good;
  doc["results"][0]["counters"]["repeats"] = 0;
  EXPECT_NE(testing::session_error(doc.dump()).find("results[0].counters.repeats"),
            std::string::npos);
}

TEST(CounterRepeats, CsvHasTheRangeBesideTheMedian) {
  Session s = testing::make_full_session();
  s.results.front().counters = repeated_counters();
  const std::string csv = summary_csv(s);
  const std::string header = csv.substr(0, csv.find('\n'));
  const std::string finish = std::string(",finish.") + kBarrier;
  EXPECT_NE(header.find(finish + finish + "[lo]" + finish + "[hi]"), std::string::npos) << header;
  const std::string row1 =
      csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_NE(row1.find(",15,11.3,17.2,"), std::string::npos) << row1;
}

TEST(CounterRepeats, TextSaysTheMedianItsRangeAndWhatIsUnsteady) {
  PointResult r = testing::make_full_session().results.front();
  r.counters = repeated_counters();
  std::string text;
  for (const std::string& line : counters_lines(r)) text += line + "\n";
  EXPECT_NE(text.find("median of 3 profiled launches"), std::string::npos) << text;
  EXPECT_NE(text.find("barrier_stall 46.2% (46.1%..46.4%)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("barrier_stall 15.0% (11.3%..17.2%, unsteady)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("inst_executed 1234 instructions\n"), std::string::npos) << text;
}

// Counters read with their unit and an SI prefix, never in exponent notation.
TEST(CounterText, UnitsAndPrefixesInOnePlace) {
  EXPECT_EQ(counter_value_text("inst_executed", 5.36e6), "5.36M instructions");
  EXPECT_EQ(counter_value_text("inst_executed", 812), "812 instructions");
  EXPECT_EQ(counter_value_text("dram_read_bytes", 67.1e6), "67.1 MB");
  EXPECT_EQ(counter_value_text("sm_frequency", 1.98e9), "1.98 GHz");
  EXPECT_EQ(counter_value_text("barrier_stall", 52.94), "52.9%");
  EXPECT_EQ(counter_value_text("threads_per_inst", 31.9), "31.9 threads");
  EXPECT_NE(counter_value_text("kernel_duration", 12345).find("s"), std::string::npos);
  for (double v : {1e5, 3.3e8, 4.2e12, 7e15})
    EXPECT_EQ(counter_value_text("l2_sectors", v).find("e+"), std::string::npos) << v;
  EXPECT_EQ(format_si(-2.5e7, "B"), "-25.0 MB");
}

}  // namespace
}  // namespace rl
