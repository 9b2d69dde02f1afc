#include "run_signals.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <initializer_list>
#include <iterator>

namespace rlcli {

namespace {

// Lock-free, so safe in a handler.
std::atomic<bool> g_cancel{false};
std::atomic<int> g_signal{0};
std::atomic<bool> g_pipe{false};  // a SIGPIPE came, first or not
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

// Every signal whose default would end the run without writing its files. SIGXFSZ is not
// among them: it is ignored while the handlers are in place, so a write past `ulimit -f` fails
// with EFBIG and is reported like any other failed write.
constexpr int kSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGPIPE, SIGQUIT,
                            SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU};
struct sigaction g_old[sizeof kSignals / sizeof kSignals[0]];
struct sigaction g_old_xfsz;

void say(const char* text, std::size_t n) {
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, text, n);
}

const char* name_of(int sig) {
  switch (sig) {
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGALRM:
      return "SIGALRM";
    case SIGXCPU:
      return "SIGXCPU (the CPU time limit)";
    default:
      return "a signal";
  }
}

void say_all(std::initializer_list<const char*> parts) {
  for (const char* p : parts) say(p, std::strlen(p));
}

extern "C" void on_signal(int sig) {
  if (sig == SIGPIPE) g_pipe.store(true);
  int none = 0;
  const bool first = g_signal.compare_exchange_strong(none, sig);
  g_cancel.store(true);
  if (!first) return;
  // Only async-signal-safe calls here: write(2) of fixed text (strlen is safe too).
  if (sig == SIGINT)
    say_all(
        {"\nreductionlab-cli: cancelling after the current sample (Ctrl-C again to quit at "
         "once)\n"});
  else if (sig == SIGPIPE)
    say_all(
        {"\nreductionlab-cli: stdout was closed (SIGPIPE): cancelling after the current "
         "sample, then writing the files\n"});
  else
    say_all({"\nreductionlab-cli: ", name_of(sig),
             ": cancelling after the current sample, then writing the files\n"});
}

// Signals that come again and again (SIGPIPE with each write to a closed stdout, SIGXCPU each
// second past the soft CPU limit) keep the handler: the files must still be written. Each other
// one quits at once the second time.
bool repeats(int sig) {
  return sig == SIGPIPE || sig == SIGXCPU;
}

}  // namespace

CancelOnSignals::CancelOnSignals() {
  g_cancel.store(false);
  g_signal.store(0);
  g_pipe.store(false);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    // SA_RESETHAND: a second Ctrl-C (SIGTERM, SIGHUP...) quits at once.
    sa.sa_flags = repeats(kSignals[i]) ? SA_RESTART : SA_RESETHAND;
    sigaction(kSignals[i], &sa, &g_old[i]);
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGXFSZ, &ignore, &g_old_xfsz);
}

CancelOnSignals::~CancelOnSignals() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    // stdout may still be closed: a later write must not kill the process.
    if (kSignals[i] == SIGPIPE && g_pipe.load()) {
      std::signal(SIGPIPE, SIG_IGN);
      continue;
    }
    sigaction(kSignals[i], &g_old[i], nullptr);
  }
  sigaction(SIGXFSZ, &g_old_xfsz, nullptr);
}

const std::atomic<bool>* CancelOnSignals::flag() const {
  return &g_cancel;
}

int CancelOnSignals::signal() const {
  return g_signal.load();
}

CancelWhenReaderGoes::CancelWhenReaderGoes(int fd) {
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return;
  watch_ = std::thread([this, fd] {
    while (!stop_.load()) {
      pollfd p{fd, 0, 0};  // no events asked: only the error and hang-up bits come back
      if (poll(&p, 1, 100) > 0 && (p.revents & (POLLERR | POLLHUP))) {
        kill(getpid(), SIGPIPE);
        return;
      }
    }
  });
}

CancelWhenReaderGoes::~CancelWhenReaderGoes() {
  stop_.store(true);
  if (watch_.joinable()) watch_.join();
}

}  // namespace rlcli
