#include "run_signals.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <iterator>

namespace rlcli {

namespace {

// Lock-free, so safe in a handler.
std::atomic<bool> g_cancel{false};
std::atomic<int> g_signal{0};
std::atomic<bool> g_pipe{false};  // a SIGPIPE came, first or not
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
struct sigaction g_old[sizeof kSignals / sizeof kSignals[0]];

void say(const char* text, std::size_t n) {
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, text, n);
}

extern "C" void on_signal(int sig) {
  if (sig == SIGPIPE) g_pipe.store(true);
  int none = 0;
  const bool first = g_signal.compare_exchange_strong(none, sig);
  g_cancel.store(true);
  if (!first) return;
  // Only async-signal-safe calls here: write(2) of fixed text.
  static const char interrupt[] =
      "\nreductionlab-cli: cancelling after the current sample (Ctrl-C again to quit at once)\n";
  static const char term[] =
      "\nreductionlab-cli: SIGTERM: cancelling after the current sample, then writing the files\n";
  static const char hup[] =
      "\nreductionlab-cli: SIGHUP: cancelling after the current sample, then writing the files\n";
  static const char pipe[] =
      "\nreductionlab-cli: stdout was closed (SIGPIPE): cancelling after the current sample, "
      "then writing the files\n";
  switch (sig) {
    case SIGINT:
      say(interrupt, sizeof interrupt - 1);
      break;
    case SIGTERM:
      say(term, sizeof term - 1);
      break;
    case SIGHUP:
      say(hup, sizeof hup - 1);
      break;
    default:
      say(pipe, sizeof pipe - 1);
  }
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
    // SA_RESETHAND: a second Ctrl-C (SIGTERM, SIGHUP) quits at once. Not for SIGPIPE: every
    // later write to the closed stdout raises it again.
    sa.sa_flags = kSignals[i] == SIGPIPE ? SA_RESTART : SA_RESETHAND;
    sigaction(kSignals[i], &sa, &g_old[i]);
  }
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
