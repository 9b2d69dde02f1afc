// A GPU fault survived: a point whose kernel writes through a bad pointer (cudaErrorIllegalAddress,
// sticky) fails with the CUDA error, the call and the point named; the backend resets the device
// and the remaining points run and verify; the finished ones are kept and the runner stays usable.
// The run happens in a child process of its own (a death test in "threadsafe" style: the binary
// is executed again, not forked), because cudaDeviceReset() drops every CUDA resource of the
// process, the shared test backend's (gpu_fixture.h) included.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "engine/run/device.h"
#include "engine/run/runner.h"
#include "fault_kernel.h"
#include "gpu_fixture.h"

namespace rl {
namespace {

constexpr std::uint64_t kFaultSize = (1u << 16) + 1;
constexpr std::uint64_t kLaterSize = (1u << 18) + 3;
const char* const kFaultVariant = "reduceInterleaved";

ExperimentSpec fault_spec(std::vector<std::uint64_t> sizes) {
  ExperimentSpec s;
  s.variants = {"reduceNeighbored", kFaultVariant};
  s.workspaces = {Workspace::Global};
  s.block_sizes = {256};
  s.sizes = std::move(sizes);
  s.timing.budget_ms = 10;
  return s;
}

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
    fault.applies = [](const PointSpec& p) {
      return p.label().rfind(std::string(kFaultVariant) + "/", 0) == 0 && p.size == kFaultSize;
    };
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
      const bool faulted = r.point.label().rfind(std::string(kFaultVariant) + "/", 0) == 0 &&
                           r.point.size == kFaultSize;
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

TEST(GpuFault, IllegalAddressFailsItsPointTheRestSayWhatBecameOfThem) {
  RL_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_with_fault(), ::testing::ExitedWithCode(0), "fault survived");
}

}  // namespace
}  // namespace rl
