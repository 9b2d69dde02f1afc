// The ladder's setting (engine/views/ladder_setting.h): which settings a session holds, the
// default (the classic ladder's experiment when it has the most rungs), the text a person types,
// and the message when the session does not hold what was asked for.
#include <gtest/gtest.h>

#include "engine/views/ladder_setting.h"

namespace rl {
namespace {

PointResult point(const std::string& variant, int unroll, std::uint64_t n, int block,
                  DType t = DType::Int32, PointStatus status = PointStatus::Ok) {
  PointResult r;
  r.point = {variant, Workspace::Global, block, unroll, n, t};
  r.status = status;
  return r;
}

Session sweep(const std::vector<std::uint64_t>& sizes) {
  Session s;
  for (std::uint64_t n : sizes)
    for (const char* v : {"neighbored", "interleaved", "unroll"}) {
      s.results.push_back(point(v, 1, n, 1024));
      s.results.push_back(point(v, 1, n, 1024, DType::Float32));
    }
  return s;
}

TEST(LadderSetting, ListsEverySettingWithItsRungs) {
  Session s = sweep({1u << 16, 1u << 24});
  s.results.push_back(point("unroll", 8, 1u << 24, 1024));
  s.results.push_back(point("cub_device_reduce", 1, 1u << 24, 0));  // joins every block size
  s.results.push_back(point("neighbored", 1, 1u << 20, 512, DType::Int32, PointStatus::Failed));
  const auto all = ladder_settings(s);
  ASSERT_EQ(all.size(), 4u);  // 2^16 and 2^24, int32 and float32; the failed point is none
  EXPECT_EQ(all[0].size, 1u << 16);
  EXPECT_EQ(all[2].size, 1u << 24);
  EXPECT_EQ(all[2].type, DType::Int32);
  EXPECT_EQ(all[2].rungs, 5);  // three, unroll 8, and CUB
  EXPECT_EQ(all[2].label(), "N=2^24 · B=1024 · int32");
  EXPECT_TRUE(all[2].holds(s.results.back() /* failed */) == false);
}

TEST(LadderSetting, DefaultsToTheClassicExperimentNotTheLargestN) {
  // Four sizes with the same rungs (the bundled session's shape): the classic ladder's 2^24, not
  // 2^28.
  const Session s = sweep({1u << 16, 1u << 20, 1u << 24, 1u << 28});
  const auto d = default_ladder_setting(s);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->size, 1u << 24);
  EXPECT_EQ(d->block, 1024);
  EXPECT_EQ(d->type, DType::Int32);
  // Without the classic ladder's N, the most rungs, then the largest N.
  const auto other = default_ladder_setting(sweep({1u << 16, 1u << 20}));
  ASSERT_TRUE(other);
  EXPECT_EQ(other->size, 1u << 20);
  EXPECT_FALSE(default_ladder_setting(Session{}));
  // What is drawn: the choice when the session holds it, else the default.
  const Session four = sweep({1u << 16, 1u << 20, 1u << 24, 1u << 28});
  LadderSetting small{1u << 16, DType::Float32, 1024, 0};
  EXPECT_EQ(drawn_ladder_setting(four, small)->size, 1u << 16);
  EXPECT_EQ(drawn_ladder_setting(four, small)->type, DType::Float32);
  small.block = 512;  // not held
  EXPECT_EQ(drawn_ladder_setting(four, small)->size, 1u << 24);
  EXPECT_EQ(drawn_ladder_setting(four, std::nullopt)->size, 1u << 24);
}

TEST(LadderSetting, ParsesWhatAPersonTypesAndSaysWhatIsWrong) {
  std::string error;
  auto c = parse_ladder_choice("N=2^20,B=256,type=float32", &error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(*c->size, 1u << 20);
  EXPECT_EQ(*c->block, 256);
  EXPECT_EQ(*c->type, DType::Float32);
  c = parse_ladder_choice("2^16", &error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(*c->size, 1u << 16);
  EXPECT_FALSE(c->block);
  for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
           {"N=2^20,,B=256", "empty part"},
           {"B=2048", "more than 1024"},
           {"type=double", "expected int32 or float32"},
           {"N=1,N=2", "N given twice"},
           {"M=3", "unknown part 'M'"},
           {std::string("N=2^20\0x", 8), "NUL"},
       }) {
    error.clear();
    EXPECT_FALSE(parse_ladder_choice(text, &error)) << text;
    EXPECT_NE(error.find(says), std::string::npos) << text << " -> " << error;
  }
}

TEST(LadderSetting, FindsTheChoiceOrNamesWhatTheSessionHolds) {
  const Session s = sweep({1u << 16, 1u << 24});
  std::string error;
  LadderChoice c;
  c.type = DType::Float32;  // N and B from the default (2^24, 1024)
  auto found = find_ladder_setting(s, c, &error);
  ASSERT_TRUE(found) << error;
  EXPECT_EQ(found->size, 1u << 24);
  EXPECT_EQ(found->type, DType::Float32);
  c.size = 1u << 20;
  EXPECT_FALSE(find_ladder_setting(s, c, &error));
  EXPECT_EQ(error,
            "no ladder at N=2^20 · B=1024 · float32 in this session; it holds N=2^16 · B=1024 · "
            "int32; N=2^16 · B=1024 · float32; N=2^24 · B=1024 · int32; N=2^24 · B=1024 · float32");
}

}  // namespace
}  // namespace rl
