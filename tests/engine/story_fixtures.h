// What the story tests share: the shipped resources, parse_story's error for a document, a
// story around some steps, and the bundled H200 session the shipped stories resolve against.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/views/story.h"

namespace rl::test {

inline std::string resource(const std::string& name) {
  std::ifstream in(std::string(RL_RESOURCES_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The error parse_story throws, or "" when it parses.
inline std::string error_of(const std::string& json) {
  try {
    rl::parse_story(json);
  } catch (const rl::Error& e) {
    return e.what();
  }
  return {};
}

inline std::string story_with_steps(const std::string& steps) {
  return R"({"title": "t", "steps": [)" + steps + "]}";
}

inline const rl::Session& bundled() {
  static const rl::Session s = rl::session_from_json(resource("sessions/h200-ladder.json"));
  return s;
}

inline bool have_resources() {
  return std::filesystem::exists(std::string(RL_RESOURCES_DIR) + "/sessions/h200-ladder.json");
}

}  // namespace rl::test
