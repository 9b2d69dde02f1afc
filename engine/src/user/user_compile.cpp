// A user kernel through NVRTC: the contract's macros as -D options (so the user's lines are the
// compiler's lines), -lineinfo for the per-line columns, the cubin for the chosen architecture,
// and the compiler's messages mapped back to lines.
#include <chrono>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/user/user_kernel.h"
#include "engine_embedded/timeline_headers.h"
#include "kernels/timeline_marks.cuh"
#include "user/nvrtc_api.h"

namespace rl {

namespace {

// The contract's names, in a header included before the user's file: RL_T and RL_P are types
// (typedefs, so RL_P(x) casts read as in any C++), RL_BLOCK and RL_UNROLL constants for array
// sizes and loops. The user's lines stay the compiler's lines.
constexpr const char* kContractHeader = "reductionlab_contract.h";

// For a kernel that declares RL_WRITES_TOTAL: adds a block's sum into the total. The int32
// partial is a long long, which atomicAdd takes as unsigned (two's complement adds alike).
std::string add_total_function(bool i32) {
  return std::string("__device__ __forceinline__ void rl_add_total(RL_P* total, RL_P v) {\n") +
         (i32 ? "  atomicAdd((unsigned long long*)total, (unsigned long long)v);\n"
              : "  atomicAdd(total, v);\n") +
         "}\n";
}

// Timeline mode: the marks' machinery, then __global__ (and __launch_bounds__, which only a
// kernel takes) turned into a device function's attributes until timeline_entry() restores them.
constexpr const char* kTimelinePrologue =
    "#include \"timeline_user.cuh\"\n"
    "#undef __global__\n#define __global__ __device__ __forceinline__\n"
    "#undef __launch_bounds__\n#define __launch_bounds__(...)\n";

std::string contract_header(const UserCompileShape& s) {
  const bool i32 = s.type == DType::Int32;
  return std::string("#pragma once\n") + "#define RL_BLOCK " + std::to_string(s.block_size) +
         "\n#define RL_UNROLL " + std::to_string(s.unroll) + "\n#define RL_INT32 " +
         (i32 ? "1" : "0") + "\ntypedef " + (i32 ? "int" : "float") + " RL_T;\ntypedef " +
         (i32 ? "long long" : "float") + " RL_P;\n" + add_total_function(i32) +
         (s.timeline ? kTimelinePrologue : "#include \"rl_timeline.h\"\n");
}

// After the user's source (so its lines stay the compiler's lines): the kernel NVRTC exports in
// timeline mode, marking each warp's start and end around the user's function.
std::string timeline_entry(const std::string& name) {
  // NVRTC has no push_macro: the two are restored as the toolkit's crt/host_defines.h spells them.
  return std::string("\n#undef __global__\n#define __global__ __attribute__((global))\n") +
         "#undef __launch_bounds__\n"
         "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n" +
         "extern \"C\" __global__ void __launch_bounds__(RL_BLOCK) " + kUserTimelineEntry +
         "(const RL_T* in, RL_P* partials, unsigned long long n) {\n  rl_tl_user_begin();\n  " +
         name + "(in, partials, n);\n  rl_tl_user_end();\n}\n";
}

// rl_timeline.h, which a user's kernel may include for rl_phase(): outside timeline mode the
// marks compile to nothing.
constexpr const char* kUserTimelineHeaderName = "rl_timeline.h";
std::string user_timeline_header(bool timeline) {
  return timeline ? "#pragma once\n" : "#pragma once\n#define rl_phase(name) ((void)0)\n";
}

std::vector<std::string> options_for(const UserCompileShape& s) {
  std::vector<std::string> o = {"--gpu-architecture=" + s.arch, "-lineinfo", "-std=c++17",
                                std::string("--pre-include=") + kContractHeader};
  if (const std::string inc = cuda_include_dir(); !inc.empty())
    o.push_back("--include-path=" + inc);
  return o;
}

// NVRTC's messages: "kernel.cu(12): error: identifier \"x\" is undefined", then the line and a
// caret under the column. Lines without a position ("error: ...") keep line 0.
std::vector<CompileDiagnostic> parse_log(const std::string& log) {
  static const std::regex with_line(
      R"(^(?:[^(\n]*)\((\d+)\): (error|warning|remark|catastrophic error)(?: #[\w-]+)?: (.*)$)");
  static const std::regex without_line(R"(^(error|warning|catastrophic error): (.*)$)");
  std::vector<CompileDiagnostic> out;
  std::istringstream in(log);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    CompileDiagnostic d;
    if (std::regex_match(lines[i], m, with_line)) {
      d.line = std::stoi(m[1]);
      d.severity = m[2] == "catastrophic error" ? "error" : std::string(m[2]);
      d.message = m[3];
      // The caret two lines down marks the column.
      if (i + 2 < lines.size()) {
        const std::size_t caret = lines[i + 2].find('^');
        if (caret != std::string::npos && lines[i + 2].find_first_not_of(" ^") == std::string::npos)
          d.column = int(caret) + 1;
      }
    } else if (std::regex_match(lines[i], m, without_line)) {
      d.severity = m[1] == "catastrophic error" ? "error" : std::string(m[1]);
      d.message = m[2];
    } else {
      continue;
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

std::string nvrtc_unavailable_reason() {
  std::string why;
  return nvrtc_api(&why) ? std::string() : why;
}

std::string nvrtc_version() {
  const NvrtcApi* api = nvrtc_api(nullptr);
  if (!api) return {};
  int major = 0, minor = 0;
  api->version(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

CompileResult compile_user_kernel(const UserKernelSource& k, const UserCompileShape& shape) {
  CompileResult r;
  const NvrtcApi* api = nvrtc_api(&r.unavailable);
  if (!api) return r;
  for (const std::string& e : check_user_kernel(k)) {
    r.diagnostics.push_back({0, 0, "error", e});
    r.log += e + "\n";
  }
  if (!r.diagnostics.empty()) return r;
  nvrtcProgram prog = nullptr;
  const std::string file = k.name + ".cu";  // the name in messages and line tables
  const std::string header = contract_header(shape);
  const std::string user_header = user_timeline_header(shape.timeline);
  const char* headers[] = {header.c_str(), user_header.c_str(), kTimelineMarksHeader,
                           kTimelineUserHeader};
  const char* header_names[] = {kContractHeader, kUserTimelineHeaderName, "timeline_marks.cuh",
                                "timeline_user.cuh"};
  const std::string source = shape.timeline ? k.source + timeline_entry(k.name) : k.source;
  if (const nvrtcResult e =
          api->create(&prog, source.c_str(), file.c_str(), 4, headers, header_names);
      e != NVRTC_SUCCESS) {
    r.log = std::string("nvrtcCreateProgram failed: ") + api->error_string(e);
    r.diagnostics.push_back({0, 0, "error", r.log});
    return r;
  }
  const std::vector<std::string> opts = options_for(shape);
  std::vector<const char*> argv;
  for (const auto& o : opts) argv.push_back(o.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  const nvrtcResult compiled = api->compile(prog, int(argv.size()), argv.data());
  r.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::size_t log_size = 0;
  if (api->log_size(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    r.log.resize(log_size);
    api->log(prog, r.log.data());
    r.log.resize(log_size - 1);  // the terminating NUL
  }
  r.diagnostics = parse_log(r.log);
  if (compiled == NVRTC_SUCCESS) {
    std::size_t size = 0;
    if (api->cubin_size(prog, &size) == NVRTC_SUCCESS && size > 0) {
      r.cubin.resize(size);
      r.ok = api->cubin(prog, r.cubin.data()) == NVRTC_SUCCESS;
    }
    if (api->ptx_size && api->ptx && api->ptx_size(prog, &size) == NVRTC_SUCCESS && size > 1) {
      r.ptx.resize(size);
      if (api->ptx(prog, r.ptx.data()) == NVRTC_SUCCESS)
        r.ptx.resize(size - 1);
      else
        r.ptx.clear();
    }
    if (!r.ok)
      r.diagnostics.push_back(
          {0, 0, "error", "NVRTC compiled but gave no cubin for " + shape.arch});
  } else if (r.diagnostics.empty()) {
    r.diagnostics.push_back(
        {0, 0, "error", std::string("compilation failed: ") + api->error_string(compiled)});
  }
  api->destroy(&prog);
  return r;
}

std::map<unsigned, std::string> user_phase_names(std::string_view source) {
  static const std::regex call(R"re(\brl_phase\s*\(\s*"([^"\\]*)"\s*\))re");
  std::map<unsigned, std::string> out;
  const std::string text(source);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), call); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[1];
    out.emplace(rl_tl_name_hash(name.c_str()), name);
  }
  return out;
}

}  // namespace rl
