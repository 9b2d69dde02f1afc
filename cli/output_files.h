// Output files: checked before a run starts (so a typo in a directory name costs nothing) and
// written through the engine's one writer (engine/output_file.h: a unique temporary file beside
// the target, fsync, rename; devices, FIFOs and stdout written directly, never replaced).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/io/input_file.h"
#include "engine/io/output_file.h"
#include "engine/io/output_lock.h"

namespace rlcli {

// An output a subcommand writes, planned before it runs.
struct Output {
  std::string flag;  // "--json", "--csv"
  rl::OutputTarget target;
  std::string role;  // "" or what else the flag writes there: "its raw samples"
};

// Throws UsageError "FLAG NAME: why" when path cannot be written: its directory is missing or
// not writable, it names a directory, a socket or a block device, or a name (the file's or the
// temporary file's) is longer than the file system takes.
Output plan_output(std::string_view flag, const std::string& path);

// Throws UsageError when two outputs would write one file ("--json same.csv: is also the file
// --csv writes (same.csv); give each output its own name"), or an output is one of the inputs
// ({flag, path}, e.g. {"--spec", "spec.json"}).
void check_distinct(const std::vector<const Output*>& outputs,
                    const std::vector<std::pair<std::string, std::string>>& inputs = {});

// Locks every output that is a regular file for `writer` ("reductionlab-cli trace"), until the
// locks returned go (engine/io/output_lock.h): a second writer of one of them is refused while
// this one runs. Throws UsageError naming the flag: "--json run.json: reductionlab-cli run (pid
// 4242) is writing this file; wait for it to end or give another name".
using OutputLocks = std::vector<std::unique_ptr<rl::OutputLock>>;
OutputLocks lock_outputs(const std::vector<const Output*>& outputs, std::string_view writer);
// The temporary files a writer that died while writing one of the locked outputs left: removed
// (no one else writes them while the lock is held), a line on stderr naming each.
void remove_stale_temporaries(const OutputLocks& locks);

// Writes every output (each one even after another failed: nothing finished is lost). On a
// failure, stderr gets one line per failed output with the OS's reason, then one line saying
// what became of each: "files: written (new): run.csv, run.samples.csv; not written: run.json
// (the file there before is kept)"; the result is false.
bool write_outputs(const std::vector<std::pair<const Output*, std::string>>& items);
// The same, saying which were written (one flag per item, in order).
std::vector<bool> write_each(const std::vector<std::pair<const Output*, std::string>>& items);

// One output, planned and written; throws UsageError (cannot be written) before, and
// std::runtime_error (saying what became of it) after a failure to write.
void check_writable(std::string_view flag, const std::string& path);
void write_file_atomically(const std::string& path, std::string_view text);

// The raw-samples file that goes with a summary CSV: "run.csv" -> "run.samples.csv",
// "run" -> "run.samples.csv".
std::string samples_path(const std::string& csv_path);

// Reads a whole file, at most max_bytes of it (rl::read_text_file: a NUL byte or /dev/zero is
// refused at once); throws UsageError naming flag and the reason when it cannot.
std::string read_file(std::string_view flag, const std::string& path,
                      std::uint64_t max_bytes = rl::kMaxSpecFileBytes);

}  // namespace rlcli
