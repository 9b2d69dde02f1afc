#include "engine/io/resume.h"

#include "engine/core/echo.h"

namespace rl {

FinishedPoints::Key FinishedPoints::key_of(const PointSpec& p) {  // size and rows: the shape
  return {p.variant, int(p.workspace), p.block_size, p.unroll, p.size, p.rows, int(p.type)};
}

FinishedPoints::FinishedPoints(const Session* resumed, bool keep_failed) {
  if (!resumed) return;
  for (const PointResult& r : resumed->results)
    if (keep_failed || r.status != PointStatus::Failed) index_.emplace(key_of(r.point), &r);
}

const PointResult* FinishedPoints::find(const PointSpec& p) const {
  const auto it = index_.find(key_of(p));
  return it == index_.end() ? nullptr : it->second;
}

std::string resume_mismatch(const Session& saved, const DeviceInfo& device) {
  const DeviceInfo& d = saved.device;
  if (d.backend == device.backend && d.name == device.name) return "";
  // The labels alone can read the same (every host is "cpu (host emulation)"): what differs is
  // said by field.
  std::string differs;
  if (d.backend != device.backend)
    differs = "backend " + echo(d.backend) + " there, " + echo(device.backend) + " here";
  if (d.name != device.name)
    differs += (differs.empty() ? "" : "; ") + std::string("device name ") + echo(d.name) +
               " there, " + echo(device.name) + " here";
  return "measured on " + d.label() + "; this run is on " + device.label() + " (" + differs + ")";
}

}  // namespace rl
