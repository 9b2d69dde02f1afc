// The run stream as a GPU worker speaks it to its supervisor (engine/process/stream.h, 1.2): the
// worker's own events (lost, next, counted, multi) read back as written, a later worker's stream
// continuing after the points its supervisor has, the device as measured on each point, and the
// lines a supervisor must not take (a multi event in a one-GPU stream, an end that miscounts).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/measure/runner.h"
#include "engine/process/stream.h"
#include "multi_fixtures.h"

namespace rl {
namespace {

ExperimentSpec three_points() {
  ExperimentSpec s;
  s.variants = {"neighbored"};
  s.block_sizes = {64};
  s.sizes = {1000, 2000, 3000};
  s.timing.budget_ms = 2;
  s.timing.min_samples = 3;
  s.timing.max_samples = 5;
  s.baseline = "neighbored";
  return s;
}

// A host run streamed as a worker streams it.
std::vector<std::string> worker_lines(Session* done) {
  Runner runner(make_host_backend());
  const ExperimentSpec spec = three_points();
  std::vector<std::string> lines{stream_start_line(runner.device(), spec, expand(spec).size())};
  RunCallbacks cb;
  cb.on_progress = [&](const Progress& p) {
    if (p.done < p.total) lines.push_back(stream_progress_line(p));
  };
  cb.on_session = [&](const Session& s) { lines.push_back(stream_point_line(s)); };
  *done = runner.run(spec, cb);
  lines.push_back(stream_end_line(*done, expand(spec).size()));
  return lines;
}

std::string error_of(StreamReader& reader, const std::string& line) {
  try {
    reader.feed(line);
  } catch (const StreamError& e) {
    return e.what();
  }
  return "";
}

TEST(WorkerStream, TheWorkersOwnEventsReadBackAsWritten) {
  Session done;
  std::vector<std::string> lines = worker_lines(&done);
  StreamReader reader;
  ASSERT_EQ(reader.feed(lines[0]), StreamEvent::Start);
  ASSERT_EQ(reader.feed(lines[1]), StreamEvent::Progress);
  ASSERT_EQ(reader.feed(lines[2]), StreamEvent::Point);
  EXPECT_EQ(reader.feed(stream_next_line()), StreamEvent::Next);
  EXPECT_EQ(reader.feed(stream_lost_line("cudaErrorIllegalAddress: an illegal memory access")),
            StreamEvent::Lost);
  EXPECT_EQ(reader.message(), "cudaErrorIllegalAddress: an illegal memory access");
  StreamReader counted;
  const std::string step = R"({"steps":1,"arch":"sm_90","functions":[]})";
  EXPECT_EQ(counted.feed(stream_counted_line(step)), StreamEvent::Counted);
  EXPECT_EQ(counted.counted_json(), step);
  StreamReader early;
  EXPECT_EQ(error_of(early, stream_next_line()), "a next event before any point");
}

TEST(WorkerStream, EachPointCarriesTheDeviceAsMeasured) {
  Session done;
  const std::vector<std::string> lines = worker_lines(&done);
  StreamReader reader;
  for (const std::string& line : lines) reader.feed(line);
  ASSERT_TRUE(reader.ended());
  EXPECT_EQ(reader.session().device.label(), done.device.label());
  EXPECT_EQ(reader.session().device.measured_read_gbps, done.device.measured_read_gbps);
  // A point line without a device (a 1.1 writer) leaves the start's.
  StreamReader old;
  old.feed(lines[0]);
  std::string point = lines[2];
  point.replace(point.find(",\"device\":"), point.rfind('}') - point.find(",\"device\":"), "");
  EXPECT_EQ(old.feed(point), StreamEvent::Point);
  EXPECT_EQ(old.session().results.size(), 1u);
}

TEST(WorkerStream, ALaterWorkersStreamContinuesAfterTheKnownPoints) {
  Session done;
  const std::vector<std::string> lines = worker_lines(&done);
  ASSERT_EQ(done.results.size(), 3u);
  Session known = done;
  known.results.resize(2);
  // The later worker was started --from 2: its start, then point 2 and the end.
  StreamReader reader;
  reader.continue_after(known);
  ASSERT_EQ(reader.feed(lines[0]), StreamEvent::Start);
  EXPECT_EQ(reader.session().results.size(), 2u);
  const std::string point0 = lines[2];
  EXPECT_NE(error_of(reader, point0).find("point 0 arrived where point 2 was expected"),
            std::string::npos);
  StreamReader fresh;
  fresh.continue_after(known);
  fresh.feed(lines[0]);
  for (std::size_t i = 5; i < lines.size(); ++i) fresh.feed(lines[i]);  // progress 2, point 2, end
  EXPECT_TRUE(fresh.ended());
  EXPECT_EQ(fresh.session().results.size(), 3u);
  EXPECT_EQ(fresh.counts().ok, 3u);
  // Known points that are not the spec's: refused at the start.
  Session other = known;
  other.results[1].point.size = 7;
  StreamReader wrong;
  wrong.continue_after(other);
  EXPECT_NE(error_of(wrong, lines[0]).find("the start event's spec is not the run's: point 1"),
            std::string::npos);
}

TEST(WorkerStream, AMultiGpuRunIsItsSessionAfterEachPointThenItsEnd) {
  const MultiSession all = testing::make_multi_session();
  MultiSession s = all;
  s.points.resize(2);
  StreamReader reader;
  EXPECT_EQ(reader.feed(stream_notice_line("measuring read floors")), StreamEvent::Notice);
  ASSERT_EQ(reader.feed(stream_multi_line(s)), StreamEvent::Multi);
  ASSERT_TRUE(reader.multi());
  EXPECT_EQ(reader.multi()->points.size(), 2u);
  s.points.resize(1);
  EXPECT_NE(error_of(reader, stream_multi_line(s)).find("of 1 points after 2"), std::string::npos);
  s = all;
  s.cancelled = true;
  ASSERT_EQ(reader.feed(stream_multi_line(s)), StreamEvent::Multi);
  ASSERT_EQ(reader.feed(stream_multi_end_line(s)), StreamEvent::End);
  EXPECT_TRUE(reader.ended());
  EXPECT_TRUE(reader.multi()->cancelled);
  EXPECT_EQ(reader.multi()->points.size(), all.points.size());
  EXPECT_NE(error_of(reader, stream_multi_line(s)).find("after the end"), std::string::npos);
}

TEST(WorkerStream, ASupervisorDoesNotMixTheTwoKindsOfRun) {
  Session done;
  const std::vector<std::string> lines = worker_lines(&done);
  StreamReader one;
  one.feed(lines[0]);
  EXPECT_NE(error_of(one, stream_multi_line(testing::make_multi_session()))
                .find("a multi event in a one-GPU run's stream"),
            std::string::npos);
  StreamReader multi;
  EXPECT_NE(error_of(multi, stream_multi_end_line(testing::make_multi_session()))
                .find("an end event before the start"),
            std::string::npos);
}

}  // namespace
}  // namespace rl
