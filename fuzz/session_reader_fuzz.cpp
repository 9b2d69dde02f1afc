// libFuzzer target: the session reader (engine/export.h session_from_json), the code behind the
// app's File > Open and `reductionlab-cli run --resume FILE`. Every input is either refused with
// rl::Error or read; a session read must write out (session_to_json) and read back to the same
// text, so nothing the reader takes is lost or changed on the next save.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rl::Session session;
  try {
    session = rl::session_from_json(text);
  } catch (const rl::Error& e) {
    rl::fuzz::check_message(e.what());
    return 0;
  }
  const std::string once = rl::session_to_json(session);
  rl::Session again;
  try {
    again = rl::session_from_json(once);
  } catch (const rl::Error& e) {
    rl::fuzz::broken("a session the reader took does not read back once written", e.what());
  }
  if (rl::session_to_json(again) != once)
    rl::fuzz::broken("a session changes when written and read again", once);
  return 0;
}
