// `run --resume FILE`: finish a run that did not (Ctrl-C or a signal: the --json file, marked
// cancelled; a crash or SIGKILL: its checkpoint, run.checkpoint.json). FILE's experiment runs on
// the same device; its finished points are kept, the rest measured; --json defaults to FILE, or
// for a checkpoint to the file it was kept for (run_outputs.h).
#pragma once

#include <optional>

#include "engine/session/results.h"
#include "run_spec.h"

namespace rlcli {

// The session --resume names, read and checked; nullopt without --resume. Throws UsageError
// naming the flag: a file that is not a session, or a flag that would change its experiment
// (--variants, --sizes, --spec, --preset, timing flags...: "--sizes: --resume runs the
// experiment of FILE; it cannot be changed").
std::optional<rl::Session> read_resume(const RunArgs& args);

// Throws UsageError when the session was measured on another device than `device`.
void check_resume_device(const RunArgs& args, const rl::Session& saved,
                         const rl::DeviceInfo& device);

}  // namespace rlcli
