// One writer per output at a time, for every writer ReductionLab has: a CLI run holds a lock on
// each regular file it will write from before it measures until its files are written, a trace
// while it writes its --json, the app while it saves a session, a CSV or a chart. flock(2) on a
// lock file beside the target (".NAME.lock", the temporary files' prefix + "lock"), which holds
// the owner's pid and what it is ("reductionlab-cli run") for the message a second writer gets.
// The kernel drops the lock when its holder dies (kill -9 too), so a dead writer never blocks
// the next one; the lock file is removed by its holder when done.
//
// Holding the lock also means no other run is writing the target now: temporary files beside it
// (".NAME.XXXXXX", output_file.h) are left by a writer that died mid-write, and are removed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/io/output_file.h"

namespace rl {

class OutputLock {
 public:
  // Takes the lock of a File target at once (a device, FIFO or descriptor has none) for
  // `writer`, what the holder is as a second writer is told ("reductionlab-cli run", "the
  // ReductionLab app"). Throws rl::Error when another holds it: "NAME: reductionlab-cli run
  // (pid 4242) is writing this file; wait for it to end or give another name" ("another
  // process" for a holder that did not say), or when the lock file cannot be made.
  OutputLock(const OutputTarget& target, std::string_view writer);
  ~OutputLock();  // removes the lock file, then lets the lock go
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  // The target's temporary files left by a writer that died before its rename: removed (the
  // lock is held, so none is being written). Returns their names, for a line on stderr.
  std::vector<std::string> remove_stale_temporaries() const;

 private:
  OutputTarget target_;
  std::string lock_path_;
  int fd_ = -1;
};

// plan_output + the lock + write_output, for a writer of one file at a time (the app): the
// temporary files a writer that died left beside it are removed, then the text is written while
// the lock is held. Returns "" when written, else one line: "cannot write NAME: reductionlab-cli
// run (pid 4242) is writing this file; ...", "cannot write NAME: REASON; NAME untouched (the
// file there before is kept)".
std::string write_output_file_locked(const std::string& path, std::string_view text,
                                     std::string_view writer);

}  // namespace rl
