// The contract a user kernel is held to before it is compiled (docs/user-kernels.md): a name that
// is an identifier and no built-in rung's, UTF-8 text of bounded size, and an extern "C"
// __global__ function of that name with the contract's three parameters.
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "engine/catalog/catalog.h"
#include "engine/core/error.h"
#include "engine/user/user_kernel.h"

namespace rl {

namespace {

// Comments and string literals blanked (newlines kept, so offsets and lines stay), so a kernel
// named in a comment is not taken for one.
std::string code_only(std::string_view s) {
  std::string out(s);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      const std::size_t end = out.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n') out[i] = ' ';
      --i;
    } else if ((out[i] == '"' || out[i] == '\'') && out.compare(i, 3, "\"C\"") != 0) {
      // String and character literals blanked; the "C" of extern "C" kept.
      const char quote = out[i];
      for (++i; i < out.size() && out[i] != quote && out[i] != '\n'; ++i) {
        if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] != '\n') out[i++] = ' ';
        out[i] = ' ';
      }
    } else if (out.compare(i, 3, "\"C\"") == 0) {
      i += 2;
    }
  }
  return out;
}

const std::regex& kernel_head() {
  static const std::regex re(
      R"(extern\s+"C"\s+__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(([^)]*)\))");
  return re;
}

// The parameter's type with its name, const, __restrict__ and spaces taken away: "RL_T*".
std::string bare_type(std::string p) {
  p = std::regex_replace(p, std::regex(R"(\b(const|__restrict__|__restrict|restrict)\b)"), " ");
  p = std::regex_replace(p, std::regex(R"(\s*\*\s*)"), "*");
  p = std::regex_replace(p, std::regex(R"(^\s+|\s+$)"), "");
  // Drop the parameter's name: the last identifier after a space or a '*'.
  const std::size_t cut = p.find_last_of(" *");
  if (cut != std::string::npos && cut + 1 < p.size()) p = p.substr(0, cut + 1);
  return std::regex_replace(p, std::regex(R"(\s+)"), " ");
}

std::string signature_error(const std::string& name, const std::string& params) {
  std::vector<std::string> ps;
  std::stringstream in(params);
  for (std::string p; std::getline(in, p, ',');) ps.push_back(bare_type(p));
  const bool ok = ps.size() == 3 && ps[0] == "RL_T*" && ps[1] == "RL_P*" &&
                  (ps[2] == "unsigned long long " || ps[2] == "size_t " ||
                   ps[2] == "std::size_t " || ps[2] == "unsigned long long int ");
  if (ok) return {};
  return name + ": the signature must be extern \"C\" __global__ void " + name +
         "(const RL_T* in, RL_P* partials, unsigned long long n), not (" + params +
         ") (docs/user-kernels.md)";
}

std::string utf8_error(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = s[i];
    const int extra = c < 0x80         ? 0
                      : (c >> 5) == 6  ? 1
                      : (c >> 4) == 14 ? 2
                      : (c >> 3) == 30 ? 3
                                       : -1;
    bool bad = extra < 0 || i + extra >= s.size() + (extra == 0 ? 1 : 0);
    for (int k = 1; !bad && k <= extra; ++k) bad = (static_cast<unsigned char>(s[i + k]) >> 6) != 2;
    if (bad || c == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      return std::string("the source is not UTF-8 text (byte ") + hex + " at offset " +
             std::to_string(i) + ")";
    }
    i += extra + 1;
  }
  return {};
}

// Words C++ keeps for itself: a kernel cannot be named after one.
bool is_cpp_keyword(const std::string& name) {
  static const std::set<std::string, std::less<>> words = {
      "auto",     "bool",     "break",     "case",    "char",    "class",    "const",
      "continue", "default",  "delete",    "do",      "double",  "else",     "enum",
      "extern",   "false",    "float",     "for",     "goto",    "if",       "inline",
      "int",      "long",     "namespace", "new",     "nullptr", "operator", "private",
      "public",   "register", "return",    "short",   "signed",  "sizeof",   "static",
      "struct",   "switch",   "template",  "this",    "true",    "typedef",  "typename",
      "union",    "unsigned", "using",     "virtual", "void",    "volatile", "while"};
  return words.count(name) > 0;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<std::string> user_kernel_names(std::string_view source) {
  const std::string code = code_only(source);
  std::vector<std::string> names;
  for (std::sregex_iterator it(code.begin(), code.end(), kernel_head()), end; it != end; ++it)
    names.push_back((*it)[1]);
  return names;
}

std::string user_kernel_name_problem(const std::string& name) {
  if (name.empty())
    return "Name: required, the kernel's extern \"C\" __global__ function (e.g. reduceMine)";
  static const std::regex identifier(R"([A-Za-z_]\w{0,63})");
  if (!std::regex_match(name, identifier))
    return "Name \"" + name +
           "\": a kernel name is a C identifier (letters, digits and _, not starting with a "
           "digit, at most 64 characters)";
  if (is_cpp_keyword(name)) return "Name \"" + name + "\": a C++ keyword cannot name a kernel";
  if (const auto builtin = resolve_variant(name);
      builtin && builtin->variant->family != VariantFamily::User)
    return "Name \"" + name + "\": a built-in rung is called that; name yours otherwise";
  return {};
}

std::vector<std::string> check_user_kernel(const UserKernelSource& k) {
  std::vector<std::string> errors;
  if (const std::string problem = user_kernel_name_problem(k.name); !problem.empty())
    errors.push_back(problem);
  if (k.source.size() > kMaxUserKernelBytes)
    errors.push_back("the source is " + std::to_string(k.source.size()) + " bytes; at most " +
                     std::to_string(kMaxUserKernelBytes));
  if (const std::string bad = utf8_error(k.source); !bad.empty()) errors.push_back(bad);
  if (!errors.empty()) return errors;
  const std::string code = code_only(k.source);
  std::vector<std::string> found;
  for (std::sregex_iterator it(code.begin(), code.end(), kernel_head()), end; it != end; ++it) {
    found.push_back((*it)[1]);
    if ((*it)[1] == k.name) {
      if (const std::string e = signature_error(k.name, (*it)[2]); !e.empty()) errors.push_back(e);
      return errors;
    }
  }
  errors.push_back("no kernel named " + k.name +
                   (found.empty() ? std::string(": the source defines no extern \"C\" __global__ "
                                                "function (docs/user-kernels.md)")
                                  : ": the source defines " + join(found)));
  return errors;
}

UserKernelContract user_kernel_contract(const UserKernelSource& k) {
  UserKernelContract c;
  static const std::regex grid(R"(#\s*define\s+RL_GRID_BLOCKS_PER_SM\s+(\d{1,4})\b)");
  const std::string code = code_only(k.source);
  std::smatch m;
  if (std::regex_search(code, m, grid)) c.grid_blocks_per_sm = std::stoi(m[1]);
  static const std::regex total(R"(#\s*define\s+RL_WRITES_TOTAL\b)");
  c.writes_total = std::regex_search(code, total);
  return c;
}

UserKernelSource read_user_kernel_file(const std::string& path, const std::string& name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot be opened");
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, std::size_t(in.gcount()));
    if (text.size() > kMaxUserKernelBytes)
      throw Error(path + ": larger than " + std::to_string(kMaxUserKernelBytes / 1024) +
                  " KB; a user kernel is one .cu file of a few KB");
  }
  if (in.bad()) throw Error(path + ": could not be read");
  UserKernelSource k;
  k.source = std::move(text);
  k.file = path;
  k.name = name;
  if (k.name.empty()) {
    if (const std::string bad = utf8_error(k.source); !bad.empty()) throw Error(path + ": " + bad);
    const std::vector<std::string> names = user_kernel_names(k.source);
    if (names.size() != 1)
      throw Error(path + (names.empty()
                              ? std::string(": defines no extern \"C\" __global__ function "
                                            "(docs/user-kernels.md)")
                              : ": defines " + join(names) + "; say which with --kernel-name"));
    k.name = names.front();
  }
  const std::vector<std::string> errors = check_user_kernel(k);
  if (!errors.empty()) throw Error(path + ": " + errors.front());
  return k;
}

}  // namespace rl
