// One writer per output at a time. A run holds a lock on each regular file it will write, from
// before it measures until its files are written: flock(2) on a lock file beside the target
// (".NAME.lock", the temporary files' prefix + "lock"), which holds the owner's pid for the
// message a second run gets. The kernel drops the lock when its holder dies (kill -9 too), so a
// dead run never blocks the next one; the lock file is removed by its holder when done.
//
// Holding the lock also means no other run is writing the target now: temporary files beside it
// (".NAME.XXXXXX", output_file.h) are left by a writer that died mid-write, and are removed.
#pragma once

#include <string>
#include <vector>

#include "engine/io/output_file.h"

namespace rl {

class OutputLock {
 public:
  // Takes the lock of a File target at once (a device, FIFO or descriptor has none). Throws
  // rl::Error when another process holds it: "NAME: another run (pid 4242) is writing this
  // file; wait for it to end or give another name", or when the lock file cannot be made.
  explicit OutputLock(const OutputTarget& target);
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

}  // namespace rl
