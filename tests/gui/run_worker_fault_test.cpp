// The app's run worker after a point that faults the device (fault_backend.h stands in for a GPU
// fault): the point arrives FAILED with its message, the run finishes with the other points, and
// the same worker runs again afterwards.
#include <gtest/gtest.h>

#include <QSignalSpy>

#include "app_test_support.h"
#include "fault_backend.h"
#include "run_worker.h"

using namespace rl::gui;

namespace {

bool faults(const rl::PointSpec& p) {
  return p.label().rfind("reduceInterleaved/", 0) == 0 && p.size == (1u << 10);
}

}  // namespace

TEST(RunWorkerFault, FaultedPointFailsAndTheWorkerGoesOn) {
  RunWorker worker;
  worker.set_backend_factory(
      [](int) { return std::make_unique<rl::testing::FaultyHostBackend>(faults); });
  rl::ExperimentSpec spec = test::tiny_spec();
  spec.variants = {"reduceNeighbored", "reduceInterleaved"};
  spec.sizes = {1u << 10, 1u << 12};
  std::vector<rl::PointResult> points;
  QObject::connect(&worker, &RunWorker::point_finished,
                   [&](quint64, const rl::PointResult& r) { points.push_back(r); });
  QSignalSpy finished(&worker, &RunWorker::run_finished);
  QSignalSpy failed(&worker, &RunWorker::run_failed);
  auto cancel = std::make_shared<std::atomic<bool>>(false);

  worker.run(1, spec, kHostDevice, cancel);
  ASSERT_EQ(finished.count(), 1);
  EXPECT_EQ(failed.count(), 0);
  ASSERT_EQ(points.size(), 4u);
  int failed_points = 0;
  for (const rl::PointResult& r : points) {
    if (!faults(r.point)) {
      EXPECT_EQ(r.status, rl::PointStatus::Ok) << r.message;
      continue;
    }
    ++failed_points;
    EXPECT_EQ(r.status, rl::PointStatus::Failed);
    EXPECT_NE(r.message.find("cudaErrorIllegalAddress"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("was reset"), std::string::npos) << r.message;
  }
  EXPECT_EQ(failed_points, 1);

  points.clear();
  spec.sizes = {1u << 12};
  worker.run(2, spec, kHostDevice, cancel);
  ASSERT_EQ(finished.count(), 2);
  ASSERT_EQ(points.size(), 2u);
  for (const rl::PointResult& r : points) EXPECT_EQ(r.status, rl::PointStatus::Ok) << r.message;
}
