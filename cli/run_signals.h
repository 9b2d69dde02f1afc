// How `run` ends when it is told to: SIGINT (Ctrl-C), SIGTERM (kill, a batch system's time
// limit), SIGHUP (the terminal closed) and SIGPIPE (stdout's reader went away, e.g. `| head`)
// all cancel the run after the current sample; the finished points are kept, the files written,
// and the exit code is 128 + the signal (130, 143, 129, 141).
#pragma once

#include <atomic>

namespace rlcli {

// Installs the handlers while alive (keep it until the files are written). A second SIGINT,
// SIGTERM or SIGHUP ends the process at once. SIGPIPE only cancels: later writes to stdout then
// fail (EPIPE) instead of killing the process before the files are written.
class CancelOnSignals {
 public:
  CancelOnSignals();
  ~CancelOnSignals();
  CancelOnSignals(const CancelOnSignals&) = delete;
  CancelOnSignals& operator=(const CancelOnSignals&) = delete;

  // Set by the first signal; the runner checks it between samples.
  const std::atomic<bool>* flag() const;
  // The first signal received, 0 if none.
  int signal() const;
};

}  // namespace rlcli
