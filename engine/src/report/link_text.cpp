#include "engine/report/link_text.h"

#include <algorithm>
#include <cmath>

#include "engine/report/format.h"

namespace rl {

namespace {

// Nominal rates are whole numbers of GB/s: "450 GB/s", not "450.0 GB/s".
std::string nominal_gbps(double gbps) {
  if (gbps > 0 && gbps < 1e6 && gbps == std::floor(gbps))
    return std::to_string(static_cast<long long>(gbps)) + " GB/s";
  return format_gbps(gbps);
}

std::string pair_name(int a, int b) {
  return "cuda:" + std::to_string(a) + " <-> cuda:" + std::to_string(b);
}

const PeerLink* reverse_of(const std::vector<PeerLink>& links, const PeerLink& l) {
  for (const PeerLink& r : links)
    if (r.from == l.to && r.to == l.from) return &r;
  return nullptr;
}

std::string direction(const PeerLink& l) {
  return std::to_string(l.from) + " -> " + std::to_string(l.to);
}

}  // namespace

std::string link_kind_text(const PeerLink& l) {
  if (l.link_source.empty()) return "link kind not recorded (written before links were named)";
  if (!l.nvml_answered()) return "link kind unknown: " + l.link_source;
  if (l.nvlinks == 0) return "no NVLink (NVML)";
  std::string out = nvlink_name(l.nvlink_version) + " x" + std::to_string(l.nvlinks);
  if (l.nvswitch) out += " through NVSwitch";
  if (l.nvlink_gbps > 0)
    out += " (" + nominal_gbps(l.nvlink_gbps) + " per direction, NVML)";
  else
    out += " (per-link rate of " + nvlink_name(l.nvlink_version) + " unknown to this build, NVML)";
  return out;
}

std::vector<std::string> link_lines(const std::vector<PeerLink>& links) {
  std::vector<std::string> out;
  for (const PeerLink& l : links) {
    const PeerLink* r = reverse_of(links, l);
    if (r && r->from < l.from) continue;  // said with its first direction
    std::string line = pair_name(l.from, l.to) + ": " + link_kind_text(l);
    if (!r || r->access == l.access)
      line += std::string(", P2P ") + (l.access ? "yes" : "no");
    else
      line += ", P2P " + direction(l) + (l.access ? " yes" : " no") + ", " + direction(*r) +
              (r->access ? " yes" : " no");
    line += ", performance rank " + std::to_string(l.performance_rank);
    if (l.native_atomics) line += ", native atomics";
    std::vector<std::string> copies;
    for (const PeerLink* d : {&l, r})
      if (d && d->measured_gbps > 0)
        copies.push_back(format_gbps(d->measured_gbps) + " (" + direction(*d) + ")");
    if (!copies.empty()) {
      line += ", measured peer copy " + copies[0];
      if (copies.size() > 1) line += ", " + copies[1];
    }
    out.push_back(line);
  }
  return out;
}

double nvlink_roof(const std::vector<PeerLink>& links, std::string* why) {
  double roof = 0;
  for (const PeerLink& l : links) {
    std::string reason;
    if (l.link_source.empty())
      reason =
          "the session does not say which links join its GPUs (written before NVML was "
          "asked)";
    else if (!l.nvml_answered())
      reason = "the link " + pair_name(l.from, l.to) + " is unknown: " + l.link_source;
    else if (l.nvlinks == 0)
      reason = "no NVLink joins " + pair_name(l.from, l.to) + " (NVML)";
    else if (l.nvlink_gbps <= 0)
      reason =
          "the per-link rate of " + nvlink_name(l.nvlink_version) + " is unknown to this build";
    if (!reason.empty()) {
      if (why) *why = reason;
      return 0;
    }
    roof = roof == 0 ? l.nvlink_gbps : std::min(roof, l.nvlink_gbps);
  }
  if (roof == 0 && why) *why = "one GPU: no link between GPUs";
  return roof;
}

}  // namespace rl
