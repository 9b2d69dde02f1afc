// A child process with pipes, for the supervisor (process/supervisor.h): RAII for the file
// descriptors and for the child itself (a ChildProcess still running when destroyed is killed
// and reaped: no zombie is ever left). POSIX only; every call retries on EINTR.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rl::detail {

// An owned file descriptor, closed once.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release();
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

// An anonymous in-memory file (memfd) holding `text`, its offset back at 0. Throws rl::Error.
UniqueFd memory_file(const std::string& name, const std::string& text);

class ChildProcess {
 public:
  // Starts argv[0] (a path) with argv: stdin /dev/null, stdout and stderr to pipes read here,
  // and `pass_fd` (when >= 0) as its fd 3. The child gets a process group of its own (a Ctrl-C
  // at the terminal reaches the parent only, which decides), default signal dispositions and an
  // empty signal mask. Throws rl::Error with the OS's reason.
  ChildProcess(const std::vector<std::string>& argv, int pass_fd);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // kills (SIGKILL) and reaps a child still running

  pid_t pid() const { return pid_; }
  int stdout_fd() const { return out_.get(); }
  int stderr_fd() const { return err_.get(); }
  void close_stdout() { out_.reset(); }
  void close_stderr() { err_.reset(); }
  void kill();           // SIGKILL, when still running
  void signal(int sig);  // any signal, when still running (never to a reaped pid)
  // Reaps the child (blocking); returns its wait status. Idempotent.
  int wait();
  // Reaps the child when it has ended; false while it runs.
  bool try_wait();
  bool reaped() const { return reaped_; }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  UniqueFd out_, err_;
};

// How a child process ended, as pump_child saw it.
struct ChildEnd {
  bool cancelled = false;   // killed because *cancel was set
  std::string how;          // "exited with code 3", "was killed by signal 11 (...)"
  std::string stderr_tail;  // the last of what it wrote on stderr
};

// Runs `child` to its end: each line of its stdout to on_line (which returns false when the
// child is of no further use: it is killed), its stderr passed on to this process's with its
// tail kept; *cancel (polled every 20 ms) kills it. on_poll (optional) runs at each poll, before
// *cancel is looked at (a caller's own way to stop the child, e.g. SIGTERM first).
ChildEnd pump_child(ChildProcess& child, const std::atomic<bool>* cancel,
                    const std::function<bool(std::string_view)>& on_line,
                    const std::function<void()>& on_poll = {});

// "exited with code 3", "was killed by signal 11 (Segmentation fault)".
std::string describe_wait_status(int status);

// read(2) retried on EINTR; -1 on error (errno set).
long read_some(int fd, char* buf, unsigned long n);
// write(2) of all of `text`, retried on EINTR and short writes; false on error (errno set).
bool write_all(int fd, const std::string& text);

}  // namespace rl::detail
