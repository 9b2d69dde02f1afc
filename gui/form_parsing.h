// Reading the experiment form's text fields. Every bad item gets a message naming it.
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace rl::gui {

// "256, 1024", "2^8", "64..1024" (every power of two between). `what` names the field in
// messages: "block size 'abc': expected a whole number, 2^K or A..B".
bool parse_int_list(const QString& text, const QString& what, std::vector<int>* out,
                    QString* error);

// rl::parse_size_list with the message prefixed by the field ("sizes: ...").
bool parse_sizes(const QString& text, std::vector<std::uint64_t>* out, QString* error);

// Lists written back into the form: runs of five or more consecutive powers of two become
// "2^10..2^28" (sizes) or "64..1024" (ints).
QString format_int_list(const std::vector<int>& values);
QString format_size_list(const std::vector<std::uint64_t>& values);

}  // namespace rl::gui
