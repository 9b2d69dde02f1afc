// A reduction kernel the user wrote (docs/user-kernels.md has the contract): its source, read and
// checked against the contract, compiled on this machine by NVRTC (opened at run time: without it
// everything else works and compile() says why), and registered so the catalog, the spec, the
// runner and the Code view treat it as one more rung, under the name the user gave it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/user_kernel_source.h"
#include "engine/core/types.h"

namespace rl {

// What the source declares about itself (docs/user-kernels.md, "The grid" and "The partials"):
// read from `#define RL_GRID_BLOCKS_PER_SM k` and `#define RL_WRITES_TOTAL` where present.
struct UserKernelContract {
  int grid_blocks_per_sm = 0;  // 0: the engine's plan, one block per tile of B x U elements
  // true: the kernel adds the whole total into partials[0] (zeroed before every launch) and the
  // engine runs no finishing pass.
  bool writes_total = false;
};

// Every reason the source breaks the contract, one message each, naming the problem:
//  "name \"3x\": a kernel name is a C identifier (letters, digits, _), not starting with a digit"
//  "no kernel named reduceMine: the file defines reduceNeighbored, myReduce"
//  "reduceMine: the signature must be extern \"C\" __global__ void reduceMine(const RL_T* in,
//   RL_P* partials, unsigned long long n) (docs/user-kernels.md)"
//  "the source is not UTF-8 (byte 0xff at offset 1234)"
std::vector<std::string> check_user_kernel(const UserKernelSource& k);

// What is wrong with a name for a user kernel, "" when nothing: empty, not a C identifier of at
// most 64 characters, a C++ keyword, or a built-in rung's id or classic name. The editor checks
// it as it is typed; check_user_kernel() starts with it.
std::string user_kernel_name_problem(const std::string& name);

// The contract's declarations of a source that passed check_user_kernel().
UserKernelContract user_kernel_contract(const UserKernelSource& k);

// Reads path as a user kernel named `name` ("" : the file's only extern "C" __global__ function).
// Throws rl::Error naming the file and the problem (missing, too large, not UTF-8, no such
// kernel, a signature that does not match the contract).
UserKernelSource read_user_kernel_file(const std::string& path, const std::string& name = {});

// The extern "C" __global__ functions a source defines, in order.
std::vector<std::string> user_kernel_names(std::string_view source);

// One compiler message at its line in the user's source (1-based; 0 when it has none).
struct CompileDiagnostic {
  int line = 0;
  int column = 0;        // 0 when the compiler gave none
  std::string severity;  // "error", "warning", "remark"
  std::string message;   // the compiler's words
};

// What a point of a user kernel is compiled for: the macros it sees.
struct UserCompileShape {
  int block_size = 256;        // RL_BLOCK
  int unroll = 1;              // RL_UNROLL
  DType type = DType::Int32;   // RL_T (int or float), RL_P (long long or float)
  std::string arch = "sm_90";  // the device's, or a chosen one where there is no GPU
  // Timeline mode (docs/user-kernels.md, "Timelines"): the kernel compiled into the device
  // function that kUserTimelineEntry calls between each warp's start and end marks, with its
  // __syncthreads() and rl_phase() marks stamped; the module's rl_timeline_sink says where the
  // marks go.
  bool timeline = false;
};

// The entry point of a kernel compiled in timeline mode.
inline constexpr const char* kUserTimelineEntry = "rl_timeline_entry";

// The names a source passes to rl_phase("..."), by the 16-bit hash its marks carry.
std::map<unsigned, std::string> user_phase_names(std::string_view source);

struct CompileResult {
  bool ok = false;
  std::vector<CompileDiagnostic> diagnostics;  // errors and warnings, in the compiler's order
  std::string log;                             // the compiler's whole log
  std::string cubin;                           // the compiled code (bytes), when ok
  std::string ptx;                             // the PTX NVRTC made on the way, when ok
  double compile_ms = 0;                       // wall time of nvrtcCompileProgram
  std::string unavailable;  // why no compiler could be used here (NVRTC missing), or ""
};

// Compiles k for shape with NVRTC (-lineinfo, the macros above). Thread-safe. Never throws for the
// user's mistakes: they are in diagnostics; unavailable says when NVRTC itself is missing.
CompileResult compile_user_kernel(const UserKernelSource& k, const UserCompileShape& shape);

// Why NVRTC cannot be used on this machine, or "" (the version it found is nvrtc_version()).
std::string nvrtc_unavailable_reason();
std::string nvrtc_version();

// The registry the catalog reads (catalog/catalog.h's find_variant_by_id finds user kernels):
// registers k under its name (refused with a message when the name is a built-in variant's id
// or classic name, or k breaks the contract). Registering a name again replaces its source.
// Returns "" or the reason it was refused.
std::string register_user_kernel(const UserKernelSource& k);
// Whether id names a registered user kernel (its source: catalog.h's user_variant_source).
bool is_user_variant(std::string_view id);

// The starter kernel closest to a built-in variant (a file of resources/kernels/, written in the
// contract's form): what "New rung from this kernel" copies into the editor. The built-in
// kernels themselves are templates over the engine's launch interface, not in that form.
std::string starter_kernel_file(std::string_view variant_id);
// The name the copy takes: "myInterleaved" for reduceInterleaved, "myWarpShuffle" for
// warp_shuffle (a built-in rung's own name is refused).
std::string starter_rung_name(std::string_view variant_id);

// The sizes and inputs a user kernel is checked on before it is timed (docs/user-kernels.md,
// "Checked before timed"): 1, 31, 1023, 1025, 2^20 + 17 and the run's sizes, each with the
// run's deterministic input, all negative, all equal and (int32) every value INT32_MAX, then
// INT32_MIN.
std::vector<std::uint64_t> user_check_sizes();

}  // namespace rl
