// Echoing what a person typed or a file held in an error message: a long value must not make
// the message long (a 60,000-character variant name once gave a 60,031-byte message).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rl {

constexpr std::size_t kEchoMax = 80;

// The value in single quotes; past kEchoMax bytes cut (at a UTF-8 character boundary), ending in
// "..." and giving the full length: 'abc...' (60000 characters).
std::string echo(std::string_view value);

}  // namespace rl
