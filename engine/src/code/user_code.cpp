#include "engine/code/user_code.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace rl::code {

namespace fs = std::filesystem;

namespace {

// A toolkit program: the one found when the build was configured, else on PATH, else in the
// toolkit's usual folder; "" when none.
std::string tool(const char* name, const char* configured) {
  std::error_code ec;
  if (configured && *configured && fs::exists(configured, ec)) return configured;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string d; std::getline(dirs, d, ':');)
      if (!d.empty() && ::access((fs::path(d) / name).c_str(), X_OK) == 0)
        return (fs::path(d) / name).string();
  }
  const fs::path usual = fs::path("/usr/local/cuda/bin") / name;
  return ::access(usual.c_str(), X_OK) == 0 ? usual.string() : std::string();
}

#ifndef RL_CUOBJDUMP_PATH
#define RL_CUOBJDUMP_PATH ""
#endif
#ifndef RL_NVDISASM_PATH
#define RL_NVDISASM_PATH ""
#endif

// The program's standard output; the paths are ours (a temporary folder), so no shell quoting
// beyond single quotes is needed.
std::string output_of(const std::string& program, const std::string& args, bool* ok) {
  const std::string cmd = "'" + program + "' " + args + " 2>/dev/null";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return *ok = false, out;
  char buf[8192];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  *ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return out;
}

Resources parse_resources(const std::string& text) {
  Resources r;
  std::smatch m;
  static const std::regex reg(R"(REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+))");
  if (std::regex_search(text, m, reg)) {
    r.registers = std::stoi(m[1]);
    r.stack = std::stoi(m[2]);
    r.static_shared = std::stoi(m[3]);
    r.local = std::stoi(m[4]);
  }
  return r;
}

// nvdisasm -g: one position where the source line changes, as the build's tables
// (scripts/gen_code_view.py's parse_line_info).
std::vector<LinePosition> parse_lines(const std::string& text, const std::string& function) {
  std::vector<LinePosition> out;
  static const std::regex head(R"(^\.text\.(\S+):$)");
  static const std::regex file(R"re(^\s*//## File "([^"]+)", line (\d+))re");
  static const std::regex offset(R"(^\s*/\*([0-9a-f]{4,})\*/)");
  std::istringstream in(text);
  bool inside = false, have = false, emitted = false;
  LinePosition pos, last;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, head)) {
      inside = m[1] == function;
      have = emitted = false;
    } else if (inside && std::regex_search(line, m, file)) {
      pos.file = fs::path(std::string(m[1])).filename().string();
      pos.line = std::stoi(m[2]);
      have = true;
    } else if (inside && std::regex_search(line, m, offset)) {
      LinePosition p = have ? pos : LinePosition{};
      p.offset = std::stoull(std::string(m[1]), nullptr, 16);
      if (!emitted || p.file != last.file || p.line != last.line) out.push_back(p);
      last = p;
      emitted = true;
    }
  }
  return out;
}

std::vector<SourceLine> source_lines(const UserKernelSource& k) {
  std::vector<SourceLine> out;
  std::istringstream in(k.source);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    SourceLine s;
    s.text = line;
    s.file = user_source_file(k);
    s.file_line = ++n;
    s.in_kernel = true;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::string user_source_file(const UserKernelSource& k) {
  return k.name + ".cu";
}

UserCode user_code(const UserKernelSource& k, const UserCompileShape& shape) {
  UserCode u;
  u.compiled = compile_user_kernel(k, shape);
  if (!u.compiled.ok) return u;
  CodeEntry& e = u.entry;
  e.variant = find_variant_by_id(k.name);
  e.query.variant = k.name;
  e.query.block_size = shape.block_size;
  e.query.unroll = shape.unroll;
  e.query.type = shape.type;
  e.query.workspace = Workspace::Global;
  e.source = source_lines(k);
  e.functions = {k.name};
  e.mangled = {k.name};  // extern "C": the binary's name is the source's
  if (!u.compiled.ptx.empty()) e.ptx["compute_" + shape.arch.substr(3)] = u.compiled.ptx;
  const std::string cuobjdump = tool("cuobjdump", RL_CUOBJDUMP_PATH);
  if (cuobjdump.empty()) {
    e.missing = "no SASS: cuobjdump was not found (scripts/install-deps.sh installs it)";
    return u;
  }
  char dir_template[] = "/tmp/reductionlab-user-XXXXXX";
  if (!::mkdtemp(dir_template)) {
    e.missing = "no SASS: no temporary folder could be made";
    return u;
  }
  const fs::path dir = dir_template, cubin = dir / "kernel.cubin";
  std::ofstream(cubin, std::ios::binary)
      .write(u.compiled.cubin.data(), std::streamsize(u.compiled.cubin.size()));
  bool ok = false;
  const std::string sass = output_of(cuobjdump, "-sass '" + cubin.string() + "'", &ok);
  if (ok)
    e.sass[shape.arch] = sass;
  else
    e.missing = "no SASS: cuobjdump could not read the compiled kernel";
  const std::string res = output_of(cuobjdump, "-res-usage '" + cubin.string() + "'", &ok);
  if (ok) e.resources[shape.arch] = parse_resources(res);
  const std::string nvdisasm = tool("nvdisasm", RL_NVDISASM_PATH);
  if (!nvdisasm.empty()) {
    const std::string lines = output_of(nvdisasm, "-g -c '" + cubin.string() + "'", &ok);
    if (ok) e.lines[shape.arch][k.name] = parse_lines(lines, k.name);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return u;
}

}  // namespace rl::code
