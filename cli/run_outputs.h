// The files `run` writes (--csv FILE and its raw samples, --json FILE), planned and checked
// before the run (names, directories, kinds, collisions between them and with --spec), locked
// for the run (a second run writing one of them is refused: engine/io/output_lock.h), and
// written through the engine's one writer once it ends.
//
// The file the user named is written once, at the end, whole: until then it holds what it held
// before. The --json file's checkpoint goes to a file of its own beside it, FILE.checkpoint.json
// (run.json -> run.checkpoint.json), rewritten as points finish, so a run killed outright
// (SIGKILL, a crash, the power) leaves the points it finished there, for `run --resume
// run.checkpoint.json`, which writes run.json. Once run.json is written the checkpoint goes.
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "engine/io/output_lock.h"
#include "engine/session/multi_results.h"
#include "engine/session/results.h"
#include "output_files.h"
#include "run_spec.h"

namespace rlcli {

// "run.json" -> "run.checkpoint.json", "run" -> "run.checkpoint.json".
std::string checkpoint_path(const std::string& json_path);
// The file `run --resume FILE` writes when --json is not given: FILE itself, or for a
// checkpoint the file it was kept for ("run.checkpoint.json" -> "run.json").
std::string resumed_output_path(const std::string& resume_path);

class RunOutputs {
 public:
  // Throws UsageError naming the flag: "--json same.csv: is also the file --csv writes; give
  // each output its own name", "--json run.json: reductionlab-cli run (pid 4242) is writing
  // this file",
  // or "--json run.json: run.checkpoint.json holds the points of a run that did not finish".
  // Temporary files of a run that died while writing one of these files are removed (a line on
  // stderr names each).
  // `resumed`: the session --resume read, if any.
  explicit RunOutputs(const RunArgs& args, const rl::Session* resumed = nullptr);

  // Writes every file asked for and says so on stderr ("wrote run.json"). False when one
  // could not be written (stderr says which, why, and what became of each, and where the
  // session's points are when the --json file is not written).
  bool write(const rl::Session& s) const;
  // The same for a multi-GPU session (run --devices): its JSON, summary and samples CSV.
  bool write_multi(const rl::MultiSession& s) const;

  // The session so far to the checkpoint file (when --json names a regular file), marked
  // cancelled (not finished). After every point while that is cheap: a checkpoint may take at
  // most a tenth of the run's time, so a long sweep of quick points does not spend its time
  // rewriting the file. A failure is said once on stderr; the run goes on, trying again.
  void checkpoint(const rl::Session& s);

 private:
  // The texts to write (JSON, summary CSV, samples CSV), whichever session they come from.
  // `points`: the session's, for a one-device run (a multi-GPU run keeps no checkpoint).
  bool write_texts(const std::string& json, const std::string& csv, const std::string& samples,
                   std::optional<std::size_t> points) const;
  // After the final write: the checkpoint goes when the --json file was written, else it gets
  // the whole session if it can, and stderr says where the points are.
  void settle_checkpoint(bool json_written, const std::string& json, std::size_t points) const;
  void lock_all();
  void refuse_stale_checkpoint() const;

  std::optional<Output> csv_, samples_, json_, checkpoint_;
  OutputLocks locks_;
  std::string resumed_checkpoint_;  // --resume X.checkpoint.json when it is not ours: goes too
  std::optional<std::chrono::steady_clock::time_point> next_checkpoint_;
  std::size_t checkpoint_points_ = 0;  // points in the checkpoint written by this run
  bool checkpoint_failure_said_ = false;
};

}  // namespace rlcli
