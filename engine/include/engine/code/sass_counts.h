// SASS instruction classes the Code view highlights and counts: barriers, shuffles, branches,
// memory loads and stores. One place decides, so the app, the CLI and the tests agree.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace rl::code {

enum class SassClass { Barrier, Shuffle, Branch, Load, Store, Other };

// The opcode of one line of cuobjdump -sass text ("/*0070*/ @P0 BRA 0x4f0 ;" -> "BRA"), with
// its modifiers ("BAR.SYNC.DEFER_BLOCKING"); "" for a line that is no instruction.
std::string_view sass_opcode(std::string_view line);

// Classes by the opcode's base (before the first '.'):
//  Barrier BAR; Shuffle SHFL; Branch BRA, BSSY, BSYNC (the branch and reconvergence pair);
//  Load LDG, LDS, LDL, LD, LDSM; Store STG, STS, STL, ST. Constant loads (LDC, ULDC) read
//  kernel parameters, not data, and count as Other, as do atomics (ATOM*, RED).
SassClass classify_opcode(std::string_view opcode);
std::string_view to_string(SassClass c);  // "barrier", "shuffle", "branch", "load", "store"

struct SassCounts {
  int instructions = 0;
  int barrier = 0;
  int shuffle = 0;
  int branch = 0;
  int load = 0;
  int store = 0;
  int local_load = 0;                  // LDL: spills and stack arrays read back
  int local_store = 0;                 // STL
  std::map<std::string, int> by_base;  // "BAR" -> 10, for every opcode base seen

  int of(SassClass c) const;
};

SassCounts count_sass(std::string_view sass);

}  // namespace rl::code
