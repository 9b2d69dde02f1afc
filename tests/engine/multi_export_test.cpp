// Multi-GPU sessions to JSON and back, and to CSV.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/multi_fixtures.h"

namespace rl::testing {
namespace {

std::string read_error(const std::string& text) {
  try {
    multi_session_from_json(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string session_error_text(const std::string& text) {
  try {
    session_from_json(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::size_t lines(const std::string& text) {
  return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

TEST(MultiExport, JsonRoundTripKeepsEveryField) {
  const MultiSession s = make_multi_session();
  const std::string json = multi_session_to_json(s);
  EXPECT_TRUE(is_multi_session_json(json));
  const MultiSession back = multi_session_from_json(json);
  EXPECT_EQ(multi_session_to_json(back), json);
  ASSERT_EQ(back.points.size(), s.points.size());
  EXPECT_EQ(back.points[5].gpus[1].elements, s.points[5].gpus[1].elements);
  EXPECT_EQ(back.points.back().status, PointStatus::Skipped);
  EXPECT_EQ(back.links[1].measured_gbps, 99.5);
  EXPECT_EQ(back.spec.devices, (std::vector<int>{0, 1}));
}

TEST(MultiExport, AOneGpuSessionIsNotAMultiGpuOneAndTheReverse) {
  const std::string json = multi_session_to_json(make_multi_session());
  EXPECT_NE(session_error_text(json).find("multi-GPU session"), std::string::npos);
  EXPECT_FALSE(is_multi_session_json("{\"schema_version\": 1}"));
  EXPECT_FALSE(is_multi_session_json("not json"));
  EXPECT_NE(read_error("{\"schema_version\": 1}").find("kind"), std::string::npos);
}

TEST(MultiExport, BadFieldsAreNamed) {
  std::string json = multi_session_to_json(make_multi_session(), -1);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = json;
    const std::size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  EXPECT_NE(
      read_error(replaced("\"gpu_count\":1", "\"gpu_count\":\"one\"")).find("points[0].gpu_count"),
      std::string::npos);
  EXPECT_NE(read_error(replaced("\"exchange\":\"nccl_allreduce\"", "\"exchange\":\"smoke\""))
                .find("unknown exchange"),
            std::string::npos);
  EXPECT_NE(read_error(replaced("\"gpu_count\":1", "\"gpu_count\":2")).find("gpu_count says 2"),
            std::string::npos);
  EXPECT_NE(read_error(replaced("\"schema_version\":1", "\"schema_version\":9")).find("newer"),
            std::string::npos);
}

TEST(MultiExport, CsvHasARowPerPointAndPerGpu) {
  const MultiSession s = make_multi_session();
  std::size_t gpu_rows = 0, samples = 0;
  for (const MultiPoint& p : s.points) {
    gpu_rows += p.gpus.size();
    samples += p.total_samples_ms.size() * (1 + p.gpus.size());
  }
  const std::string csv = multi_summary_csv(s);
  EXPECT_EQ(lines(csv), 1 + s.points.size() + gpu_rows);
  EXPECT_EQ(csv.rfind("exchange,gpu_count,devices,", 0), 0u);
  EXPECT_NE(csv.find("local_median_ms"), std::string::npos);
  EXPECT_NE(csv.find(",cuda:0;cuda:1,"), std::string::npos);
  EXPECT_NE(csv.find("\"NCCL is unavailable: \"\"quoted\"\", with a comma\""), std::string::npos);
  EXPECT_EQ(lines(multi_samples_csv(s)), 1 + samples);
}

}  // namespace
}  // namespace rl::testing
