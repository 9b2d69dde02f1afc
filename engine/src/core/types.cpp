#include "engine/core/types.h"

namespace rl {

std::string_view to_string(DType t) {
  return t == DType::Int32 ? "int32" : "float32";
}

std::string_view to_string(Workspace w) {
  switch (w) {
    case Workspace::Global:
      return "global";
    case Workspace::Shared:
      return "shared";
    case Workspace::Registers:
      return "registers";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view s) {
  if (s == "int32" || s == "int") return DType::Int32;
  if (s == "float32" || s == "float") return DType::Float32;
  return std::nullopt;
}

std::optional<Workspace> parse_workspace(std::string_view s) {
  if (s == "global") return Workspace::Global;
  if (s == "shared") return Workspace::Shared;
  if (s == "registers") return Workspace::Registers;
  return std::nullopt;
}

}  // namespace rl
