// The multi-GPU experiment without a GPU: device lists, shards, points, validation, the NCCL
// loader's reasons, and the verification of values read back.
#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/experiment/multi_spec.h"
#include "engine/multi/multi_run.h"
#include "multi/multi_point.h"
#include "multi/nccl_api.h"

namespace rl::testing {
namespace {

// Two made-up GPUs for validation only (never shown as data).
std::vector<DeviceInfo> two_gpus() {
  std::vector<DeviceInfo> out;
  for (int i = 0; i < 2; ++i) {
    DeviceInfo d;
    d.backend = "cuda";
    d.index = i;
    d.name = "test GPU";
    d.cc_major = 9;
    d.sm_count = 132;
    d.l2_bytes = std::size_t(50) << 20;
    d.total_memory = d.free_memory = std::size_t(16) << 30;
    out.push_back(d);
  }
  return out;
}

bool any_contains(const std::vector<std::string>& messages, const std::string& part) {
  for (const std::string& m : messages)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

std::string joined(const std::vector<std::string>& messages) {
  std::string out;
  for (const std::string& m : messages) out += m + "\n";
  return out;
}

TEST(MultiSpec, DeviceListsParseAndBadOnesSayWhy) {
  EXPECT_EQ(parse_device_list("cuda:0,cuda:1", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_device_list("cuda:1, cuda:0", 2), (std::vector<int>{1, 0}));
  auto message = [](std::string_view text, int count) {
    try {
      parse_device_list(text, count);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("cuda:0,cuda:0", 2).find("named twice"), std::string::npos);
  EXPECT_NE(message("cuda:2", 2).find("no such GPU; 2 found (cuda:0..cuda:1)"), std::string::npos);
  EXPECT_NE(message("cpu", 2).find("cannot take part"), std::string::npos);
  EXPECT_NE(message("gpu0", 2).find("expected cuda:N"), std::string::npos);
  EXPECT_NE(message("cuda:0,,cuda:1", 2).find("empty item"), std::string::npos);
  EXPECT_NE(message("cuda:-1", 2).find("expected cuda:N"), std::string::npos);
}

TEST(MultiSpec, GpuCountsParse) {
  EXPECT_EQ(parse_gpu_count("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_gpu_count("2", 3), (std::vector<int>{0, 1}));
  EXPECT_THROW(parse_gpu_count("4", 3), Error);
  EXPECT_THROW(parse_gpu_count("0", 3), Error);
  EXPECT_THROW(parse_gpu_count("two", 3), Error);
  EXPECT_THROW(parse_gpu_count("all", 0), Error);
}

TEST(MultiSpec, ShardsCoverTheInputContiguously) {
  for (std::uint64_t n : {1ull, 7ull, 1000003ull, 1ull << 28})
    for (int g : {1, 2, 3, 8}) {
      if (n < std::uint64_t(g)) continue;
      const std::vector<std::uint64_t> s = shard_sizes(n, g);
      ASSERT_EQ(s.size(), std::size_t(g));
      EXPECT_EQ(std::accumulate(s.begin(), s.end(), std::uint64_t(0)), n);
      EXPECT_LE(s.front() - s.back(), 1u);  // the first N % G one element larger
      EXPECT_GE(s.back(), 1u);
    }
}

TEST(MultiSpec, PointsGoBySizeTypeCountThenExchange) {
  MultiSpec s;
  s.devices = {0, 1};
  s.sizes = {1 << 20, 1 << 22};
  const std::vector<MultiPointSpec> points = expand(s);
  ASSERT_EQ(points.size(), 2u * 2u * 4u);  // sizes x counts 1..2 x exchanges
  EXPECT_EQ(points[0], (MultiPointSpec{Exchange::NcclAllReduce, 1, 1 << 20, DType::Int32}));
  EXPECT_EQ(points[4].gpu_count, 2);
  EXPECT_EQ(points[8].size, std::uint64_t(1) << 22);
  s.gpu_counts = {2, 2};
  EXPECT_EQ(effective_gpu_counts(s), std::vector<int>{2});
}

TEST(MultiSpec, DefaultsAreValidOnTwoGpus) {
  MultiSpec s;
  s.devices = {0, 1};
  EXPECT_TRUE(validate(s, two_gpus()).empty()) << joined(validate(s, two_gpus()));
}

TEST(MultiSpec, ValidationNamesEveryBadValue) {
  MultiSpec s;
  s.devices = {0, 3, 0};
  s.gpu_counts = {4};
  const auto errors = validate(s, two_gpus());
  EXPECT_TRUE(any_contains(errors, "device cuda:3: no such GPU")) << joined(errors);
  EXPECT_TRUE(any_contains(errors, "device cuda:0: named twice")) << joined(errors);
  EXPECT_TRUE(any_contains(errors, "GPU count 4")) << joined(errors);

  MultiSpec small;
  small.devices = {0, 1};
  small.sizes = {1};
  EXPECT_TRUE(any_contains(validate(small, two_gpus()), "cannot be split over 2 GPUs"));

  MultiSpec global;
  global.devices = {0};
  global.variant = "interleaved";
  global.workspace = Workspace::Global;
  global.unroll = 1;
  EXPECT_TRUE(any_contains(validate(global, two_gpus()), "workspace global"));
  global.workspace = Workspace::Shared;
  EXPECT_TRUE(validate(global, two_gpus()).empty()) << joined(validate(global, two_gpus()));

  // The epoch pass keeps its total in its scratch: not a local kernel the exchange can read.
  MultiSpec epoch;
  epoch.devices = {0, 1};
  use_local_variant(epoch, *find_variant_by_id("epoch_pass"));
  EXPECT_TRUE(any_contains(validate(epoch, two_gpus()), "variant epoch_pass"))
      << joined(validate(epoch, two_gpus()));

  std::vector<DeviceInfo> small_gpus = two_gpus();  // 2 GiB each: 2^29 int32 fits in halves
  for (DeviceInfo& d : small_gpus) d.total_memory = d.free_memory = std::size_t(2) << 30;
  MultiSpec huge;
  huge.devices = {0, 1};
  huge.sizes = {std::uint64_t(1) << 29};
  EXPECT_TRUE(any_contains(validate(huge, small_gpus), "cuda:0 needs"))
      << joined(validate(huge, small_gpus));
  huge.gpu_counts = {2};
  EXPECT_TRUE(any_contains(validate(huge, small_gpus), "gather_shards"))  // the root holds all N
      << joined(validate(huge, small_gpus));
  huge.exchanges = {Exchange::NcclAllReduce};
  EXPECT_TRUE(validate(huge, small_gpus).empty()) << joined(validate(huge, small_gpus));
}

TEST(MultiNccl, AMissingLibraryIsUnavailableSayingWhatWasTried) {
  const NcclStatus s = load_nccl({"/nonexistent/libnccl.so.2"});
  EXPECT_FALSE(s.available);
  EXPECT_NE(s.text.find("unavailable"), std::string::npos) << s.text;
  if (s.text.find("this build has no NCCL") != std::string::npos) return;  // built without nccl.h
  EXPECT_NE(s.text.find("/nonexistent/libnccl.so.2"), std::string::npos) << s.text;
  EXPECT_NE(s.text.find("RL_NCCL_LIBRARY"), std::string::npos) << s.text;
}

// A file that loads but is no NCCL (the C library, always there): every function it lacks named
// in one reason, after the file's name.
TEST(MultiNccl, ALibraryWithoutItsFunctionsNamesThemAll) {
  const NcclStatus s = load_nccl({"libc.so.6"});
  EXPECT_FALSE(s.available);
  if (s.text.find("this build has no NCCL") != std::string::npos) return;  // built without nccl.h
  EXPECT_NE(
      s.text.find("\n  libc.so.6: has no ncclGetVersion, ncclGetErrorString, "
                  "ncclGetLastError, ncclCommInitAll, ncclCommDestroy, ncclGroupStart, "
                  "ncclGroupEnd, ncclAllReduce, ncclReduce (an NCCL 2.x library is needed)\n"),
      std::string::npos)
      << s.text;
}

TEST(MultiNccl, TheEnvironmentNamesTheOnlyCandidate) {
  const char* before = std::getenv("RL_NCCL_LIBRARY");
  const std::string saved = before ? before : "";
  setenv("RL_NCCL_LIBRARY", "/elsewhere/libnccl.so.2", 1);
  EXPECT_EQ(nccl_library_candidates(), std::vector<std::string>{"/elsewhere/libnccl.so.2"});
  if (before)
    setenv("RL_NCCL_LIBRARY", saved.c_str(), 1);
  else
    unsetenv("RL_NCCL_LIBRARY");
  EXPECT_EQ(nccl_library_candidates().front(), before ? saved : "libnccl.so.2");
}

TEST(MultiNccl, StatusSaysWhichOrWhyNot) {
  const NcclStatus s = nccl_status();
  if (s.available) {
    EXPECT_EQ(s.text.rfind("NCCL 2.", 0), 0u) << s.text;
    EXPECT_GE(s.version, 20000);
  } else {
    EXPECT_EQ(s.text.rfind("unavailable: ", 0), 0u) << s.text;
  }
}

MultiPoint two_gpu_point(Exchange e) {
  MultiPoint p;
  p.point = {e, 2, 10, DType::Int32};
  p.devices = {0, 1};
  p.gpus.resize(2);
  p.gpus[0].device = 0;
  p.gpus[0].elements = 5;
  p.gpus[1].device = 1;
  p.gpus[1].elements = 5;
  return p;
}

TEST(MultiVerify, Int32TotalsAndPartialsExactly) {
  ExpectedSums x;
  x.shard_i64 = {10, 20};
  x.total_i64 = 30;
  RigValues v;
  v.partial_i64 = {10, 20};
  v.total_i64 = {30, 30};
  v.partial_f32 = v.total_f32 = {0, 0};
  MultiPoint p = two_gpu_point(Exchange::NcclAllReduce);
  verify_multi(v, x, &p);
  EXPECT_EQ(p.status, PointStatus::Ok) << p.message;
  EXPECT_EQ(p.value, "30");
  EXPECT_EQ(p.gpus[1].partial, "20");

  v.total_i64 = {30, 29};  // the second GPU's all-reduce went wrong
  verify_multi(v, x, &p);
  EXPECT_EQ(p.status, PointStatus::Wrong);
  EXPECT_NE(p.message.find("cuda:1's total 29"), std::string::npos) << p.message;

  MultiPoint reduce = two_gpu_point(Exchange::NcclReduce);  // only the root's total counts
  verify_multi(v, x, &reduce);
  EXPECT_EQ(reduce.status, PointStatus::Ok) << reduce.message;

  v.partial_i64 = {10, 21};
  verify_multi(v, x, &reduce);
  EXPECT_EQ(reduce.status, PointStatus::Wrong);
  EXPECT_NE(reduce.message.find("cuda:1's partial 21"), std::string::npos) << reduce.message;

  MultiPoint gather = two_gpu_point(Exchange::GatherShards);  // only the root reduces
  verify_multi(v, x, &gather);
  EXPECT_EQ(gather.status, PointStatus::Ok) << gather.message;
}

TEST(MultiVerify, Float32WithinTheTolerance) {
  ExpectedSums x;
  x.shard_f64 = {1000.0, 2000.0};
  x.total_f64 = 3000.0;
  RigValues v;
  v.partial_i64 = v.total_i64 = {0, 0};
  v.partial_f32 = {1000.01f, 2000.0f};
  v.total_f32 = {3000.02f, 0};
  MultiPoint p = two_gpu_point(Exchange::PeerPartials);
  p.point.type = DType::Float32;
  verify_multi(v, x, &p);
  EXPECT_EQ(p.status, PointStatus::Ok) << p.message;
  v.total_f32 = {3100.0f, 0};
  verify_multi(v, x, &p);
  EXPECT_EQ(p.status, PointStatus::Wrong);
}

TEST(MultiSummary, TheSlowestGpuSetsTheTotalAndTheExchangeIsTheRest) {
  MultiPoint p = two_gpu_point(Exchange::NcclAllReduce);
  std::vector<std::vector<RankTimes>> samples;
  for (int i = 0; i < 5; ++i) samples.push_back({{1.0, 0.5, 1.5}, {1.2, 0.4, 1.6}});
  summarize_multi(samples, &p);
  EXPECT_DOUBLE_EQ(p.times.total.median_ms, 1.6);
  EXPECT_DOUBLE_EQ(p.times.local.median_ms, 1.2);
  EXPECT_NEAR(p.times.exchange.median_ms, 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(p.gpus[0].times.local.median_ms, 1.0);
  EXPECT_EQ(p.gpus[1].times.total.samples, 5);
  EXPECT_NEAR(p.total_gbps(), 10 * 4 / 1.6 / 1e6, 1e-15);

  MultiPoint gather = two_gpu_point(Exchange::GatherShards);  // the root alone is timed
  std::vector<std::vector<RankTimes>> root_only(3, {{2.0, 1.0, 3.0}, {}});
  summarize_multi(root_only, &gather);
  EXPECT_DOUBLE_EQ(gather.times.exchange.median_ms, 1.0);
  EXPECT_TRUE(gather.gpus[1].times.total.empty());
}

}  // namespace
}  // namespace rl::testing

namespace rl {
namespace {

// The exchange list as the app's field and --exchange take it: "all", names with or without
// spaces after the commas, repeats dropped; a bad name refused naming it.
TEST(MultiSpecGrammar, ExchangeListsAndTheGpusField) {
  EXPECT_EQ(parse_exchange_list("all"), all_exchanges());
  EXPECT_EQ(parse_exchange_list("nccl_allreduce, peer_partials,nccl_allreduce"),
            (std::vector<Exchange>{Exchange::NcclAllReduce, Exchange::PeerPartials}));
  try {
    parse_exchange_list("nccl_allreduce,carrier_pigeon");
    FAIL() << "an unknown exchange accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("carrier_pigeon"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_gpus("all", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_gpus("1", 2), (std::vector<int>{0}));
  EXPECT_EQ(parse_gpus("cuda:1,cuda:0", 2), (std::vector<int>{1, 0}));
  EXPECT_THROW(parse_gpus("cuda:2", 2), Error);
  EXPECT_THROW(parse_gpus("three", 2), Error);
}

}  // namespace
}  // namespace rl
