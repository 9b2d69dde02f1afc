// The experiment form's text fields read with the engine's grammar (engine/experiment/grammar.h),
// so the form and the CLI take the same "2^24", "16M", "64..1024". Every bad item gets a message.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace rl::gui {

// "256, 1024", "2^8", "64..1024". `what` names the field in messages: "block size 'abc':
// expected a whole number, 2^K or A..B".
bool parse_int_list(const QString& text, const QString& what, std::vector<int>* out,
                    QString* error);

// rl::parse_size_list with the message prefixed by the field ("sizes: ...").
bool parse_sizes(const QString& text, std::vector<std::uint64_t>* out, QString* error);

QString format_int_list(const std::vector<int>& values);
QString format_size_list(const std::vector<std::uint64_t>& values);

}  // namespace rl::gui
