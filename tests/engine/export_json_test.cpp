// JSON sessions and spec files: exact round trips, and a clear error naming the field for every
// kind of bad file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/session/metrics.h"
#include "export_fixtures.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;

// Doubles must come back bit for bit (NaN: any NaN).
void expect_same(double a, double b, const std::string& what) {
  if (std::isnan(a) && std::isnan(b)) return;
  EXPECT_EQ(0, std::memcmp(&a, &b, sizeof a)) << what << ": " << a << " vs " << b;
}

void expect_same(const std::vector<double>& a, const std::vector<double>& b,
                 const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], what);
}

void expect_same(const Summary& a, const Summary& b, const std::string& what) {
  EXPECT_EQ(a.samples, b.samples) << what;
  expect_same(a.median_ms, b.median_ms, what + ".median_ms");
  expect_same(a.mean_ms, b.mean_ms, what + ".mean_ms");
  expect_same(a.min_ms, b.min_ms, what + ".min_ms");
  expect_same(a.max_ms, b.max_ms, what + ".max_ms");
  expect_same(a.stddev_ms, b.stddev_ms, what + ".stddev_ms");
  expect_same(a.noise, b.noise, what + ".noise");
}

void expect_same(const DeviceInfo& a, const DeviceInfo& b) {
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.cc_major, b.cc_major);
  EXPECT_EQ(a.cc_minor, b.cc_minor);
  EXPECT_EQ(a.sm_count, b.sm_count);
  EXPECT_EQ(a.l2_bytes, b.l2_bytes);
  EXPECT_EQ(a.total_memory, b.total_memory);
  EXPECT_EQ(a.free_memory, b.free_memory);
  EXPECT_EQ(a.max_threads_per_block, b.max_threads_per_block);
  EXPECT_EQ(a.memory_clock_khz, b.memory_clock_khz);
  EXPECT_EQ(a.memory_bus_bits, b.memory_bus_bits);
  expect_same(a.theoretical_gbps, b.theoretical_gbps, "theoretical_gbps");
  expect_same(a.measured_copy_gbps, b.measured_copy_gbps, "measured_copy_gbps");
  expect_same(a.measured_read_gbps, b.measured_read_gbps, "measured_read_gbps");
  EXPECT_EQ(a.read_floor_bytes, b.read_floor_bytes);
  EXPECT_EQ(a.driver_version, b.driver_version);
  EXPECT_EQ(a.runtime_version, b.runtime_version);
  EXPECT_EQ(a.note, b.note);
}

void expect_same(const ExperimentSpec& a, const ExperimentSpec& b) {
  EXPECT_EQ(a.variants, b.variants);
  EXPECT_EQ(a.workspaces, b.workspaces);
  EXPECT_EQ(a.block_sizes, b.block_sizes);
  EXPECT_EQ(a.unroll_factors, b.unroll_factors);
  EXPECT_EQ(a.sizes, b.sizes);
  EXPECT_EQ(a.types, b.types);
  EXPECT_EQ(a.shapes, b.shapes);
  EXPECT_EQ(a.reduce, b.reduce);
  expect_same(a.timing.noise, b.timing.noise, "timing.noise");
  expect_same(a.timing.budget_ms, b.timing.budget_ms, "timing.budget_ms");
  EXPECT_EQ(a.timing.warmup, b.timing.warmup);
  EXPECT_EQ(a.timing.min_samples, b.timing.min_samples);
  EXPECT_EQ(a.timing.max_samples, b.timing.max_samples);
  EXPECT_EQ(a.timing.cold_l2, b.timing.cold_l2);
  EXPECT_EQ(a.baseline, b.baseline);
}

void expect_same(const PointResult& a, const PointResult& b, const std::string& what) {
  EXPECT_EQ(a.point, b.point) << what;
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.message, b.message) << what;
  EXPECT_EQ(a.grid, b.grid) << what;
  expect_same(a.first_kernel, b.first_kernel, what + ".first_kernel");
  expect_same(a.total, b.total, what + ".total");
  expect_same(a.first_samples_ms, b.first_samples_ms, what + ".first_samples_ms");
  expect_same(a.total_samples_ms, b.total_samples_ms, what + ".total_samples_ms");
  expect_same(a.timestamp_floor, b.timestamp_floor, what + ".timestamp_floor");
  expect_same(a.floor_samples_ms, b.floor_samples_ms, what + ".floor_samples_ms");
  EXPECT_EQ(a.event_spans, b.event_spans) << what;
  expect_same(a.gpu_time, b.gpu_time, what + ".gpu_time");
  EXPECT_EQ(a.counts, b.counts) << what;
  EXPECT_EQ(a.noisy, b.noisy) << what;
  ASSERT_EQ(a.speedup.has_value(), b.speedup.has_value()) << what;
  if (a.speedup) expect_same(*a.speedup, *b.speedup, what + ".speedup");
  EXPECT_EQ(a.value, b.value) << what;
  EXPECT_EQ(a.expected, b.expected) << what;
  expect_same(a.abs_error, b.abs_error, what + ".abs_error");
  expect_same(a.rel_error, b.rel_error, what + ".rel_error");
}

void expect_same(const Session& a, const Session& b) {
  EXPECT_EQ(a.schema_version, b.schema_version);
  EXPECT_EQ(a.tool_version, b.tool_version);
  EXPECT_EQ(a.git_commit, b.git_commit);
  EXPECT_EQ(a.created_utc, b.created_utc);
  EXPECT_EQ(a.cancelled, b.cancelled);
  expect_same(a.device, b.device);
  expect_same(a.spec, b.spec);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i)
    expect_same(a.results[i], b.results[i], "results[" + std::to_string(i) + "]");
  ASSERT_EQ(a.read_floors.size(), b.read_floors.size());
  for (std::size_t i = 0; i < a.read_floors.size(); ++i) {
    EXPECT_EQ(a.read_floors[i].bytes, b.read_floors[i].bytes);
    EXPECT_EQ(a.read_floors[i].shape, b.read_floors[i].shape);
    expect_same(a.read_floors[i].time, b.read_floors[i].time, "read_floors.time");
    expect_same(a.read_floors[i].gpu_time, b.read_floors[i].gpu_time, "read_floors.gpu_time");
    EXPECT_EQ(a.read_floors[i].noisy, b.read_floors[i].noisy);
  }
}

using testing::spec_error;

std::string read_error(const std::string& text) {
  return testing::session_error(text);
}

// A valid session as a JSON tree, for tests that break one field.
Json valid_doc() {
  return Json::parse(session_to_json(testing::make_full_session()));
}

TEST(ExportJson, RoundTripKeepsEveryField) {
  const Session s = testing::make_full_session();
  expect_same(s, session_from_json(session_to_json(s)));
}

TEST(ExportJson, RoundTripCompactAndStable) {
  const Session s = testing::make_full_session();
  const std::string compact = session_to_json(s, -1);
  expect_same(s, session_from_json(compact));
  EXPECT_EQ(session_to_json(session_from_json(compact)), session_to_json(s));
}

TEST(ExportJson, DefaultSessionRoundTrips) {
  expect_same(Session{}, session_from_json(session_to_json(Session{})));
}

TEST(ExportJson, DocumentShape) {
  const Json doc = valid_doc();
  EXPECT_EQ(doc.begin().key(), "schema_version");
  EXPECT_EQ(doc["schema_version"], 1);
  const Json& r = doc["results"][0];
  for (const char* key : {"variant", "workspace", "block_size", "unroll", "size", "type", "correct",
                          "status", "first_kernel", "total", "speedup"})
    EXPECT_TRUE(r.contains(key)) << key;
  EXPECT_EQ(r["seed_name"], "reduceUnroll8");
  EXPECT_EQ(r["correct"], true);
  EXPECT_EQ(doc["results"][1]["correct"], false);
  EXPECT_TRUE(doc["results"][1]["speedup"].is_null());
  EXPECT_EQ(doc["results"][1]["rel_error"], "nan");
  EXPECT_EQ(doc["results"][1]["abs_error"], "inf");
  EXPECT_EQ(doc["spec"]["sizes"][1], std::uint64_t(1) << 40);
}

TEST(ExportJson, EmptyTruncatedAndNotJson) {
  EXPECT_EQ(read_error(""), "not JSON: the file is empty");
  EXPECT_EQ(read_error(" \n\t"), "not JSON: the file is empty");
  const std::string full = session_to_json(testing::make_full_session());
  for (std::size_t cut : {std::size_t(1), full.size() / 3, full.size() - 3})
    EXPECT_EQ(read_error(full.substr(0, cut)).rfind("not JSON: ", 0), 0u) << cut;
  EXPECT_EQ(read_error("variant,workspace\nunroll,global\n").rfind("not JSON: ", 0), 0u);
  EXPECT_EQ(read_error("\x89PNG\r\n\x1a\n").rfind("not JSON: ", 0), 0u);
  EXPECT_EQ(read_error("[1, 2]"), "not a ReductionLab session: expected a JSON object");
  EXPECT_EQ(read_error("{\"a\": 1}"), "not a ReductionLab session: schema_version is missing");
}

TEST(ExportJson, SchemaVersion) {
  Json doc = valid_doc();
  doc["schema_version"] = 2;
  EXPECT_EQ(read_error(doc.dump()), "schema_version 2 is newer than this build reads (1)");
  doc["schema_version"] = "1";
  EXPECT_EQ(read_error(doc.dump()), "schema_version: expected an integer");
  doc["schema_version"] = 0;
  EXPECT_EQ(read_error(doc.dump()), "schema_version: 0 is not a valid version");
}

struct BadField {
  std::string pointer;  // JSON pointer to the field to replace (or remove when value is absent)
  std::optional<Json> value;
  std::string error;
};

class ExportJsonBadField : public ::testing::TestWithParam<BadField> {};

TEST_P(ExportJsonBadField, NamesTheField) {
  const BadField& bad = GetParam();
  Json doc = valid_doc();
  // Make results[3] exist with a known shape: the fixture has four results.
  const Json::json_pointer ptr(bad.pointer);
  if (bad.value) {
    doc[ptr] = *bad.value;
  } else {
    doc[ptr.parent_pointer()].erase(ptr.back());
  }
  EXPECT_EQ(read_error(doc.dump()), bad.error);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, ExportJsonBadField,
    ::testing::Values(
        BadField{"/results/3/block_size", Json("1024"),
                 "results[3].block_size: expected an integer"},
        BadField{"/results/3/block_size", Json(1024.5),
                 "results[3].block_size: expected an integer"},
        BadField{"/results/0/block_size", Json(std::int64_t(1) << 40),
                 "results[0].block_size: integer out of range"},
        BadField{"/results/1/size", Json(-5), "results[1].size: expected a non-negative integer"},
        BadField{"/results/0/variant", Json("reduceFoo"),
                 "results[0].variant: unknown variant 'reduceFoo' (not in this build's catalog)"},
        BadField{"/results/0/workspace", Json("texture"),
                 "results[0].workspace: unknown workspace 'texture' (expected global, shared or "
                 "registers)"},
        BadField{"/results/2/type", Json("float64"),
                 "results[2].type: unknown type 'float64' (expected int32 or float32)"},
        BadField{"/results/2/status", Json("meh"), "results[2].status: unknown status 'meh'"},
        BadField{"/results/0/correct", Json(false),
                 "results[0].correct: disagrees with status 'ok'"},
        BadField{"/results/0/speedup", Json("fast"), "results[0].speedup: expected a number"},
        BadField{"/results/0/total", std::nullopt, "results[0].total: missing"},
        BadField{"/results/0/total/median_ms", Json(true),
                 "results[0].total.median_ms: expected a number"},
        BadField{"/results/0/first_samples_ms/3", Json(nullptr),
                 "results[0].first_samples_ms[3]: expected a number"},
        BadField{"/results/0/total_samples_ms", Json(1.0),
                 "results[0].total_samples_ms: expected an array"},
        BadField{"/results/1/message", Json(3), "results[1].message: expected a string"},
        BadField{"/results/0/event_spans", Json(3), "results[0].event_spans: expected 0, 1 or 2"},
        BadField{"/results/0/gpu_time", std::nullopt, "results[0].gpu_time: missing"},
        BadField{"/results/0/floor_samples_ms/0", Json("1 us"),
                 "results[0].floor_samples_ms[0]: expected a number"},
        BadField{"/results/1", Json(7), "results[1]: expected an object"},
        BadField{"/results", Json::object(), "results: expected an array"},
        BadField{"/device/l2_bytes", Json("60 MB"), "device.l2_bytes: expected an integer"},
        BadField{"/device/backend", Json("opencl"),
                 "device.backend: unknown backend 'opencl' (expected cuda or host)"},
        BadField{"/device/name", std::nullopt, "device.name: missing"},
        BadField{"/tool/version", Json(1), "tool.version: expected a string"},
        BadField{"/cancelled", Json("no"), "cancelled: expected true or false"},
        BadField{"/spec/block_sizes/1", Json("1024"), "spec.block_sizes[1]: expected an integer"},
        BadField{"/spec/variants/0", Json("reduceFoo"),
                 "spec.variants[0]: unknown variant 'reduceFoo'"},
        BadField{"/spec/types/0", Json("double"),
                 "spec.types[0]: unknown type 'double' (expected int32 or float32)"},
        BadField{"/spec/timing/cold_l2", Json(1), "spec.timing.cold_l2: expected true or false"},
        BadField{"/spec", std::nullopt, "spec: missing"}));

TEST(ExportJson, SpeedupNullMeansNone) {
  Json doc = valid_doc();
  doc["results"][0]["speedup"] = nullptr;
  EXPECT_FALSE(session_from_json(doc.dump()).results[0].speedup.has_value());
}

TEST(ExportJson, SessionsFromBeforeTheTimestampFloorStillOpen) {
  Json doc = valid_doc();
  for (Json& r : doc["results"])
    for (const char* key : {"timestamp_floor", "floor_samples_ms", "event_spans", "gpu_time"})
      r.erase(key);
  const Session s = session_from_json(doc.dump());
  EXPECT_TRUE(s.results[0].gpu_time.empty());
  EXPECT_EQ(s.results[0].event_spans, 0);
  EXPECT_FALSE(s.results[0].total.empty());
}

// Sessions from before the read floor and the noisy flag: pct_of_copy (a copy is no roof for a
// read) is dropped, noisy follows from the recorded noise and the spec's target.
TEST(ExportJson, SessionsFromBeforeTheReadFloorStillOpen) {
  Json doc = valid_doc();
  doc.erase("read_floors");
  doc["device"].erase("measured_read_gbps");
  doc["device"].erase("read_floor_bytes");
  doc["spec"]["timing"]["noise"] = 0.01;
  for (Json& r : doc["results"]) {
    r.erase("pct_of_read_floor");
    r.erase("noisy");
    r["pct_of_copy"] = 99.5;
  }
  doc["results"][0]["total"]["noise"] = 0.02;
  doc["results"][1]["total"]["noise"] = 0.001;
  const Session s = session_from_json(doc.dump());
  EXPECT_TRUE(s.read_floors.empty());
  EXPECT_EQ(s.device.measured_read_gbps, 0);
  EXPECT_EQ(point_rates(s.results[0], s.device, s.read_floors).pct_of_read_floor, 0);
  EXPECT_TRUE(s.results[0].noisy);
  EXPECT_FALSE(s.results[1].noisy);
  EXPECT_FALSE(s.results[2].noisy);  // failed: nothing measured
}

TEST(ExportJson, ReadFloorFieldsAreChecked) {
  Json doc = valid_doc();
  doc["read_floors"][0]["bytes"] = "many";
  EXPECT_NE(read_error(doc.dump()).find("read_floors[0].bytes"), std::string::npos)
      << read_error(doc.dump());
  doc = valid_doc();
  doc["read_floors"][0].erase("time");
  EXPECT_NE(read_error(doc.dump()).find("read_floors[0].time"), std::string::npos);
  doc = valid_doc();
  doc["results"][0]["noisy"] = "yes";
  EXPECT_NE(read_error(doc.dump()).find("results[0].noisy"), std::string::npos);
}

TEST(ExportJson, UnknownExtraFieldsInSessionAreIgnored) {
  Json doc = valid_doc();
  doc["results"][0]["future_field"] = 1;
  doc["annotations"] = "later versions may add fields";
  EXPECT_EQ(read_error(doc.dump()), "");
}

TEST(SpecJson, RoundTrip) {
  const ExperimentSpec s = testing::make_full_session().spec;
  expect_same(s, spec_from_json(spec_to_json(s)));
}

TEST(SpecJson, MissingFieldsKeepDefaults) {
  const ExperimentSpec defaults;
  expect_same(defaults, spec_from_json("{}"));
  const ExperimentSpec s = spec_from_json(R"({"block_sizes": [128], "timing": {"noise": 0.05}})");
  EXPECT_EQ(s.block_sizes, std::vector<int>{128});
  EXPECT_EQ(s.timing.noise, 0.05);
  EXPECT_EQ(s.timing.budget_ms, defaults.timing.budget_ms);
  EXPECT_EQ(s.sizes, defaults.sizes);
}

TEST(SpecJson, SizesAsPeopleTypeThem) {
  const ExperimentSpec s = spec_from_json(R"({"sizes": ["2^10", 1000003, "2^12..2^14"]})");
  EXPECT_EQ(s.sizes, (std::vector<std::uint64_t>{1024, 1000003, 4096, 8192, 16384}));
  EXPECT_EQ(spec_error(R"({"sizes": ["2^99"]})").rfind("sizes[0]: ", 0), 0u);
}

TEST(SpecJson, BaselineClassicNameBecomesId) {
  EXPECT_EQ(spec_from_json(R"({"baseline": "reduceInterleaved"})").baseline, "interleaved");
  EXPECT_EQ(spec_from_json(R"({"baseline": ""})").baseline, "");
  EXPECT_EQ(spec_error(R"({"baseline": "reduceFoo"})"), "baseline: unknown variant 'reduceFoo'");
}

TEST(SpecJson, VariantsKeepTheirClassicNames) {
  const ExperimentSpec s = spec_from_json(R"({"variants": ["reduceUnroll8", "interleaved"]})");
  EXPECT_EQ(s.variants, (std::vector<std::string>{"reduceUnroll8", "interleaved"}));
}

TEST(SpecJson, BadFiles) {
  EXPECT_EQ(spec_error(""), "not JSON: the file is empty");
  EXPECT_EQ(spec_error("{\"sizes\": [1,").rfind("not JSON: ", 0), 0u);
  EXPECT_EQ(spec_error("42"), "not a spec: expected a JSON object");
  EXPECT_EQ(spec_error(R"({"block_size": [256]})").rfind("block_size: unknown field", 0), 0u);
  EXPECT_EQ(spec_error(R"({"timing": {"budget": 1}})").rfind("timing.budget: unknown field", 0),
            0u);
  EXPECT_EQ(spec_error(R"({"workspaces": "global"})"), "workspaces: expected an array");
  EXPECT_EQ(spec_error(R"({"workspaces": ["gobal"]})"),
            "workspaces[0]: unknown workspace 'gobal' (expected global, shared or registers)");
  EXPECT_EQ(spec_error(R"({"unroll_factors": [2.5]})"), "unroll_factors[0]: expected an integer");
}

}  // namespace
}  // namespace rl
