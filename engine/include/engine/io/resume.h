// Resuming a run that did not finish (`reductionlab-cli run --resume FILE`): the points a saved
// session already has are kept as they are and not measured again; the rest run. The runner
// takes the saved session (Runner::run's `resume`).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

#include "engine/session/results.h"

namespace rl {

// The finished points of a saved session, looked up by PointSpec. Ok, WRONG and SKIPPED points
// are kept; a FAILED point (a CUDA error, often passing) is run again, unless keep_failed (the
// same run continued in a fresh process after a fault: Runner::set_continuing).
class FinishedPoints {
 public:
  explicit FinishedPoints(const Session* resumed, bool keep_failed = false);
  const PointResult* find(const PointSpec& p) const;  // nullptr: run it
  std::size_t size() const { return index_.size(); }

 private:
  using Key = std::tuple<std::string, int, int, int, std::uint64_t, std::uint64_t, int>;
  static Key key_of(const PointSpec& p);
  std::map<Key, const PointResult*> index_;
};

// Why `saved` cannot be resumed on `device` ("" when it can): its points were measured on
// another device, and mixing them would compare different machines.
std::string resume_mismatch(const Session& saved, const DeviceInfo& device);

}  // namespace rl
