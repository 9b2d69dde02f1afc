// What open sessions are called (engine/views/session_names.h): the device alone while it is
// the only one of its name, then the time it was made, then a number; the person's own names kept.
#include <gtest/gtest.h>

#include "engine/views/session_names.h"

namespace rl {
namespace {

TEST(SessionNames, TheDeviceAloneUntilTwoShareIt) {
  EXPECT_EQ(session_time_label("2026-11-29T14:02:11Z"), "11-29 14:02");
  EXPECT_EQ(session_time_label(""), "");
  EXPECT_EQ(session_time_label("yesterday"), "");
  const auto names = session_names({{"H200", "2026-11-29T14:02:11Z", false},
                                    {"CPU (host emulation)", "2026-12-01T09:13:00Z", false},
                                    {"H200", "2026-12-01T09:15:30Z", false},
                                    {"H200", "2026-12-01T09:15:59Z", false}});
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], "H200 11-29 14:02");
  EXPECT_EQ(names[1], "CPU (host emulation)");
  EXPECT_EQ(names[2], "H200 12-01 09:15");
  EXPECT_EQ(names[3], "H200 12-01 09:15 (2)");  // the same minute: numbered
}

TEST(SessionNames, GivenNamesAreKeptAndStillDistinct) {
  const auto names =
      session_names({{"before", "2026-11-29T14:02:11Z", true}, {"before", "", true}, {"H200", ""}});
  EXPECT_EQ(names[0], "before");
  EXPECT_EQ(names[1], "before (2)");
  EXPECT_EQ(names[2], "H200");
}

TEST(SessionNames, APointInOneSessionOnlyIsNamedWhole) {
  const PointSpec p{"unroll", Workspace::Shared, 512, 8, 1u << 24, DType::Int32};
  const std::string label = compared_point_label(p);
  EXPECT_NE(label.find("shared"), std::string::npos) << label;
  EXPECT_NE(label.find("B=512"), std::string::npos) << label;
  EXPECT_NE(label.find("N=2^24"), std::string::npos) << label;
  EXPECT_NE(label.find("int32"), std::string::npos) << label;
}

}  // namespace
}  // namespace rl
