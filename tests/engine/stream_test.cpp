// The run stream (engine/process/stream.h): what the writer sends is what the reader builds, point
// by point; a newer or older major version, a line that is not the stream, a point out of order and
// a bad field are each refused with the reason; a login shell's greeting before the start is not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/measure/runner.h"
#include "engine/process/stream.h"

namespace rl {
namespace {

ExperimentSpec small_spec() {
  ExperimentSpec s;
  s.variants = {"neighbored", "interleaved"};
  s.block_sizes = {64};
  s.sizes = {1000, 4096};
  s.timing.budget_ms = 2;
  s.timing.min_samples = 3;
  s.timing.max_samples = 5;
  s.baseline = "neighbored";
  return s;
}

// A host run as the CLI streams it: start, progress and point lines, then the end.
struct Streamed {
  Session session;
  std::vector<std::string> lines;
};

Streamed stream_a_run() {
  Runner runner(make_host_backend());
  Streamed out;
  const ExperimentSpec spec = small_spec();
  out.lines.push_back(stream_start_line(runner.device(), spec, expand(spec).size()));
  RunCallbacks cb;
  cb.on_progress = [&](const Progress& p) { out.lines.push_back(stream_progress_line(p)); };
  cb.on_session = [&](const Session& s) { out.lines.push_back(stream_point_line(s)); };
  out.session = runner.run(spec, cb);
  out.lines.push_back(stream_end_line(out.session, expand(spec).size()));
  return out;
}

std::string error_of(StreamReader& reader, const std::string& line) {
  try {
    reader.feed(line);
  } catch (const StreamError& e) {
    return e.what();
  }
  return "";
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST(Stream, TheReaderBuildsTheSessionTheWriterRan) {
  const Streamed run = stream_a_run();
  StreamReader reader;
  std::size_t points_seen = 0;
  for (const std::string& line : run.lines) {
    ASSERT_EQ(line.back(), '\n');
    ASSERT_EQ(line.find('\n'), line.size() - 1) << "one line per event";
    EXPECT_NE(line.find("\"schema_version\":\"" + stream_version() + "\""), std::string::npos)
        << line;
    const auto event = reader.feed(line);
    ASSERT_TRUE(event);
    if (*event == StreamEvent::Point) {
      ++points_seen;
      EXPECT_EQ(reader.session().results.size(), points_seen) << "point by point";
    }
  }
  EXPECT_TRUE(reader.started());
  EXPECT_TRUE(reader.ended());
  EXPECT_EQ(points_seen, 4u);
  const Session& got = reader.session();
  EXPECT_EQ(got.device.backend, "host");
  EXPECT_EQ(got.spec.variants, run.session.spec.variants);
  ASSERT_EQ(got.results.size(), run.session.results.size());
  for (std::size_t i = 0; i < got.results.size(); ++i) {
    EXPECT_EQ(got.results[i].point, run.session.results[i].point);
    EXPECT_EQ(got.results[i].status, run.session.results[i].status);
    EXPECT_EQ(got.results[i].total_samples_ms, run.session.results[i].total_samples_ms);
    EXPECT_EQ(got.results[i].speedup, run.session.results[i].speedup) << "recomputed as local";
  }
  EXPECT_FALSE(got.cancelled);
  EXPECT_EQ(reader.counts().ok, 4u);
  EXPECT_EQ(reader.counts().points, 4u);
}

TEST(Stream, ANewerOrOlderMajorVersionIsRefusedWithTheReason) {
  const Streamed run = stream_a_run();
  StreamReader newer;
  const std::string v2 = replaced(run.lines[0], "\"" + stream_version() + "\"", "\"2.0\"");
  const std::string why = error_of(newer, v2);
  EXPECT_NE(why.find("schema version 2.0, newer than this build reads (1.x)"), std::string::npos)
      << why;
  EXPECT_NE(why.find("update ReductionLab on this machine"), std::string::npos) << why;
  EXPECT_FALSE(newer.started());
  StreamReader older;
  const std::string v0 =
      error_of(older, replaced(run.lines[0], "\"" + stream_version() + "\"", "\"0.9\""));
  EXPECT_NE(v0.find("older than this build reads"), std::string::npos) << v0;
  EXPECT_EQ(stream_line_version(v2), "2.0");
}

TEST(Stream, ANewerMinorVersionIsRead) {
  const Streamed run = stream_a_run();
  StreamReader reader;
  // A later 1.x may add fields and events: both are passed over.
  ASSERT_TRUE(reader.feed(
      replaced(run.lines[0], "\"" + stream_version() + "\"", "\"1.7\",\"extra\":[1,2]")));
  EXPECT_FALSE(reader.feed(R"({"schema_version":"1.7","event":"heartbeat"})"));
  EXPECT_EQ(error_of(reader, R"({"schema_version":"1.0","event":"heartbeat"})"),
            "line 3: unknown event 'heartbeat'");
}

TEST(Stream, AGreetingBeforeTheStartIsSetAsideGarbageAfterItIsRefused) {
  const Streamed run = stream_a_run();
  StreamReader reader;
  EXPECT_FALSE(reader.feed("Welcome to gpu-box! Last login: Mon"));
  EXPECT_FALSE(reader.feed(""));
  ASSERT_EQ(reader.ignored_lines().size(), 1u);
  ASSERT_TRUE(reader.feed(run.lines[0]));
  ASSERT_TRUE(reader.feed(run.lines[1]));
  const std::string why = error_of(reader, "Segmentation fault (core dumped)");
  EXPECT_EQ(why, "line 5 is not part of the stream: Segmentation fault (core dumped)");
  EXPECT_NE(why.find("Segmentation fault"), std::string::npos) << why;
  EXPECT_EQ(error_of(reader, R"({"event":"point"})"),
            "line 6 is JSON but not a ReductionLab stream line (no schema_version): "
            R"({"event":"point"})");
  EXPECT_NE(error_of(reader, R"({"schema_version":"1.0","event":"point","in)").find("not part"),
            std::string::npos)
      << "a line cut short";
  EXPECT_TRUE(reader.started()) << "what was read is kept";
}

TEST(Stream, PointsOutOfOrderOrWithABadFieldAreRefused) {
  const Streamed run = stream_a_run();
  std::vector<std::string> points;
  for (const std::string& l : run.lines)
    if (l.find("\"event\":\"point\"") != std::string::npos) points.push_back(l);
  ASSERT_EQ(points.size(), 4u);
  StreamReader reader;
  reader.feed(run.lines[0]);
  EXPECT_EQ(error_of(reader, points[1]), "point 1 arrived where point 0 was expected");
  EXPECT_EQ(error_of(reader, replaced(points[0], "\"block_size\":64", "\"block_size\":\"x\"")),
            "the point event: point.result.block_size: expected an integer");
  EXPECT_EQ(reader.session().results.size(), 0u);
  EXPECT_EQ(error_of(reader, points[0]), "");
  EXPECT_EQ(reader.session().results.size(), 1u);
  // The end must count what arrived.
  const std::string why = error_of(reader, run.lines.back());
  EXPECT_NE(why.find("counts 4 finished points, but 1 arrived"), std::string::npos) << why;
}

// What a hostile or broken far side may send is refused with a reason, never a crash or a
// library's raw message.
TEST(Stream, HostileLinesAreRefusedWithAReason) {
  const Streamed run = stream_a_run();
  const std::vector<std::string> hostile = {
      std::string(100000, '[') + "]",
      "{\"schema_version\":\"1.0\",\"event\":\"notice\",\"message\":\"a\\u0000b\"}",
      "{\"schema_version\":\"1.0\",\"event\":\"notice\",\"message\":\"\xff\xfe\"}",
      "{\"schema_version\":\"1.0\",\"event\":\"progress\",\"done\":1e999,\"total\":4}",
      "{\"schema_version\":\"1.0\",\"event\":\"progress\",\"done\":-1,\"total\":4}",
      "{\"schema_version\":1,\"event\":\"end\"}",
      "{\"schema_version\":\"1.0\",\"event\":7}",
      replaced(run.lines[0], "\"version\":\"", "\"version\":3,\"x\":\""),
  };
  for (const std::string& line : hostile) {
    StreamReader reader;
    if (line.find("\"start\"") == std::string::npos) reader.feed(run.lines[0]);
    const std::string why = error_of(reader, line);
    EXPECT_FALSE(why.empty()) << line.substr(0, 80);
    EXPECT_EQ(why.find("[json.exception"), std::string::npos) << why;
  }
}

TEST(Stream, NoticesErrorsAndDevices) {
  StreamReader reader;
  EXPECT_EQ(reader.feed(stream_error_line("--device cuda:3: no such GPU")), StreamEvent::Error);
  EXPECT_EQ(reader.message(), "--device cuda:3: no such GPU");
  EXPECT_EQ(reader.feed(stream_notice_line("a worker was lost")), StreamEvent::Notice);

  Discovery d;
  d.no_gpu_reason = "cudaGetDeviceCount: no CUDA-capable device is detected";
  d.host.name = "Some CPU";
  d.host.note = "host emulation";
  DeviceInfo gpu;
  gpu.backend = "cuda";
  gpu.index = 0;
  gpu.name = "NVIDIA H200";
  gpu.cc_major = 9;
  d.gpus.push_back(gpu);
  StreamReader devices;
  EXPECT_EQ(devices.feed(stream_devices_line(d)), StreamEvent::Devices);
  ASSERT_TRUE(devices.discovery());
  ASSERT_EQ(devices.discovery()->gpus.size(), 1u);
  EXPECT_EQ(devices.discovery()->gpus[0].name, "NVIDIA H200");
  EXPECT_EQ(devices.discovery()->host.name, "Some CPU");
  EXPECT_EQ(devices.discovery()->no_gpu_reason, d.no_gpu_reason);
}

}  // namespace
}  // namespace rl
