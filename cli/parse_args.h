// Parsers for the values people type on the command line. Each throws UsageError naming the
// flag and the bad item, e.g. "--block-sizes '256,abc': 'abc' is not a whole number".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/user_kernel_source.h"
#include "engine/core/types.h"

namespace rlcli {

// "a,b,c" -> {"a","b","c"}, spaces around items trimmed; an empty item is an error.
std::vector<std::string> split_list(std::string_view flag, std::string_view text);

int parse_int(std::string_view flag, std::string_view text);
std::vector<int> parse_int_list(std::string_view flag, std::string_view text);
double parse_number(std::string_view flag, std::string_view text);
std::uint64_t parse_size_arg(std::string_view flag, std::string_view text);
std::vector<std::uint64_t> parse_sizes_arg(std::string_view flag, std::string_view text);

// "global", "shared", "registers", "both" (global and shared) or a comma list of them.
std::vector<rl::Workspace> parse_workspaces(std::string_view flag, std::string_view text);
// "int32", "float32", "both" or a comma list.
std::vector<rl::DType> parse_types(std::string_view flag, std::string_view text);

// Variant names as typed (ids or classic names, "reduceUnroll8", or "all", kept as it is for
// rl::resolve_all). Unknown names are an error that points at `reductionlab-cli variants`.
std::vector<std::string> parse_variant_names(std::string_view flag, std::string_view text);
// One id or classic name -> canonical id.
std::string parse_variant_id(std::string_view flag, std::string_view text);

// --kernel FILE.cu [--kernel-name NAME]: the file read as a user kernel (engine/user/
// user_kernel.h), checked against the contract and registered, so that --variants, --baseline
// and the code view may name it. The engine's message after "--kernel ".
rl::UserKernelSource read_kernel_arg(const std::string& path, const std::string& name);

// "cpu" -> nullopt; "cuda" or "cuda:N" -> N.
struct DeviceChoice {
  bool cpu = false;
  int cuda_index = 0;
};
DeviceChoice parse_device(std::string_view flag, std::string_view text);

}  // namespace rlcli
