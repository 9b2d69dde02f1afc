// Hardware counters on the host: the catalog, the list parser, the JSON and CSV round trips, and
// the counter pass where there is no GPU (a note, never a failure).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "counters/cupti_api.h"
#include "engine/counters/counter_catalog.h"
#include "engine/counters/counter_pass.h"
#include "engine/io/export.h"
#include "engine/measure/runner.h"
#include "export_fixtures.h"
#include "io/counters_io.h"

namespace rl {
namespace {

constexpr const char* kBarrier = "smsp__warp_issue_stalled_barrier_per_warp_active.pct";

TEST(CounterCatalog, EveryLineIsCompleteAndUnique) {
  std::set<std::string_view> ids, metrics;
  for (const CounterInfo& c : counter_catalog()) {
    SCOPED_TRACE(std::string(c.id));
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id";
    EXPECT_TRUE(metrics.insert(c.metric).second) << "duplicate metric";
    EXPECT_FALSE(c.unit.empty());
    EXPECT_FALSE(c.meaning.empty());
    EXPECT_LE(c.column.size(), 8u) << "the live table's columns are 8 wide";
    EXPECT_EQ(c.id.find_first_of(" ,."), std::string_view::npos);
    // ncu metric names: unit__counter.rollup
    EXPECT_NE(c.metric.find("__"), std::string_view::npos);
    EXPECT_EQ(find_counter(c.id), &c);
    EXPECT_EQ(find_counter(c.metric), &c);
  }
}

TEST(CounterCatalog, DefaultSetCoversTheIssue) {
  const std::vector<std::string> d = default_counters();
  for (const char* id :
       {"barrier_stall", "long_scoreboard_stall", "short_scoreboard_stall", "membar_stall",
        "not_selected_stall", "branch_uniformity", "threads_per_inst", "achieved_occupancy",
        "dram_throughput", "l2_hit_rate", "shared_ld_bank_conflicts", "shared_st_bank_conflicts",
        "inst_executed", "branches_executed"})
    EXPECT_NE(std::find(d.begin(), d.end(), id), d.end()) << id;
  EXPECT_EQ(find_counter("barrier_stall")->metric, kBarrier);  // the classic ladder's metric
  EXPECT_TRUE(find_counter("barrier_stall")->percent());
  EXPECT_FALSE(find_counter("inst_executed")->percent());
}

TEST(CounterCatalog, ParsesListsInCatalogOrder) {
  EXPECT_EQ(parse_counter_list("default"), default_counters());
  EXPECT_EQ(parse_counter_list("all").size(), counter_catalog().size());
  EXPECT_EQ(parse_counter_list(std::string("l2_hit_rate, ") + kBarrier),
            (std::vector<std::string>{"barrier_stall", "l2_hit_rate"}));
  EXPECT_EQ(parse_counter_list("barrier_stall,barrier_stall"),
            std::vector<std::string>{"barrier_stall"});
  EXPECT_EQ(parse_counter_list("default,warp_efficiency").size(), default_counters().size() + 1);
  try {
    parse_counter_list("barrier_stall,bogus");
    FAIL() << "bogus accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown counter 'bogus'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("barrier_stall"), std::string::npos) << "lists the ids";
  }
  EXPECT_THROW(parse_counter_list("barrier_stall,,l2_hit_rate"), Error);
  EXPECT_EQ(counter_metrics({"barrier_stall"}), std::vector<std::string>{kBarrier});
}

PointCounters sample_counters() {
  PointCounters c;
  c.passes = 3;
  c.note = "not available on GH100: x, \"y\"";
  c.kernels.push_back({"first_kernel", {{kBarrier, 52.98}, {"smsp__inst_executed.sum", 1234.0}}});
  c.kernels.push_back({"finish", {{kBarrier, 11.33}, {"lts__t_sector_hit_rate.pct", 0.0}}});
  return c;
}

TEST(CountersFiles, JsonRoundTripKeepsEveryValueAndOrder) {
  Session s = testing::make_full_session();
  s.results.front().counters = sample_counters();
  const Session back = session_from_json(session_to_json(s));
  ASSERT_TRUE(back.results.front().counters.has_value());
  EXPECT_EQ(*back.results.front().counters, sample_counters());
  for (std::size_t i = 1; i < back.results.size(); ++i)
    EXPECT_FALSE(back.results[i].counters.has_value());
  // The metric names are the keys, as ncu writes them.
  const auto doc = nlohmann::json::parse(session_to_json(s));
  EXPECT_DOUBLE_EQ(doc["results"][0]["counters"]["kernels"][0]["metrics"][kBarrier].get<double>(),
                   52.98);
  EXPECT_TRUE(doc["results"][1]["counters"].is_null());
}

TEST(CountersFiles, OlderSessionsWithoutCountersStillOpen) {
  auto doc = nlohmann::json::parse(session_to_json(testing::make_full_session()));
  for (auto& r : doc["results"]) r.erase("counters");
  const Session s = session_from_json(doc.dump());
  for (const PointResult& r : s.results) EXPECT_FALSE(r.counters.has_value());
}

TEST(CountersFiles, BadCountersAreRefusedNamingTheField) {
  Session s = testing::make_full_session();
  s.results.front().counters = sample_counters();
  auto doc = nlohmann::json::parse(session_to_json(s));
  doc["results"][0]["counters"]["kernels"][0]["metrics"][kBarrier] = "high";
  EXPECT_NE(testing::session_error(doc.dump()).find("results[0].counters.kernels[0].metrics."),
            std::string::npos)
      << testing::session_error(doc.dump());
  doc["results"][0]["counters"]["kernels"][0].erase("role");
  EXPECT_NE(testing::session_error(doc.dump()).find("role"), std::string::npos);
}

TEST(CountersFiles, CsvHasAColumnPerKernelAndMetric) {
  Session s = testing::make_full_session();
  s.results.front().counters = sample_counters();
  const std::string csv = summary_csv(s);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_NE(header.find(std::string(",first_kernel.") + kBarrier), std::string::npos);
  EXPECT_NE(header.find(std::string(",finish.") + kBarrier), std::string::npos);
  EXPECT_NE(header.find(",finish.lts__t_sector_hit_rate.pct"), std::string::npos);
  EXPECT_EQ(header.substr(header.size() - 14), ",counters_note");
  const std::string row1 =
      csv.substr(header.size() + 1, csv.find('\n', header.size() + 1) - header.size() - 1);
  EXPECT_NE(row1.find(",52.98,1234,11.33,0,\"not available on GH100: x, \"\"y\"\"\""),
            std::string::npos)
      << row1;
  // Every row has as many cells as the header (no counters: empty cells).
  const Session none = testing::make_full_session();
  EXPECT_EQ(summary_csv(none).find("counters_note"), std::string::npos);
}

TEST(CounterPassOnHost, SaysWhyThereAreNoneAndTheRunGoesOn) {
  Runner runner(make_host_backend());
  runner.set_counters(default_counters());
  ExperimentSpec spec;
  spec.variants = {"reduceInterleaved"};
  spec.block_sizes = {256};
  spec.sizes = {4096};
  spec.timing.budget_ms = 1;
  const Session s = runner.run(spec, {});
  ASSERT_EQ(s.results.size(), 1u);
  EXPECT_EQ(s.results[0].status, PointStatus::Ok);
  ASSERT_TRUE(s.results[0].counters.has_value());
  EXPECT_TRUE(s.results[0].counters->kernels.empty());
  EXPECT_NE(s.results[0].counters->note.find("no hardware counters on the host backend"),
            std::string::npos);
  EXPECT_EQ(counter_role(0, 2), "first_kernel");
  EXPECT_EQ(counter_role(1, 2), "finish");
  EXPECT_EQ(counter_role(0, 1), "whole");
}

// Where the toolkit's CUPTI is installed every call ReductionLab makes resolves; elsewhere the
// reason names what was tried. Either way nothing else depends on it.
TEST(CuptiLibrary, LoadsEveryCallOrSaysWhy) {
  try {
    const CuptiApi& api = cupti_api();
    EXPECT_FALSE(api.path.empty());
    EXPECT_NE(api.RangeGetCounterDataInfo, nullptr);
    EXPECT_NE(api.HostEvaluateToGpuValues, nullptr);
    const char* words = nullptr;
    ASSERT_EQ(api.GetResultString(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, &words), CUPTI_SUCCESS);
    try {
      cupti_check(api, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "cuptiRangeProfilerEnable", "here");
      FAIL() << "no throw";
    } catch (const CountersUnavailable& e) {
      EXPECT_NE(std::string(e.what()).find("profiling is not permitted"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("[here]"), std::string::npos);
    }
  } catch (const CountersUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("could not be loaded"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rl
