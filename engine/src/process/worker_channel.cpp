#include "process/worker_channel.h"

#include <exception>
#include <optional>

#include "engine/core/error.h"

namespace rl::detail {

WorkerChannelEnd pump_worker(const std::vector<std::string>& argv, const std::string& input,
                             StreamReader& reader, const std::atomic<bool>* kill,
                             const std::function<bool(StreamEvent)>& on_event,
                             const std::function<void(ChildProcess&)>& on_poll) {
  std::optional<ChildProcess> child;
  try {
    const UniqueFd fd = memory_file("reductionlab-worker-input", input);
    child.emplace(argv, fd.get());
  } catch (const std::exception& e) {
    throw Error(std::string("cannot start the GPU worker process: ") + e.what());
  }
  WorkerChannelEnd end;
  const auto on_line = [&](std::string_view line) {
    // Read and checked first; the handler runs outside, so what it throws is not taken for a
    // line that cannot be read.
    std::optional<StreamEvent> event;
    try {
      event = reader.feed(line);
    } catch (const std::exception& e) {
      end.unreadable =
          std::string("the GPU worker process sent what this program cannot read: ") + e.what();
      return false;
    }
    return !event || on_event(*event);
  };
  const auto poll = [&] {
    if (on_poll) on_poll(*child);
  };
  static_cast<ChildEnd&>(end) = pump_child(*child, kill, on_line, poll);
  return end;
}

}  // namespace rl::detail
