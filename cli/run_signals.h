// How `run` ends when it is told to: SIGINT (Ctrl-C), SIGTERM (kill, a batch system's time
// limit), SIGHUP (the terminal closed), SIGPIPE (stdout's reader went away, e.g. `| head`),
// SIGQUIT (Ctrl-backslash), SIGUSR1, SIGUSR2, SIGALRM and SIGXCPU (the CPU time limit) all cancel
// the run after the current sample; the finished points are kept, the files written, and the exit
// code is 128 + the signal (130, 143, 129, 141, 131, 138, 140, 142, 152). SIGXFSZ (a write past
// `ulimit -f`) is ignored: the write fails with EFBIG and is reported.
#pragma once

#include <atomic>
#include <thread>

namespace rlcli {

// Installs the handlers while alive (keep it until the files are written). A second signal of
// these ends the process at once, except SIGPIPE and SIGXCPU, which come again by themselves:
// they only cancel (later writes to a closed stdout then fail with EPIPE instead of killing the
// process before the files are written).
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

// With --stream the reader is usually at the other end of ssh: when it goes (the app's Cancel, a
// dropped connection) the pipe reports it at once, but SIGPIPE would come only with the next
// line, a whole point later on a GPU others wait for. While alive, this watches `fd` (when it is
// a pipe or a socket) and raises SIGPIPE as soon as its reader is gone, so CancelOnSignals
// cancels after the current sample. Create it after CancelOnSignals.
class CancelWhenReaderGoes {
 public:
  explicit CancelWhenReaderGoes(int fd);
  ~CancelWhenReaderGoes();
  CancelWhenReaderGoes(const CancelWhenReaderGoes&) = delete;
  CancelWhenReaderGoes& operator=(const CancelWhenReaderGoes&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::thread watch_;
};

}  // namespace rlcli
