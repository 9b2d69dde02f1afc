// How the links between GPUs read for people, in one place for `devices`, `run --devices`, the
// Devices panel, the multi-GPU view and its chart: what joins a pair (NVLink as the driver's
// NVML says, or why that is unknown), P2P access and the measured peer copy; and the NVLink
// roof of a set of links.
#pragma once

#include <string>
#include <vector>

#include "engine/device/links.h"

namespace rl {

// What joins the pair: "NVLink 4 x18 (450 GB/s per direction, NVML)", "NVLink 4 x18 through
// NVSwitch (...)", "no NVLink (NVML)", "link kind unknown: NVML unavailable: <why>", or
// "link kind not recorded (written before links were named)".
std::string link_kind_text(const PeerLink& l);

// One line per pair of GPUs (both directions together), in the order the pairs first appear:
// "cuda:0 <-> cuda:1: NVLink 4 x18 (450 GB/s per direction, NVML), P2P yes, performance rank 0,
// native atomics, measured peer copy 393.9 GB/s (0 -> 1), 393.1 GB/s (1 -> 0)".
std::vector<std::string> link_lines(const std::vector<PeerLink>& links);

// The NVLink roof per direction that every pair of `links` reaches (the smallest pair's), for
// a chart's roof line; 0 with *why set when there is none: no links, a pair whose link NVML
// did not name (its reason), a pair without NVLink, or a version whose rate is unknown.
double nvlink_roof(const std::vector<PeerLink>& links, std::string* why);

}  // namespace rl
