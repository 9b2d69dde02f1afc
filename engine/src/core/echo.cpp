#include "engine/core/echo.h"

namespace rl {

std::string echo(std::string_view value) {
  std::size_t cut = value.size();
  if (cut > kEchoMax) {
    cut = kEchoMax;
    // Never inside a UTF-8 sequence: back off over continuation bytes.
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  }
  std::string out;
  out.reserve(cut + 32);
  out += '\'';
  out.append(value.data(), cut);
  if (cut == value.size()) return out += '\'';
  out += "...' (";
  out += std::to_string(value.size());
  out += " characters)";
  return out;
}

}  // namespace rl
