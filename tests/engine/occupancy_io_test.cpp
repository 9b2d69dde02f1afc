// The CUDA runtime's view of a point's kernels in session files (device/kernel_occupancy.h):
// written and read back unchanged, absent from results without it, and bad fields refused by name.
#include <gtest/gtest.h>

#include <functional>

#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "export_fixtures.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;

std::vector<KernelOccupancy> two_kernels() {
  KernelOccupancy first{"first_kernel", "_Z4treePKiPx", 16384, 1024, 0, 32, 4096, 0, 2, 64};
  KernelOccupancy finish{"finish", "_Z6finishPKxPx", 1, 1024, 0, 24, 8192, 0, 2, 64};
  return {first, finish};
}

TEST(OccupancyIo, ASessionKeepsItAndResultsWithoutItStayWithout) {
  Session session = testing::make_full_session();
  ASSERT_GE(session.results.size(), 2u);
  session.results[0].occupancy = two_kernels();
  const Session back = session_from_json(session_to_json(session, 2));
  EXPECT_EQ(back.results[0].occupancy, two_kernels());
  EXPECT_TRUE(back.results[1].occupancy.empty());
  EXPECT_EQ(back.results[0].occupancy[0].warps_per_sm(), 64);
  EXPECT_DOUBLE_EQ(back.results[0].occupancy[0].fraction(), 1.0);
}

TEST(OccupancyIo, BadFieldsAreRefusedByName) {
  Session session = testing::make_full_session();
  session.results[0].occupancy = two_kernels();
  const Json good = Json::parse(session_to_json(session, 2));
  auto refused = [&](const std::function<void(Json&)>& edit, const std::string& where) {
    Json j = good;
    edit(j["results"][0]["occupancy"]);
    try {
      session_from_json(j.dump());
      ADD_FAILURE() << "accepted: " << j["results"][0]["occupancy"].dump();
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  refused([](Json& o) { o = Json::object(); }, "occupancy: expected an array");
  refused([](Json& o) { o[0].erase("blocks_per_sm"); }, "blocks_per_sm: missing");
  refused([](Json& o) { o[0]["block"] = 4096; }, "occupancy[0].block");
  refused([](Json& o) { o[1]["registers"] = -1; }, "occupancy[1].registers");
  refused([](Json& o) { o[0]["role"] = ""; }, "occupancy[0].role");
  refused([](Json& o) { o[0]["function"] = 7; }, "occupancy[0].function");
}

}  // namespace
}  // namespace rl
