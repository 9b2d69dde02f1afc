#include "engine/code/sass_counts.h"

#include <array>
#include <cctype>

namespace rl::code {

std::string_view sass_opcode(std::string_view line) {
  std::size_t i = line.find("*/");  // after the address comment
  i = (line.find("/*") == std::string_view::npos || i == std::string_view::npos) ? 0 : i + 2;
  auto skip_space = [&] {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
  };
  skip_space();
  if (i < line.size() && line[i] == '@') {  // predicate guard: @P0, @!PT
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    skip_space();
  }
  const std::size_t start = i;
  while (i < line.size() &&
         (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '.' || line[i] == '_'))
    ++i;
  const std::string_view op = line.substr(start, i - start);
  // An opcode starts with a capital letter; labels and directives do not.
  if (op.empty() || !std::isupper(static_cast<unsigned char>(op.front()))) return {};
  return op;
}

SassClass classify_opcode(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  struct Rule {
    std::string_view base;
    SassClass cls;
  };
  static constexpr std::array<Rule, 16> kRules{{{"BAR", SassClass::Barrier},
                                                {"SHFL", SassClass::Shuffle},
                                                {"BRA", SassClass::Branch},
                                                {"BSSY", SassClass::Branch},
                                                {"BSYNC", SassClass::Branch},
                                                {"LDG", SassClass::Load},
                                                {"LDS", SassClass::Load},
                                                {"LDL", SassClass::Load},
                                                {"LD", SassClass::Load},
                                                {"LDSM", SassClass::Load},
                                                {"STG", SassClass::Store},
                                                {"STS", SassClass::Store},
                                                {"STL", SassClass::Store},
                                                {"ST", SassClass::Store},
                                                {"STSM", SassClass::Store},
                                                {"LDGSTS", SassClass::Load}}};
  for (const Rule& r : kRules)
    if (base == r.base) return r.cls;
  return SassClass::Other;
}

std::string_view to_string(SassClass c) {
  switch (c) {
    case SassClass::Barrier:
      return "barrier";
    case SassClass::Shuffle:
      return "shuffle";
    case SassClass::Branch:
      return "branch";
    case SassClass::Load:
      return "load";
    case SassClass::Store:
      return "store";
    case SassClass::Other:
      return "other";
  }
  return "?";
}

int SassCounts::of(SassClass c) const {
  switch (c) {
    case SassClass::Barrier:
      return barrier;
    case SassClass::Shuffle:
      return shuffle;
    case SassClass::Branch:
      return branch;
    case SassClass::Load:
      return load;
    case SassClass::Store:
      return store;
    case SassClass::Other:
      return instructions - barrier - shuffle - branch - load - store;
  }
  return 0;
}

SassCounts count_sass(std::string_view sass) {
  SassCounts c;
  while (!sass.empty()) {
    const std::size_t eol = sass.find('\n');
    const std::string_view line = sass.substr(0, eol);
    sass = eol == std::string_view::npos ? std::string_view{} : sass.substr(eol + 1);
    const std::string_view op = sass_opcode(line);
    if (op.empty() || line.find("Function :") != std::string_view::npos) continue;
    const std::string_view base = op.substr(0, op.find('.'));
    ++c.instructions;
    ++c.by_base[std::string(base)];
    switch (classify_opcode(op)) {
      case SassClass::Barrier:
        ++c.barrier;
        break;
      case SassClass::Shuffle:
        ++c.shuffle;
        break;
      case SassClass::Branch:
        ++c.branch;
        break;
      case SassClass::Load:
        ++c.load;
        c.local_load += base == "LDL";
        break;
      case SassClass::Store:
        ++c.store;
        c.local_store += base == "STL";
        break;
      case SassClass::Other:
        break;
    }
  }
  return c;
}

}  // namespace rl::code
