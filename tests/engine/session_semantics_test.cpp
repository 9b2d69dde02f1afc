// Values a session or stream cannot hold if it is true, refused with the field named by the one
// check (io/session_checks.h) that the session reader, and so the app's File > Open, the CLI's
// compare and --resume, and the stream reader all go through: a block size of 0 for a variant
// with block sizes of its own, a grid of 0 blocks for a point that ran, N = 2^64 - 1, infinite
// samples, negative GB/s, percentages and speed-ups, a device with -1 SMs, one point twice. (A
// summary's mean may overflow to infinity: a sum past the double range is real.)
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/error.h"
#include "engine/experiment/spec.h"
#include "engine/io/export.h"
#include "engine/process/stream.h"
#include "export_fixtures.h"

namespace rl {
namespace {

using Json = nlohmann::ordered_json;
using testing::session_error;

Json valid_session() {
  return Json::parse(session_to_json(testing::make_full_session()));
}

TEST(SessionSemantics, ImpossibleValuesAreRefusedWithTheFieldNamed) {
  struct Case {
    std::function<void(Json&)> change;
    std::string says;
  };
  const Case cases[] = {
      {[](Json& d) { d["results"][1]["block_size"] = 0; },
       "results[1].block_size: 0, but interleaved runs with a block size of its list"},
      {[](Json& d) { d["results"][0]["grid"] = 0; },
       "results[0].grid: 0 blocks, but the point ran"},
      {[](Json& d) { d["results"][0]["size"] = UINT64_MAX; },
       "results[0].size: 18446744073709551615 is not a size (at most 2^40)"},
      {[](Json& d) { d["results"][1]["total_samples_ms"][2] = "inf"; },
       "results[1].total_samples_ms[2]: inf is not a time (infinite)"},
      {[](Json& d) { d["results"][0]["first_samples_ms"][0] = "-inf"; },
       "results[0].first_samples_ms[0]: -inf is not a time (negative)"},
      {[](Json& d) { d["results"][0]["speedup"] = -3.75; },
       "results[0].speedup: -3.75 is not a speed-up"},
      {[](Json& d) { d["device"]["sm_count"] = -1; },
       "device.sm_count: -1 is not a count (negative)"},
      {[](Json& d) { d["device"]["theoretical_gbps"] = -4823; },
       "device.theoretical_gbps: -4823 is not a bandwidth (GB/s)"},
      {[](Json& d) { d["results"].push_back(d["results"][0]); },
       "results[4]: reduceUnroll8/shared B=1024 U=8 N=2^24 int32 appears twice (each point of a "
       "run "
       "is measured once)"},
  };
  for (const Case& c : cases) {
    Json doc = valid_session();
    c.change(doc);
    EXPECT_EQ(session_error(doc.dump()), c.says);
  }
  // What may be true still reads: CUB DeviceReduce picks its own block (0) and grid (0), a
  // skipped point launched nothing, a rate that measured nothing is NaN.
  Json doc = valid_session();
  doc["results"][3]["grid"] = 0;
  doc["results"][1]["total_gbps"] = "nan";
  doc["results"][0]["variant"] = "cub_device_reduce";
  doc["results"][0]["block_size"] = 0;
  doc["results"][0]["unroll"] = 1;
  doc["results"][0]["grid"] = 0;
  doc["results"][0].erase("counts");
  EXPECT_EQ(session_error(doc.dump()), "");
}

TEST(SessionSemantics, TheStreamReaderRefusesThemAlike) {
  ExperimentSpec spec;
  spec.variants = {"interleaved"};
  spec.sizes = {1024};
  DeviceInfo device = testing::make_full_session().device;
  device.sm_count = -1;
  StreamReader reader;
  try {
    reader.feed(stream_start_line(device, spec, expand(spec).size()));
    ADD_FAILURE() << "read";
  } catch (const StreamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the start event: start.device.sm_count: -1 is not a count (negative)");
  }
  // A point that ran on no blocks, as the session file would refuse it.
  device.sm_count = 132;
  Session s = testing::make_full_session();
  s.device = device;
  s.spec = spec;
  s.results = {testing::make_full_session().results[1]};
  s.results[0].point.size = 1024;
  s.results[0].grid = 0;
  StreamReader second;
  second.feed(stream_start_line(device, spec, 1));
  try {
    second.feed(stream_point_line(s));
    ADD_FAILURE() << "read";
  } catch (const StreamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the point event: point.result.grid: 0 blocks, but the point ran");
  }
}

}  // namespace
}  // namespace rl
