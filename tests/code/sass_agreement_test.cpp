// The SASS counts the app and the CLI show (BAR, SHFL, BRA/BSSY/BSYNC, loads,
// stores) agree with counts taken afresh from `cuobjdump -sass` of the built binaries, for every
// kernel instantiation the catalog runs and every architecture built. The dump is parsed here
// on its own (raw lines, encodings and all), not through the engine's parser.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include "code/code_data.h"
#include "engine/catalog/catalog.h"
#include "engine/code/code_view.h"

namespace rl::code {
namespace {

struct Counts {
  int bar = 0, shfl = 0, branch = 0, load = 0, store = 0, total = 0;
  bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Counts& c) {
  return os << "{total " << c.total << ", BAR " << c.bar << ", SHFL " << c.shfl << ", branch "
            << c.branch << ", loads " << c.load << ", stores " << c.store << "}";
}

std::string run(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  char buf[1 << 16];
  std::size_t n = 0;
  while (p && (n = fread(buf, 1, sizeof buf, p.get())) > 0) out.append(buf, n);
  return out;
}

// (arch, mangled name) -> counts, from the raw dump of each binary; the first binary wins.
std::map<std::pair<std::string, std::string>, Counts> dump_counts(const std::string& cuobjdump) {
  std::map<std::pair<std::string, std::string>, Counts> out;
  const std::regex arch_re(R"(^\s*code for (sm_\d+))");
  const std::regex func_re(R"(^\s*Function : (\S+))");
  const std::regex insn_re(R"(^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*))");
  const std::regex load_re("LDG|LDS|LDL|LD|LDSM|LDGSTS"), store_re("STG|STS|STL|ST|STSM");
  std::stringstream binaries(RL_CODE_BINARIES);
  for (std::string bin; std::getline(binaries, bin, '|');) {
    std::istringstream dump(run("'" + cuobjdump + "' -sass '" + bin + "'"));
    std::map<std::pair<std::string, std::string>, Counts> mine;
    std::string arch, func;
    std::smatch m;
    for (std::string line; std::getline(dump, line);) {
      if (std::regex_search(line, m, arch_re)) arch = m[1];
      if (std::regex_search(line, m, func_re)) func = m[1];
      if (func.empty() || !std::regex_search(line, m, insn_re)) continue;
      Counts& c = mine[{arch, func}];
      const std::string op = m[1];
      ++c.total;
      c.bar += op == "BAR";
      c.shfl += op == "SHFL";
      c.branch += op == "BRA" || op == "BSSY" || op == "BSYNC";
      c.load += std::regex_match(op, load_re);
      c.store += std::regex_match(op, store_re);
    }
    out.insert(mine.begin(), mine.end());
  }
  return out;
}

TEST(SassAgreement, CountsShownAgreeWithCuobjdumpOfTheBuiltBinaries) {
  if (!sass_unavailable_reason().empty()) GTEST_SKIP() << sass_unavailable_reason();
  const std::string cuobjdump(cuobjdump_used_by_build());
  const auto dumped = dump_counts(cuobjdump);
  ASSERT_FALSE(dumped.empty()) << "no SASS from " << cuobjdump << " of " << RL_CODE_BINARIES;
  int compared = 0;
  for (const VariantInfo& v : catalog()) {
    const std::vector<int> blocks = v.block_sizes.empty() ? std::vector<int>{0} : v.block_sizes;
    for (DType t : v.types)
      for (Workspace w : v.workspaces)
        for (int u : v.unroll_factors)
          for (int b : blocks) {
            const CodeEntry e = find_code(CodeQuery{v.id, b, u, t, w});
            for (const auto& [arch, text] : e.sass) {
              const SassCounts shown = count_sass(text);
              Counts want;
              int found = 0;
              // CUB names its kernels per architecture (CUB_..._SM_900): each arch has its own.
              for (const std::string& name : e.mangled) {
                const auto it = dumped.find({arch, name});
                if (it == dumped.end()) continue;
                ++found;
                want.total += it->second.total, want.bar += it->second.bar;
                want.shfl += it->second.shfl, want.branch += it->second.branch;
                want.load += it->second.load, want.store += it->second.store;
              }
              ASSERT_GT(found, 0) << v.id << " B=" << b << " U=" << u << " " << arch
                                  << ": none of its kernels is in the binaries";
              const Counts got{shown.barrier, shown.shuffle, shown.branch,
                               shown.load,    shown.store,   shown.instructions};
              EXPECT_EQ(got, want) << v.id << " B=" << b << " U=" << u << " " << arch;
              ++compared;
            }
          }
  }
  EXPECT_GT(compared, 800);
}

}  // namespace
}  // namespace rl::code
