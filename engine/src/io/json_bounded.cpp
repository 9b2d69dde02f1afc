#include "io/json_bounded.h"

#include <cstring>
#include <string>
#include <vector>

#include "engine/core/error.h"

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

// Builds the document as nlohmann's own DOM parser does, with the bounds checked on the way
// and the path of every value known, so an error can say where it is.
class BoundedSax : public nlohmann::json_sax<Json> {
 public:
  Json root;
  std::string error;  // set when the text is refused

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
    if (k.size() > kMaxJsonString)
      return refuse("a key of " + std::to_string(k.size()) + " bytes; at most " +
                    std::to_string(kMaxJsonString));
    if (k.find('\0') != string_t::npos) {
      keys_.back() = shown_key(k);  // the place named is this key, not the one before it
      return refuse(kNulEscape);
    }
    keys_.back() = k;
    element_ = &(*stack_.back())[k];
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
  std::vector<Json*> stack_;       // open arrays and objects, outermost first
  std::vector<std::string> keys_;  // per level: the object's current key
  Json* element_ = nullptr;        // where the next value of the innermost object goes

  // "results[3].total.median_ms": the value being read now.
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      if (stack_[i]->is_array()) {
        // An open child is the array's last element; a value not yet added is its next.
        const bool child_open = i + 1 < stack_.size();
        p += "[" + std::to_string(stack_[i]->size() - (child_open ? 1 : 0)) + "]";
      } else {
        p += (p.empty() ? "" : ".") + keys_[i];
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
  bool refuse(const std::string& why) {
    const std::string p = path();
    error = p.empty() ? why : p + ": " + why;
    return false;
  }

  template <typename V>
  Json* place(V&& v) {
    if (stack_.empty()) {
      root = Json(std::forward<V>(v));
      return &root;
    }
    if (stack_.back()->is_array()) {
      stack_.back()->emplace_back(std::forward<V>(v));
      return &stack_.back()->back();
    }
    *element_ = Json(std::forward<V>(v));
    return element_;
  }
  template <typename V>
  bool value(V&& v) {
    place(std::forward<V>(v));
    return true;
  }
  bool open(Json::value_t type) {
    if (int(stack_.size()) >= kMaxJsonDepth)
      return refuse("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    stack_.push_back(place(type));
    keys_.emplace_back();
    return true;
  }
  bool close() {
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }
};

}  // namespace

Json parse_json_bounded(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw Error("not JSON: the file is empty");
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw Error("a NUL byte at offset " + std::to_string(nul) + ": not a text file");
  BoundedSax sax;
  try {
    if (!Json::sax_parse(text.begin(), text.end(), &sax))
      throw Error(sax.error.empty() ? "not JSON" : sax.error);
  } catch (const Json::exception& e) {
    throw Error("not JSON: " + library_message(e.what()));
  }
  return std::move(sax.root);
}

}  // namespace rl
