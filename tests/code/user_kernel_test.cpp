// Kernels the user writes: the contract refuses what it must, naming the problem; the starter
// kernels compile with NVRTC and show their SASS, resources and line table; the compiler's
// messages land on the user's lines; a session carries the source and reads it back.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "engine/catalog/catalog.h"
#include "engine/code/user_code.h"
#include "engine/core/error.h"
#include "engine/io/export.h"
#include "engine/user/user_kernel.h"

namespace rl {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kStarters = RL_RESOURCES_DIR "/kernels/";
const std::string kBad = RL_USER_KERNELS_DIR "/";

UserKernelSource kernel(const std::string& name, const std::string& params) {
  return {name, "extern \"C\" __global__ void " + name + "(" + params + ") {}\n", "", ""};
}

struct Refusal {
  UserKernelSource k;
  std::string says;
};

class UserKernelContract : public ::testing::TestWithParam<Refusal> {};

TEST_P(UserKernelContract, RefusesNamingTheProblem) {
  const std::vector<std::string> errors = check_user_kernel(GetParam().k);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find(GetParam().says), std::string::npos) << errors.front();
}

const char* kGood = "const RL_T* in, RL_P* partials, unsigned long long n";

INSTANTIATE_TEST_SUITE_P(
    Refusals, UserKernelContract,
    ::testing::Values(
        Refusal{kernel("3x", kGood), "a kernel name is a C identifier"},
        Refusal{kernel("reduceInterleaved", kGood), "a built-in rung is called that"},
        Refusal{kernel("mine", "int* a"), "the signature must be"},
        Refusal{kernel("mine", "const RL_T* in, RL_T* partials, unsigned long long n"),
                "the signature must be"},
        Refusal{kernel("mine", "const RL_T* in, RL_P* partials, int n"), "the signature must be"},
        Refusal{{"other", kernel("mine", kGood).source, "", ""}, "no kernel named other"},
        Refusal{
            {"mine", "// extern \"C\" __global__ void mine(" + std::string(kGood) + ")\n", "", ""},
            "defines no extern \"C\" __global__ function"},
        Refusal{{"mine", std::string("extern \"C\" \xff"), "", ""}, "not UTF-8"},
        Refusal{{"mine", std::string(kMaxUserKernelBytes + 1, ' '), "", ""}, "bytes; at most"}));

TEST(UserKernelContract, AcceptsTheContractsSpellings) {
  for (const char* params :
       {kGood, "const RL_T* __restrict__ in, RL_P* __restrict__ out, size_t count",
        "RL_T *in, RL_P *partials, unsigned long long int n"})
    EXPECT_TRUE(check_user_kernel(kernel("mine", params)).empty()) << params;
  UserKernelSource lb = kernel("mine", kGood);
  lb.source = "extern \"C\" __global__ void __launch_bounds__(RL_BLOCK) mine(" +
              std::string(kGood) + ") {}";
  EXPECT_TRUE(check_user_kernel(lb).empty());
}

TEST(UserKernelContract, ReadsTheGridItDeclares) {
  UserKernelSource k = kernel("mine", kGood);
  EXPECT_EQ(user_kernel_contract(k).grid_blocks_per_sm, 0);
  k.source = "#define RL_GRID_BLOCKS_PER_SM 8\n" + k.source;
  EXPECT_EQ(user_kernel_contract(k).grid_blocks_per_sm, 8);
}

TEST(UserKernelContract, ReadsThatItWritesTheTotal) {
  UserKernelSource k = kernel("mine", kGood);
  EXPECT_FALSE(user_kernel_contract(k).writes_total);
  k.source = "// #define RL_WRITES_TOTAL is only a comment here\n" + k.source;
  EXPECT_FALSE(user_kernel_contract(k).writes_total);
  k.source = "#define RL_WRITES_TOTAL\n" + k.source;
  EXPECT_TRUE(user_kernel_contract(k).writes_total);
}

TEST(UserKernelCompile, AKernelThatWritesItsTotalHasTheAddingFunction) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const UserKernelSource k = read_user_kernel_file(kBad + "writes_total.cu");
  for (DType t : {DType::Int32, DType::Float32}) {
    UserCompileShape shape;
    shape.type = t;
    const CompileResult r = compile_user_kernel(k, shape);
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_NE(r.ptx.find("atom"), std::string::npos);
  }
}

TEST(UserKernelFile, NamesTheFileAndTheProblem) {
  EXPECT_THROW(
      {
        try {
          read_user_kernel_file(kBad + "no_such_file.cu");
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("no_such_file.cu: cannot be opened"),
                    std::string::npos);
          throw;
        }
      },
      Error);
  const UserKernelSource k = read_user_kernel_file(kStarters + "interleaved.cu");
  EXPECT_EQ(k.name, "myInterleaved");
  try {
    read_user_kernel_file(kStarters + "interleaved.cu", "nope");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no kernel named nope: the source defines myInterleaved"),
              std::string::npos)
        << e.what();
  }
}

class StarterKernel : public ::testing::TestWithParam<const char*> {};

TEST_P(StarterKernel, CompilesAndShowsItsSassResourcesAndLines) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const UserKernelSource k = read_user_kernel_file(kStarters + GetParam());
  ASSERT_EQ(register_user_kernel(k), "");
  for (DType t : {DType::Int32, DType::Float32}) {
    UserCompileShape shape;
    shape.block_size = 256;
    shape.unroll = 4;
    shape.type = t;
    const code::UserCode u = code::user_code(k, shape);
    ASSERT_TRUE(u.compiled.ok) << u.compiled.log;
    EXPECT_FALSE(u.compiled.cubin.empty());
    EXPECT_GT(u.compiled.compile_ms, 0);
    ASSERT_EQ(u.entry.variant, find_variant_by_id(k.name));
    if (!u.entry.missing.empty()) GTEST_SKIP() << u.entry.missing;
    const std::string& sass = u.entry.sass.at("sm_90");
    EXPECT_NE(sass.find(k.name), std::string::npos);
    EXPECT_NE(sass.find("EXIT"), std::string::npos);
    EXPECT_GT(u.entry.resources.at("sm_90").registers, 0);
    if (u.entry.lines.count("sm_90")) {
      const auto& table = u.entry.lines.at("sm_90").at(k.name);
      ASSERT_FALSE(table.empty());
      bool on_a_line = false;
      for (const code::LinePosition& p : table)
        on_a_line |= p.file == code::user_source_file(k) && p.line > 0;
      EXPECT_TRUE(on_a_line);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Starters, StarterKernel,
                         ::testing::Values("neighbored.cu", "interleaved.cu", "unroll.cu",
                                           "unroll_warp.cu", "warp_shuffle.cu"));

TEST(UserKernelCompile, ErrorsLandOnTheUsersLines) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const UserKernelSource k = read_user_kernel_file(kBad + "syntax_error.cu");
  const CompileResult r = compile_user_kernel(k, UserCompileShape{});
  EXPECT_FALSE(r.ok);
  ASSERT_GE(r.diagnostics.size(), 2u) << r.log;
  EXPECT_EQ(r.diagnostics[0].line, 6) << r.log;
  EXPECT_EQ(r.diagnostics[0].severity, "error");
  EXPECT_NE(r.diagnostics[0].message.find("undeclared_value"), std::string::npos);
  EXPECT_GT(r.diagnostics[0].column, 0);
  bool semicolon = false;
  for (const CompileDiagnostic& d : r.diagnostics)
    semicolon |= (d.line == 7 || d.line == 8) && d.message.find(";") != std::string::npos;
  EXPECT_TRUE(semicolon) << r.log;
}

TEST(UserKernelSession, TheTimeLimitTravelsWithTheSpecAndIsChecked) {
  ExperimentSpec s;
  s.variants = {"interleaved"};
  EXPECT_EQ(spec_to_json(s).find("user_kernel_limit_s"), std::string::npos);  // the default
  s.timing.user_kernel_limit_s = 3;
  EXPECT_EQ(spec_from_json(spec_to_json(s)).timing.user_kernel_limit_s, 3);
  s.timing.user_kernel_limit_s = 0.1;
  const std::vector<std::string> errors = validate(s, nullptr);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().find("time limit 0.1 s for a kernel you wrote"), std::string::npos)
      << errors.front();
}

TEST(UserKernelSession, TheSourceTravelsWithTheSpec) {
  ExperimentSpec s;
  const UserKernelSource k = read_user_kernel_file(kStarters + "unroll.cu");
  s.user_kernels = {k};
  s.variants = {"interleaved", k.name};
  const ExperimentSpec back = spec_from_json(spec_to_json(s));
  ASSERT_EQ(back.user_kernels.size(), 1u);
  EXPECT_EQ(back.user_kernels.front(), k);
  EXPECT_EQ(back.variants, s.variants);
  EXPECT_TRUE(is_user_variant(k.name));
  EXPECT_TRUE(validate(back, nullptr).empty());
  // A session whose kernel breaks the contract is refused naming the field.
  std::string text = spec_to_json(s);
  const std::string sig = "unsigned long long n)";
  text.replace(text.find(sig), sig.size(), "int n)");
  try {
    spec_from_json(text);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("user_kernels[0]: myUnroll: the signature must be"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// Timeline mode: every starter (with __launch_bounds__ or without, with marks or without)
// compiles into the timeline entry, its lines still the user's; outside it rl_phase() is a no-op.
class TimelineMode : public ::testing::TestWithParam<const char*> {};

TEST_P(TimelineMode, EveryStarterCompilesWithMarksAndWithout) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  UserKernelSource k =
      read_user_kernel_file(RL_RESOURCES_DIR "/kernels/" + std::string(GetParam()));
  for (bool timeline : {false, true}) {
    UserCompileShape shape;
    shape.timeline = timeline;
    const CompileResult r = compile_user_kernel(k, shape);
    ASSERT_TRUE(r.ok) << (timeline ? "timeline mode: " : "") << r.log;
    EXPECT_EQ(r.ptx.find(kUserTimelineEntry) != std::string::npos, timeline);
  }
}

INSTANTIATE_TEST_SUITE_P(Starters, TimelineMode,
                         ::testing::Values("neighbored.cu", "interleaved.cu", "unroll.cu",
                                           "unroll_warp.cu", "warp_shuffle.cu"));

TEST(TimelineMode, PhaseMarksCompileInBothModesAndNameTheirHashes) {
  if (const std::string why = nvrtc_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  UserKernelSource k;
  k.name = "myMarked";
  k.source =
      "#include \"rl_timeline.h\"\n"
      "extern \"C\" __global__ void __launch_bounds__(RL_BLOCK) myMarked(const RL_T* in, "
      "RL_P* partials, unsigned long long n) {\n"
      "  rl_phase(\"load\");\n  RL_P v = threadIdx.x < n ? RL_P(in[threadIdx.x]) : 0;\n"
      "  __syncthreads();\n  rl_phase( \"sum\" );\n"
      "  if (threadIdx.x == 0) partials[blockIdx.x] = v;\n}\n";
  for (bool timeline : {false, true}) {
    UserCompileShape shape;
    shape.timeline = timeline;
    const CompileResult r = compile_user_kernel(k, shape);
    EXPECT_TRUE(r.ok) << r.log;
  }
  const std::map<unsigned, std::string> names = user_phase_names(k.source);
  ASSERT_EQ(names.size(), 2u);
  std::vector<std::string> found;
  for (const auto& [hash, name] : names) {
    EXPECT_LT(hash, 0x10000u);
    found.push_back(name);
  }
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"load", "sum"}));
}

}  // namespace
}  // namespace rl
