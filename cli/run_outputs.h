// The files `run` writes (--csv FILE and its raw samples, --json FILE), planned and checked
// before the run (names, directories, kinds, collisions between them and with --spec) and
// written through the engine's one writer once it ends. The --json file is also a checkpoint:
// rewritten (atomically) as points finish, so a run killed outright (SIGKILL, a crash, the
// power) leaves the points it finished, for `run --resume FILE`.
#pragma once

#include <chrono>
#include <cstdio>
#include <optional>

#include "engine/multi/multi_results.h"
#include "engine/run/results.h"
#include "output_files.h"
#include "run_spec.h"

namespace rlcli {

class RunOutputs {
 public:
  // Throws UsageError naming the flag: "--json same.csv: is also the file --csv writes; give
  // each output its own name".
  explicit RunOutputs(const RunArgs& args);

  // Writes every file asked for and says so on stdout ("wrote run.json"). False when one
  // could not be written (stderr says which, why, and what became of each).
  bool write(const rl::Session& s) const;
  // The same for a multi-GPU session (run --devices): its JSON, summary and samples CSV.
  bool write_multi(const rl::MultiSession& s) const;

  // The session so far to the --json file (a regular file only), marked cancelled (not
  // finished): after the first point, then at most once a second, so a long sweep of quick
  // points does not spend its time rewriting the file. A failure is said once on stderr; the
  // run goes on.
  void checkpoint(const rl::Session& s);

 private:
  // The texts to write (JSON, summary CSV, samples CSV), whichever session they come from.
  bool write_texts(const std::string& json, const std::string& csv,
                   const std::string& samples) const;
  std::optional<Output> csv_, samples_, json_;
  std::optional<std::chrono::steady_clock::time_point> last_checkpoint_;
  bool checkpoint_failed_ = false;
  std::FILE* said_ = stdout;  // where "wrote FILE" goes: stderr when stdout is the --stream
};

}  // namespace rlcli
