#include "run_resume.h"

#include "cli.h"
#include "engine/io/export.h"
#include "engine/io/resume.h"
#include "engine/io/session_file.h"
#include "output_files.h"

namespace rlcli {

std::optional<rl::Session> read_resume(const RunArgs& a) {
  if (!a.o_resume || a.o_resume->count() == 0) return std::nullopt;
  for (const CLI::Option* o :
       {a.o_spec, a.o_variants, a.o_workspace, a.o_block_sizes, a.o_unroll, a.o_sizes, a.o_type,
        a.o_noise, a.o_budget, a.o_min_samples, a.o_max_samples, a.o_max_points, a.o_baseline,
        a.o_warm_l2, a.o_preset})
    if (o && o->count() > 0)
      throw UsageError(o->get_name() + ": --resume runs the experiment of " + a.resume +
                       "; it cannot be changed (leave " + o->get_name() + " out)");
  try {
    // Parsed as it is read: a checkpoint of a long run opens in about its own size in memory.
    return rl::session_from_json_file(a.resume);
  } catch (const std::exception& e) {
    throw UsageError("--resume " + a.resume + ": " + e.what());
  }
}

void check_resume_device(const RunArgs& a, const rl::Session& saved, const rl::DeviceInfo& device) {
  const std::string why = rl::resume_mismatch(saved, device);
  if (!why.empty())
    throw UsageError("--resume " + a.resume + ": " + why +
                     (a.o_device && a.o_device->count() > 0
                          ? ""
                          : " (give --device to run on the one it was measured on)"));
}

}  // namespace rlcli
