// A cancel while a large input is being made acts at once: the generator looks at the cancel
// flag between chunks (engine/experiment/input_data.h), so Ctrl-C during the set-up of 2^29
// elements ends the run with nothing measured and the files written, not after the whole input is
// made.
#include <gtest/gtest.h>

#include "cli_process.h"
#include "engine/io/export.h"

namespace rl::testing {
namespace {

TEST(CliSetupCancel, CtrlCWhileTheInputIsMadeEndsTheRunAtOnce) {
  TempDir dir;
  const std::string json = dir.file("big.json");
  CliProcess p(
      {"run", "--device", "cpu", "--variants", "interleaved", "--sizes", "2^29", "--json", json});
  // The table's header is printed before the first point's input is made.
  ASSERT_TRUE(p.wait_for_output("status", std::chrono::seconds(60))) << p.err();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the handlers are in place
  p.signal(SIGINT);
  const auto sent = std::chrono::steady_clock::now();
  EXPECT_EQ(p.wait(), 130) << p.err();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  // Making 2^29 elements whole takes several seconds on one core; in chunks a cancel acts
  // within one chunk. The bound is loose: a shared machine may stall the child for a while.
  EXPECT_LT(seconds, 5.0);
  const Session s = session_from_json(slurp(json));
  EXPECT_TRUE(s.cancelled);
  EXPECT_TRUE(s.results.empty());
  EXPECT_NE(p.out().find("0 of 1 points"), std::string::npos) << p.out();
}

}  // namespace
}  // namespace rl::testing
