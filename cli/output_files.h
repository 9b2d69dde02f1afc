// Output files: checked before a run starts (so a typo in a directory name costs nothing) and
// written atomically (FILE.tmp, then rename), so a reader never sees half a file.
#pragma once

#include <string>
#include <string_view>

namespace rlcli {

// Throws UsageError when path cannot be written: its directory is missing or not writable,
// or it names a directory.
void check_writable(std::string_view flag, const std::string& path);

// Writes text to path through path + ".tmp" and rename(). Throws std::runtime_error saying
// which file and why.
void write_file_atomically(const std::string& path, std::string_view text);

// The raw-samples file that goes with a summary CSV: "run.csv" -> "run.samples.csv",
// "run" -> "run.samples.csv".
std::string samples_path(const std::string& csv_path);

// Reads a whole file; throws UsageError naming flag and the reason when it cannot.
std::string read_file(std::string_view flag, const std::string& path);

}  // namespace rlcli
