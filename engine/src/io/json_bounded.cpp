#include "io/json_bounded.h"

#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/core/error.h"
#include "engine/io/input_file.h"

namespace rl {

namespace {

using Json = nlohmann::ordered_json;

// The raw byte is refused before parsing; "\u0000" decodes to it. A name or value holding one
// would cut every message that echoes it at that point (what() is a C string): a key "\u0000x"
// gave an empty refusal (found by fuzz/spec_reader_fuzz).
constexpr const char* kNulEscape = "a NUL character (\\u0000): not text";

// nlohmann's "[json.exception.parse_error.101] parse error at ..." without the bracket.
std::string library_message(const char* what) {
  std::string s = what;
  if (auto pos = s.find("] "); s.rfind("[json.exception", 0) == 0 && pos != s.npos)
    s.erase(0, pos + 2);
  return s;
}

// One open array or object.
struct Level {
  Json* value = nullptr;
  std::string key;                       // an object's current key
  std::size_t count = 0;                 // keys or items started so far
  std::unordered_set<std::string> keys;  // an object's keys so far: a second copy is refused
  bool streamed = false;                 // elements go to the sink, not into the document
};

// Builds the document as nlohmann's own DOM parser does, with the bounds checked on the way
// and the path of every value known, so an error can say where it is. Every step is constant
// time, so the parse is linear in the text.
class BoundedSax : public nlohmann::json_sax<Json> {
 public:
  BoundedSax(std::string_view streamed_key, const JsonElementSink* sink, bool head_only = false)
      : streamed_key_(streamed_key), sink_(sink), head_only_(head_only) {}

  Json root;
  std::string error;     // set when the text is refused
  bool stopped = false;  // the head was read (head_only): the parse ended there on purpose

  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override {
    if (v.size() > kMaxJsonString) return refuse(too_long(v.size()));
    if (v.find('\0') != string_t::npos) return refuse(kNulEscape);
    return value(std::move(v));
  }
  bool binary(binary_t&) override { return refuse("binary values are not JSON text"); }

  bool start_object(std::size_t) override { return open(Json::value_t::object); }
  bool key(string_t& k) override {
    Level& level = levels_.back();
    if (k.size() > kMaxJsonString)
      return refuse("a key of " + std::to_string(k.size()) + " bytes; at most " +
                    std::to_string(kMaxJsonString));
    if (k.find('\0') != string_t::npos) {
      level.key = shown_key(k);  // the place named is this key, not the one before it
      return refuse(kNulEscape);
    }
    if (++level.count > kMaxJsonKeys)
      return refuse_at(levels_.size() - 1,
                       "more than " + std::to_string(kMaxJsonKeys) + " keys in one object");
    level.key = k;
    if (!level.keys.insert(k).second) return refuse("the key appears twice");
    // Appended without a lookup (ordered_map::operator[] searches linearly); the set above
    // already knows the key is new.
    auto& items = static_cast<Json::object_t::Container&>(*level.value->get_ptr<Json::object_t*>());
    items.emplace_back(std::move(k), Json());
    element_ = &items.back().second;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Json::value_t::array); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t, const std::string& token, const Json::exception& e) override {
    if (e.id == 406)  // number overflow: 1e309
      return refuse("the number " + token + " is out of range (a double holds up to 1.8e308)");
    error = "not JSON: " + library_message(e.what());
    return false;
  }

 private:
  std::string_view streamed_key_;
  const JsonElementSink* sink_;
  bool head_only_;
  std::vector<Level> levels_;  // open arrays and objects, outermost first
  Json* element_ = nullptr;    // where the next value of the innermost object goes

  // "results[3].total.median_ms": the value being read now, within the first `depth` levels.
  std::string path(std::size_t depth) const {
    std::string p;
    for (std::size_t i = 0; i < depth; ++i) {
      const Level& l = levels_[i];
      if (l.value->is_array()) {
        // An open child is the array's last element; a value not yet added is its next.
        const bool child_open = i + 1 < levels_.size();
        p.append("[").append(std::to_string(l.count - (child_open ? 1 : 0))).append("]");
      } else {
        p.append(p.empty() ? "" : ".").append(l.key);
      }
      if (p.size() > 200) return p + "...";
    }
    return p;
  }
  // A key as the path shows it: NULs written as \u0000, at most 40 bytes of it.
  static std::string shown_key(const std::string& k) {
    std::string out;
    std::size_t i = 0;
    for (; i < k.size() && out.size() < 40; ++i)
      out += k[i] == '\0' ? std::string("\\u0000") : std::string(1, k[i]);
    return i < k.size() ? out + "..." : out;
  }
  std::string too_long(std::size_t bytes) const {
    return "a string of " + std::to_string(bytes) + " bytes; at most " +
           std::to_string(kMaxJsonString);
  }
  bool refuse_at(std::size_t depth, const std::string& why) {
    const std::string p = path(depth);
    error = p.empty() ? why : p + ": " + why;
    return false;
  }
  bool refuse(const std::string& why) { return refuse_at(levels_.size(), why); }

  // Counts a new item of the innermost array against the bound (objects count their keys).
  bool admit() {
    if (levels_.empty() || !levels_.back().value->is_array()) return true;
    Level& level = levels_.back();
    if (!level.streamed && level.count >= kMaxJsonItems)
      return refuse_at(levels_.size() - 1,
                       "more than " + std::to_string(kMaxJsonItems) + " items in one array");
    ++level.count;
    return true;
  }
  template <typename V>
  Json* place(V&& v) {
    if (levels_.empty()) {
      root = Json(std::forward<V>(v));
      return &root;
    }
    if (Json* array = levels_.back().value; array->is_array()) {
      array->emplace_back(std::forward<V>(v));
      return &array->back();
    }
    *element_ = Json(std::forward<V>(v));
    return element_;
  }
  // An element of the streamed array is complete: hand it over and drop it.
  void deliver() {
    if (levels_.empty() || !levels_.back().streamed) return;
    Level& level = levels_.back();
    (*sink_)(level.value->back(), level.count - 1, root);
    level.value->get_ptr<Json::array_t*>()->pop_back();
  }
  template <typename V>
  bool value(V&& v) {
    if (!admit()) return false;
    place(std::forward<V>(v));
    deliver();
    return true;
  }
  bool open(Json::value_t type) {
    if (head_only_ && (levels_.size() == 1 || type != Json::value_t::object)) {
      // The head ends at the first member that is an array or object (its key goes too), or
      // at once where the text is not an object.
      if (!levels_.empty() && levels_[0].value->is_object())
        static_cast<Json::object_t::Container&>(*root.get_ptr<Json::object_t*>()).pop_back();
      stopped = true;
      return false;
    }
    if (int(levels_.size()) >= kMaxJsonDepth)
      return refuse("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    if (!admit()) return false;
    Level level;
    level.value = place(type);
    level.streamed = sink_ && type == Json::value_t::array && levels_.size() == 1 &&
                     levels_[0].value->is_object() && levels_[0].key == streamed_key_;
    levels_.push_back(std::move(level));
    return true;
  }
  bool close() {
    levels_.pop_back();
    deliver();
    return true;
  }
};

// Runs the bounded parse over an input nlohmann reads (text or blocks of a file).
template <typename Parse>
Json parse_with(std::string_view streamed_key, const JsonElementSink* sink, Parse parse,
                bool head_only = false) {
  BoundedSax sax(streamed_key, sink, head_only);
  try {
    if (!parse(sax) && !sax.stopped) throw Error(sax.error.empty() ? "not JSON" : sax.error);
  } catch (const Json::exception& e) {
    throw Error("not JSON: " + library_message(e.what()));
  }
  return std::move(sax.root);
}

Json parse(std::string_view text, std::string_view streamed_key, const JsonElementSink* sink,
           bool head_only = false) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw Error("not JSON: the file is empty");
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw Error("a NUL byte at offset " + std::to_string(nul) + ": not a text file");
  return parse_with(
      streamed_key, sink,
      [&](BoundedSax& sax) { return Json::sax_parse(text.begin(), text.end(), &sax); }, head_only);
}

// A file's characters as nlohmann's iterator input reads them (*, ++, compared with the end),
// a block at a time; the blocks are checked as read_text_file checks a whole file.
class BlockIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  BlockIterator() = default;  // the end
  BlockIterator(TextFileBlocks* in, bool* saw_text, bool* ended)
      : in_(in), saw_text_(saw_text), ended_(ended) {
    fill();
  }
  reference operator*() const { return block_[at_]; }
  BlockIterator& operator++() {
    if (++at_ == block_.size()) fill();
    return *this;
  }
  bool operator==(const BlockIterator& other) const { return !in_ == !other.in_; }
  bool operator!=(const BlockIterator& other) const { return !(*this == other); }

 private:
  TextFileBlocks* in_ = nullptr;
  bool* saw_text_ = nullptr;
  bool* ended_ = nullptr;
  std::string_view block_;
  std::size_t at_ = 0;

  void fill() {
    block_ = in_->next();
    at_ = 0;
    if (block_.empty()) {
      in_ = nullptr;
      *ended_ = true;
    }
    if (block_.find_first_not_of(" \t\r\n") != std::string_view::npos) *saw_text_ = true;
  }
};

}  // namespace

Json parse_json_bounded(std::string_view text) {
  return parse(text, {}, nullptr);
}

Json parse_json_bounded(std::string_view text, std::string_view streamed_key,
                        const JsonElementSink& sink) {
  return parse(text, streamed_key, &sink);
}

namespace {

Json parse_file(const std::string& path, std::uint64_t max_bytes, std::string_view streamed_key,
                const JsonElementSink* sink, bool head_only) {
  TextFileBlocks in(path, max_bytes);
  bool saw_text = false, ended = false;
  try {
    return parse_with(
        streamed_key, sink,
        [&](BoundedSax& sax) {
          return Json::sax_parse(BlockIterator(&in, &saw_text, &ended), BlockIterator(), &sax);
        },
        head_only);
  } catch (const Error&) {
    // Only blanks to the end: the file's own errors (a NUL byte) are said as they are.
    if (ended && !saw_text) throw Error("not JSON: the file is empty");
    throw;
  }
}

}  // namespace

Json parse_json_file_bounded(const std::string& path, std::uint64_t max_bytes,
                             std::string_view streamed_key, const JsonElementSink& sink) {
  return parse_file(path, max_bytes, streamed_key, &sink, false);
}

Json read_json_file_head(const std::string& path, std::uint64_t max_bytes) {
  return parse_file(path, max_bytes, {}, nullptr, true);
}

Json parse_json_head(std::string_view text) {
  return parse(text, {}, nullptr, true);
}

}  // namespace rl
