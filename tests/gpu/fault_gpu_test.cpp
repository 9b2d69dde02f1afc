// A GPU fault survived. A point whose kernel writes through a bad pointer
// (cudaErrorIllegalAddress, sticky) fails with the CUDA error, the call and the point named; the
// finished points are kept and the remaining points run and verify.
// - Supervised (what the CLI and the app do: engine/process/supervisor.h): the points run in worker
//   processes (fault_worker.cpp, beside this binary); the worker that faulted ends and a fresh one
//   runs the rest. This process never touches the faulted context.
// - In one process (the fallback without the worker executable): the backend resets the device;
//   where CUDA does not let the context be created again (the H200), the later points fail saying
//   the device was lost. That run happens in a child process of its own (a death test in
//   "threadsafe" style: the binary is executed again, not forked), because cudaDeviceReset() drops
//   every CUDA resource of the process, the shared test backend's (gpu_fixture.h) included.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "beside_this_test.h"
#include "engine/device/device.h"
#include "engine/measure/runner.h"
#include "engine/process/supervisor.h"
#include "fault_kernel.h"
#include "fault_points.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

using testing::fault_spec;
using testing::is_fault_point;
using testing::kFaultSize;
using testing::kLaterSize;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs the ladder with the fault on (kFaultVariant, kFaultSize), prints every check that did not
// hold to stderr, and exits 0 after printing "fault survived" when all held.
[[noreturn]] void run_with_fault() {
  std::vector<std::string> problems;
  auto check = [&](bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  };
  try {
    LaunchOverride fault;
    fault.applies = is_fault_point;
    fault.launch = [](void* stream) {
      return int(testing::launch_illegal_address_kernel(static_cast<cudaStream_t>(stream)));
    };
    Runner runner(make_cuda_backend(discover_devices().gpus.front().index, std::move(fault)));
    std::size_t reported = 0;
    RunCallbacks cb;
    cb.on_result = [&](const PointResult&) { ++reported; };
    const Session s = runner.run(fault_spec({kFaultSize, kLaterSize}), cb);
    check(s.results.size() == 4, "4 results, got " + std::to_string(s.results.size()));
    check(reported == 4, "4 results reported, got " + std::to_string(reported));
    check(!s.cancelled, "the session is not cancelled");
    // Before the fault: measured. The fault: FAILED, naming the error, the call and the point.
    // After it: measured again where the driver let the context be created again; where it did
    // not (CUDA documents cudaErrorIllegalAddress as leaving the process unable to go on), FAILED
    // saying the device was lost and why, never a crash.
    bool after = false, lost = false;
    for (const PointResult& r : s.results) {
      const bool faulted = is_fault_point(r.point);
      const std::string label = r.point.label();
      if (!faulted) {
        const bool lost_here = after && contains(r.message, "the device was lost");
        lost = lost || lost_here;
        check(r.status == PointStatus::Ok || lost_here,
              label + " is OK or says why not: " + r.message);
        continue;
      }
      after = true;
      std::fprintf(stderr, "faulted point's message: %s\n", r.message.c_str());
      check(r.status == PointStatus::Failed, label + " failed");
      check(contains(r.message, "cudaErrorIllegalAddress"), "the CUDA error is named");
      check(contains(r.message, label), "the point (variant and size) is named");
      check(contains(r.message, "failed:"), "the failing call is named");
      check(contains(r.message, "was reset") || contains(r.message, "could not be recovered"),
            "the reset or why it failed is reported");
    }
    std::fprintf(stderr, "after the fault: %s\n",
                 lost ? "the device was lost (points after it FAILED, saying why)"
                      : "the device was reset and the remaining points ran");
    // The same runner (and backend) again: it runs, or says the device is lost; no crash.
    const Session again = runner.run(fault_spec({kLaterSize}), {});
    check(again.results.size() == 2, "2 results after the fault");
    for (const PointResult& r : again.results)
      check(r.status == PointStatus::Ok || (lost && contains(r.message, "the device was lost")),
            r.point.label() + " after the fault: " + r.message);
  } catch (const std::exception& e) {
    problems.push_back(std::string("threw: ") + e.what());
  }
  for (const auto& p : problems) std::fprintf(stderr, "FAILED CHECK: %s\n", p.c_str());
  if (problems.empty()) std::fprintf(stderr, "fault survived\n");
  std::fflush(stderr);
  std::_Exit(problems.empty() ? 0 : 1);
}

using testing::beside_this_test;

TEST(GpuFault, SupervisedTheFaultFailsItsPointAndAFreshWorkerRunsTheRest) {
  RL_REQUIRE_GPU();
  const Discovery found = discover_devices();
  ASSERT_FALSE(found.gpus.empty());
  SupervisorOptions o;
  o.worker = beside_this_test("rl_fault_worker");
  ASSERT_EQ(access(o.worker.c_str(), X_OK), 0) << o.worker << " is missing";
  o.device_index = found.gpus.front().index;
  o.device = found.gpus.front();
  std::vector<std::string> notices;
  o.on_notice = [&](const std::string& m) { notices.push_back(m); };
  Supervisor sup(o);
  std::size_t reported = 0;
  RunCallbacks cb;
  cb.on_result = [&](const PointResult&) { ++reported; };
  const Session s = sup.run(fault_spec({kFaultSize, kLaterSize}), cb);
  ASSERT_EQ(s.results.size(), 4u);
  EXPECT_EQ(reported, 4u);
  EXPECT_FALSE(s.cancelled);
  EXPECT_EQ(s.device.name, o.device.name);
  EXPECT_GT(s.device.measured_read_gbps, 0);  // the first worker's floor, kept
  for (const std::string& n : notices) std::fprintf(stderr, "notice: %s\n", n.c_str());
  for (const PointResult& r : s.results) {
    const std::string label = r.point.label();
    if (!is_fault_point(r.point)) {  // before the fault and after it: measured and verified
      EXPECT_EQ(r.status, PointStatus::Ok) << label << ": " << r.message;
      EXPECT_GT(r.total.samples, 0) << label;
      continue;
    }
    std::fprintf(stderr, "faulted point's message: %s\n", r.message.c_str());
    EXPECT_EQ(r.status, PointStatus::Failed);
    EXPECT_NE(r.message.find("cudaErrorIllegalAddress"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find(label), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("failed:"), std::string::npos) << r.message;
    // Where the driver lets the context be created again, the same worker goes on; where it does
    // not (the H200), a fresh worker runs the rest.
    if (sup.workers_started() == 2) {
      EXPECT_NE(r.message.find("fresh worker process"), std::string::npos) << r.message;
      EXPECT_EQ(notices.size(), 1u);
    } else {
      EXPECT_EQ(sup.workers_started(), 1);
      EXPECT_NE(r.message.find("was reset"), std::string::npos) << r.message;
    }
  }
  // The same supervisor again: a fresh worker, every point measured.
  const Session again = sup.run(fault_spec({kLaterSize}), {});
  ASSERT_EQ(again.results.size(), 2u);
  for (const PointResult& r : again.results)
    EXPECT_EQ(r.status, PointStatus::Ok) << r.point.label() << ": " << r.message;
}

TEST(GpuFault, InOneProcessIllegalAddressFailsItsPointTheRestSayWhatBecameOfThem) {
  RL_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_with_fault(), ::testing::ExitedWithCode(0), "fault survived");
}

}  // namespace
}  // namespace rl
