// One writer for every file ReductionLab writes: the CLI's --csv, --json and trace --json, the
// app's sessions, CSVs and charts. Nothing lost, nothing clobbered:
//  - a regular file (new or existing) is written to a unique temporary file beside it
//    (mkstemp: O_CREAT|O_EXCL, so a planted symlink is never followed), fsynced and renamed
//    over it: a reader sees the old file or the new one, never half of one, and a failure
//    leaves the old file as it was;
//  - a regular file with other hard links (st_nlink > 1) keeps them: every name sees the new
//    text, written over the file's own inode (truncated, fsynced). Its blocks are reserved
//    first (fallocate) and a text over the file size limit refused, so a full disk or
//    `ulimit -f` leaves the old text whole; only an I/O error part way can leave it partly new,
//    and the error then says so. To break the link instead, remove the name first;
//  - a symlink is followed to its target, which is replaced; the link stays a link;
//  - a character device or FIFO (/dev/null, a named pipe) is opened and written directly,
//    never replaced; "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are written
//    to that descriptor (a shell's `> file` is appended to, not swapped for a new file).
// plan_output() checks a name before anything runs (its directory, its kind, NAME_MAX and
// PATH_MAX for the final and the temporary name, that a file can be made beside it, that a
// device opens, that it is not in /proc or /sys), so a typo costs nothing; write_output()
// writes and says why it could not, with the OS's reason (strerror).
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/core/error.h"

namespace rl {

struct OutputTarget {
  enum class Kind {
    File,    // a regular file, new or existing: temporary file, fsync, rename
    Stream,  // a character device or FIFO: written directly, never replaced
    Fd,      // an open descriptor ("-" and /dev/stdout are 1): written directly
  };
  std::string name;  // as given, for messages
  std::string path;  // File, Stream: what is written, every symlink followed
  Kind kind = Kind::File;
  int fd = -1;           // Fd: the descriptor
  bool existed = false;  // File: a file was there before
  // File: identity, for collisions between outputs ("dir/name" with the directory's real path;
  // dev/ino when the file exists, so hard links collide too).
  std::string identity;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string temp_prefix;  // File: the temporary file's name before mkstemp's XXXXXX
};

// Throws rl::Error saying why `path` cannot be written, starting with the name, e.g.
// "out.json: directory 'nodir' does not exist", "/: is a directory, expected a file",
// "x...x: the file name is 300 bytes; this file system allows 255 (NAME_MAX)".
OutputTarget plan_output(const std::string& path);

// Whether two outputs would write the same file. Streams and descriptors never collide (two
// outputs to /dev/null or to stdout are written one after the other).
bool same_output(const OutputTarget& a, const OutputTarget& b);

// Whether target is the file at `path` (for an input read before a run, e.g. --spec FILE).
bool output_is_file(const OutputTarget& target, const std::string& path);

// A write that failed: what() is "cannot write NAME: REASON" with the OS's reason
// ("No space left on device"); untouched() says whether the target is as it was before (a
// regular file's old contents, or no file) or may hold part of the text (a stream).
class OutputError : public Error {
 public:
  OutputError(const OutputTarget& t, int err, std::string step);
  int error_number() const { return errno_; }
  const std::string& reason() const { return reason_; }
  const std::string& step() const { return step_; }
  bool untouched() const { return untouched_; }

 private:
  int errno_;
  std::string reason_, step_;
  bool untouched_;
};

// Writes text to a planned target. Throws OutputError; a regular target's temporary file is
// removed on failure.
void write_output(const OutputTarget& target, std::string_view text);

// Writes over an existing regular file's own inode, as for a hard-linked one: its blocks
// reserved first, so a full disk fails before a byte changes, but not atomic (a crash part way
// leaves it part new). For a file of the caller's own when there is no room for a second copy
// beside it (a checkpoint at the end of a run on a full disk); anything else goes to
// write_output.
void write_output_in_place(const OutputTarget& target, std::string_view text);

// What became of a target after a failed write, for people, from what is there now: "the file
// there before is kept", "not created", "may hold part of it" (a device, FIFO or descriptor),
// "untouched", or that another process made or removed the file during the run.
std::string untouched_note(const OutputTarget& target, bool untouched);
// The same with the name: "out.json untouched (the file there before is kept)", "out.json not
// created", "/dev/full may hold part of it".
std::string describe_untouched(const OutputTarget& target, bool untouched);
// The name as messages show it: "stdout" for "-", a very long name shortened.
std::string display_name(const OutputTarget& target);

// plan_output + write_output for a caller with one file (the app). Returns "" when written,
// else one line: "cannot write NAME: REASON; NAME untouched (the file there before is kept)".
std::string write_output_file(const std::string& path, std::string_view text);

}  // namespace rl
