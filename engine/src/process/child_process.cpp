#include "process/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "engine/core/error.h"

extern char** environ;

namespace rl::detail {

namespace {

std::string os_error(const std::string& what, int err) {
  return what + ": " + std::strerror(err);
}

// A copy of fd numbered above 3, close-on-exec: the child's dup2 onto 1, 2 and 3 then never
// meets a source that is itself 1, 2 or 3 (dup2 onto itself would keep close-on-exec).
UniqueFd above_three(int fd) {
  const int high = fcntl(fd, F_DUPFD_CLOEXEC, 4);
  if (high < 0) throw Error(os_error("fcntl(F_DUPFD_CLOEXEC)", errno));
  return UniqueFd(high);
}

struct Pipe {
  UniqueFd read, write;
};

Pipe make_pipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(os_error("pipe2", errno));
  Pipe p{UniqueFd(fds[0]), UniqueFd(fds[1])};
  p.read = above_three(p.read.get());
  p.write = above_three(p.write.get());
  return p;
}

// posix_spawn's attribute and file-action objects, destroyed on every path.
struct SpawnSetup {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  SpawnSetup() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) reset(o.release());
  return *this;
}

int UniqueFd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);  // never retried: Linux frees the descriptor even on EINTR
  fd_ = fd;
}

UniqueFd memory_file(const std::string& name, const std::string& text) {
  UniqueFd fd(memfd_create(name.c_str(), MFD_CLOEXEC));
  if (!fd) throw Error(os_error("memfd_create", errno));
  fd = above_three(fd.get());
  if (!write_all(fd.get(), text)) throw Error(os_error("writing " + name, errno));
  if (lseek(fd.get(), 0, SEEK_SET) != 0) throw Error(os_error("lseek", errno));
  return fd;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, int pass_fd) {
  if (argv.empty()) throw Error("no program to start");
  Pipe out = make_pipe(), err = make_pipe();
  UniqueFd pass;
  if (pass_fd >= 0) pass = above_three(pass_fd);
  SpawnSetup s;
  posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&s.actions, out.write.get(), 1);
  posix_spawn_file_actions_adddup2(&s.actions, err.write.get(), 2);
  if (pass) posix_spawn_file_actions_adddup2(&s.actions, pass.get(), 3);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
  // Nothing else of this process's reaches the child, close-on-exec or not (a library's file).
  posix_spawn_file_actions_addclosefrom_np(&s.actions, pass ? 4 : 3);
#endif
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&s.attr, &none);
  posix_spawnattr_setsigdefault(&s.attr, &defaults);
  posix_spawnattr_setpgroup(&s.attr, 0);
  posix_spawnattr_setflags(&s.attr,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0].c_str(), &s.actions, &s.attr, args.data(), environ);
  if (rc != 0) throw Error(os_error("starting " + argv[0], rc));
  pid_ = pid;
  out_ = std::move(out.read);
  err_ = std::move(err.read);
}

ChildProcess::~ChildProcess() {
  kill();
  wait();
}

void ChildProcess::kill() {
  signal(SIGKILL);
}

void ChildProcess::signal(int sig) {
  if (pid_ > 0 && !reaped_) ::kill(pid_, sig);
}

int ChildProcess::wait() {
  while (pid_ > 0 && !reaped_) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, 0);
    if (r == pid_) {
      reaped_ = true;
      status_ = status;
    } else if (r < 0 && errno != EINTR) {
      reaped_ = true;  // ECHILD: someone else reaped it (a SIGCHLD set to SIG_IGN)
      status_ = 0;
    }
  }
  return status_;
}

bool ChildProcess::try_wait() {
  while (pid_ > 0 && !reaped_) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == 0) return false;
    if (r == pid_) {
      reaped_ = true;
      status_ = status;
    } else if (errno != EINTR) {
      reaped_ = true;
      status_ = 0;
    }
  }
  return true;
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "was killed by signal " + std::to_string(sig) +
           (name ? std::string(" (") + name + ")" : "");
  }
  return "ended (wait status " + std::to_string(status) + ")";
}

long read_some(int fd, char* buf, unsigned long n) {
  while (true) {
    const ssize_t r = ::read(fd, buf, n);
    if (r >= 0 || errno != EINTR) return long(r);
  }
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += std::size_t(w);
  }
  return true;
}

namespace {

constexpr int kPollMs = 20;
constexpr std::size_t kStderrTail = 1000;

bool is_set(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}

std::string tidy_tail(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

}  // namespace

ChildEnd pump_child(ChildProcess& child, const std::atomic<bool>* cancel,
                    const std::function<bool(std::string_view)>& on_line,
                    const std::function<void()>& on_poll) {
  ChildEnd end;
  std::string out, err;
  char buf[65536];
  bool useful = true;
  // The caller's poll, then a cancel: the child killed and reaped.
  const auto cancelled_now = [&] {
    if (on_poll) on_poll();
    if (!is_set(cancel)) return false;
    child.kill();
    child.wait();
    end.cancelled = true;
    return true;
  };
  while (useful && (child.stdout_fd() >= 0 || child.stderr_fd() >= 0)) {
    if (cancelled_now()) return end;
    pollfd fds[2] = {{child.stdout_fd(), POLLIN, 0}, {child.stderr_fd(), POLLIN, 0}};
    const int ready = poll(fds, 2, kPollMs);  // a negative fd is skipped
    if (ready <= 0) continue;                 // timeout, or EINTR: look at *cancel again
    if (fds[1].revents) {
      const long n = read_some(fds[1].fd, buf, sizeof buf);
      if (n <= 0) {
        child.close_stderr();
      } else {
        write_all(STDERR_FILENO, std::string(buf, std::size_t(n)));
        err.append(buf, std::size_t(n));
        if (err.size() > 2 * kStderrTail) err.erase(0, err.size() - kStderrTail);
      }
    }
    if (fds[0].revents) {
      const long n = read_some(fds[0].fd, buf, sizeof buf);
      if (n <= 0) {
        child.close_stdout();
        continue;
      }
      out.append(buf, std::size_t(n));
      std::size_t start = 0;
      for (std::size_t nl; useful && (nl = out.find('\n', start)) != std::string::npos;
           start = nl + 1)
        useful = on_line(std::string_view(out).substr(start, nl - start));
      out.erase(0, start);
      if (!useful) child.kill();
    }
  }
  while (!child.try_wait()) {
    if (cancelled_now()) return end;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  end.how = describe_wait_status(child.wait());
  end.stderr_tail =
      tidy_tail(err.size() > kStderrTail ? err.substr(err.size() - kStderrTail) : err);
  return end;
}

}  // namespace rl::detail
