// JSON from files people hand over (sessions, spec files, stream lines), parsed with bounds in
// every dimension: a hostile file is refused with a message naming where, never a crash, a raw
// library message, a parse that takes minutes or memory out of proportion to the text.
//  - depth: nlohmann's parser is iterative, but a value nested 100,000 deep overflows the stack
//    wherever it is later copied, compared or dumped (recursive), so depth is refused while
//    parsing;
//  - width: keys per object and items per array; a key is added without looking it up
//    (nlohmann's ordered map looks keys up linearly, which made a 400,000-key object take
//    minutes), and a second copy of a key is refused;
//  - string length, NUL characters and numbers past the double range.
// The text's own size is the caller's bound (io/input_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rl {

inline constexpr int kMaxJsonDepth = 64;                 // sessions nest 4 deep
inline constexpr std::size_t kMaxJsonString = 1u << 16;  // 64 KiB: names, notes, messages
inline constexpr std::size_t kMaxJsonKeys = 4096;        // a result has about 40 fields
// Raw samples: up to a million per point (the spec's max samples is at most 1,000,000).
inline constexpr std::size_t kMaxJsonItems = std::size_t(1) << 20;

// One element of a streamed array (below), its index, and the document read so far (the keys
// before the array, as the writer put them).
using JsonElementSink = std::function<void(const nlohmann::ordered_json& element, std::size_t index,
                                           const nlohmann::ordered_json& root)>;

// Parses text. Throws rl::Error:
//  "not JSON: the file is empty", "not JSON: syntax error while parsing ...",
//  "a NUL byte at offset 12: not a text file", "device.name: a NUL character (\u0000): not text",
//  "results[0].x.y...: nested deeper than 64 levels (at byte 70)",
//  "device.name: a string of 1048576 bytes; at most 65536",
//  "zz: 4097 keys in one object; at most 4096", "sizes: more than 1048576 items in one array",
//  "spec.sizes: the key appears twice",
//  "timing.noise: the number 1e309 is out of range (a double holds up to 1.8e308)".
nlohmann::ordered_json parse_json_bounded(std::string_view text);

// The same, but each element of the top-level object's array `streamed_key` goes to `sink` as
// soon as it is read and is then dropped: the document comes back with that array empty. A
// reader turns each element into its value type at once, so a large session never exists as a
// whole document beside the values read from it. The array's length is bounded by the text
// alone. What sink throws comes out of the parse as it is.
nlohmann::ordered_json parse_json_bounded(std::string_view text, std::string_view streamed_key,
                                          const JsonElementSink& sink);

// The same, read from a file a block at a time with read_text_file's checks (its size bound, NUL
// bytes, a directory), so the text is never held whole: the file's own errors read as
// read_text_file's ("cannot read: No such file or directory").
nlohmann::ordered_json parse_json_file_bounded(const std::string& path, std::uint64_t max_bytes,
                                               std::string_view streamed_key,
                                               const JsonElementSink& sink);

// What a file says of itself before its first array or object: the top-level object's leading
// members whose values are numbers, strings, booleans or null ({"schema_version": 1, "kind":
// "multi_gpu"}, as the writers put them first), read from the file's first bytes with the same
// bounds; the rest of the file is never read. Empty when the first member is an array or object.
// Throws as parse_json_file_bounded for what it reads (and "not JSON: ..." for a text that is
// not an object).
nlohmann::ordered_json read_json_file_head(const std::string& path, std::uint64_t max_bytes);
// The same from text.
nlohmann::ordered_json parse_json_head(std::string_view text);

}  // namespace rl
