#include "live_table.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engine/catalog/catalog.h"
#include "engine/session/metrics.h"
#include "engine/trace/model_counts.h"
#include "format.h"

namespace rlcli {

namespace {

std::string seed_label(const rl::PointSpec& p) {
  const rl::VariantInfo* v = rl::find_variant_by_id(p.variant);
  return v && !v->seed_name.empty() ? v->seed_label(p.unroll) : "-";
}

std::size_t terminal_width(int fd) {
  const std::size_t columns = terminal_columns(fd);
  return columns > 0 ? columns : 100;
}

// The narrow table's point: the classic ladder's name where it has one ("reduceUnroll8"), else
// the id with its unroll factor.
std::string narrow_point(const rl::PointSpec& p) {
  return rl::variant_label(p.variant, p.unroll);
}

constexpr const char* kNarrowFormat = "%s  %-9s %4s  %s  %-7s  %10s  %8s  %s\n";

std::string gbps_text(double gbps) {
  return gbps > 0 ? format_fixed(gbps, 1) : "-";
}
std::string pct_text(double pct) {
  return rl::format_pct(pct);
}

// The counts columns: right-aligned, "-" for a variant without a block model.
constexpr const char* kCountsHeaderFormat = "  %10s  %11s  %8s  %12s  %11s  %8s";

std::string counts_cells(const std::optional<rl::ModelCounts>& c) {
  char buf[128];
  if (!c) {
    std::snprintf(buf, sizeof buf, kCountsHeaderFormat, "-", "-", "-", "-", "-", "-");
    return buf;
  }
  const rl::StepCounters& k = c->first_kernel;
  std::snprintf(buf, sizeof buf, kCountsHeaderFormat, std::to_string(k.barriers).c_str(),
                std::to_string(k.warp_steps()).c_str(),
                (format_fixed(100.0 * k.lane_efficiency(), 1) + "%").c_str(),
                std::to_string(k.loads).c_str(), std::to_string(k.stores).c_str(),
                std::to_string(c->launches).c_str());
  return buf;
}

std::string format_sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

}  // namespace

LiveTable::LiveTable(const rl::DeviceInfo& device, const std::vector<rl::PointSpec>& points,
                     const std::string& baseline, double noise_target, rl::TimeBasis basis)
    : device_(device), baseline_(baseline), noise_target_(noise_target), basis_(basis) {
  progress_tty_ = isatty(STDERR_FILENO) != 0;
  color_ = isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr;
  seed_width_ = std::max(seed_width_, std::size_t(7));  // the header's "classic"
  bool matrix_points = false, whole_points = false;
  for (const rl::PointSpec& p : points) {
    variant_width_ = std::max(variant_width_, p.variant.size());
    seed_width_ = std::max(seed_width_, seed_label(p).size());
    size_width_ = std::max(size_width_, p.size_text().size());
    point_width_ = std::max(point_width_, narrow_point(p).size());
    (p.is_matrix() ? matrix_points : whole_points) = true;
  }
  // The size column holds N for a whole array, the shape (rows x cols) for a matrix.
  size_header_ = !matrix_points ? "N" : whole_points ? "N|MxN" : "MxN";
  size_width_ = std::max(size_width_, size_header_.size());
}

void LiveTable::print_header() {
  std::printf("device: %s", device_.label().c_str());
  if (device_.backend == "cuda") {
    // Measured by the GPU worker process when the run starts: then listed at the end.
    std::printf(
        "  theoretical %s GB/s  measured copy %s\n", gbps_text(device_.theoretical_gbps).c_str(),
        device_.measured_copy_gbps > 0 ? (gbps_text(device_.measured_copy_gbps) + " GB/s").c_str()
                                       : "at the end");
    std::printf(
        "roofs: %%floor = the read floor's time / the point's time at the same size (the read "
        "floor: a kernel that only reads the input, measured before the first point of each "
        "size; listed at the end); %%theo = total GB/s / %s GB/s theoretical. The copy's GB/s "
        "(reads + writes) is information, not a roof\n",
        gbps_text(device_.theoretical_gbps).c_str());
  } else {
    std::printf("  %s\n", device_.name.c_str());
    std::printf(
        "note: host emulation, times are CPU times; no GPU bandwidth roof; speed-ups are "
        "CPU-time ratios, not GPU speed-ups%s\n",
        counts_ ? ": the counts columns are what a GPU would execute" : "");
  }
  std::printf(
      "speed-up: against %s at the same %s and type; first = first kernel alone (what "
      "the classic ladder times), total = whole reduction\n",
      baseline_.empty() ? "(none)" : baseline_.c_str(),
      size_header_ == "N"     ? "size"
      : size_header_ == "MxN" ? "shape"
                              : "size or shape");
  if (basis_ != rl::TimeBasis::Whole)
    std::printf("--time %s: GB/s, %%floor, %%theo and speed-up are on the %s\n",
                rl::time_basis_key(basis_).c_str(), rl::time_basis_name(basis_).c_str());
  if (device_.backend == "cuda")
    std::printf(
        "gpu = total with the timestamps' own cost taken out (an empty event pair, measured after "
        "every sample): the kernels' time, as ncu counts it\n");
  std::printf(
      "noise = relative standard error of the mean total time; target %s: a point above it when "
      "its budget (4 x --budget-ms) ran out is flagged noisy\n",
      pct_text(100.0 * noise_target_).c_str());
  if (counts_)
    std::printf(
        "counts (block model, the same on any device): the first kernel's work on a GPU over "
        "every block: barriers = __syncthreads() executed; warp-steps = steps issued by a warp "
        "with at least one lane acting; lane eff = active lanes / (warp-steps x 32); loads, "
        "stores = elements; launches = kernels (2: a finishing pass of one block, 11 barriers, "
        "follows)\n");
  if (narrow_) {
    std::printf("narrow table (--table wide for every column, --json for every number):\n");
    std::printf(kNarrowFormat, pad_right("point", point_width_).c_str(), "workspace", "B",
                pad_left(size_header_, size_width_).c_str(), "type", "total", "speed-up", "status");
    std::fflush(stdout);
    return;
  }
  std::string counts_header;
  if (counts_) {
    char buf[128];
    std::snprintf(buf, sizeof buf, kCountsHeaderFormat, "barriers", "warp-steps", "lane eff",
                  "loads", "stores", "launches");
    counts_header = buf;
  }
  std::fputs(counters_.legend().c_str(), stdout);
  counts_header += counters_.header();
  std::printf("%s  %s  %-9s %4s %3s  %s  %-7s  %10s  %10s  %10s  %6s  %8s  %7s  %6s  %8s%s  %s\n",
              pad_right("variant", variant_width_).c_str(),
              pad_right("classic", seed_width_).c_str(), "workspace", "B", "U",
              pad_left(size_header_, size_width_).c_str(), "type", "first", "total", "gpu", "noise",
              "GB/s", "%floor", "%theo", "speed-up", counts_header.c_str(), "status");
  std::fflush(stdout);
}

void LiveTable::clear_progress() {
  if (progress_tty_ && progress_shown_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  progress_shown_ = false;
}

void LiveTable::on_progress(const rl::Progress& p) {
  if (p.done >= p.total) {  // the call after the last point
    clear_progress();
    return;
  }
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string&&.
  std::string line = "[";
  line += std::to_string(p.done + 1);
  line += "/";
  line += std::to_string(p.total);
  line += "] ";
  line += p.current.label();
  line += "  elapsed ";
  line += format_duration_s(p.elapsed_s);
  if (p.eta_s >= 0) line += "  ETA " + format_duration_s(p.eta_s);
  if (progress_tty_) {
    // Keep it on one terminal line so \r redraws it in place.
    const std::size_t width = terminal_width(STDERR_FILENO);
    if (line.size() >= width) line.resize(width - 1);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    progress_shown_ = true;
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

std::string LiveTable::status_text(const rl::PointResult& r) const {
  const char* red = color_ ? "\033[1;31m" : "";
  const char* yellow = color_ ? "\033[33m" : "";
  const char* reset = color_ ? "\033[0m" : "";
  switch (r.status) {
    case rl::PointStatus::Ok: {
      std::string s = "ok";
      if (r.noisy)
        s +=
            std::string(", ") + yellow + "NOISY (" + rl::noisy_note(r, noise_target_) + ")" + reset;
      if (r.point.type == rl::DType::Float32 && r.rel_error != 0)
        s += " (rel. error " + format_sci(r.rel_error) + " vs double)";
      return s;
    }
    case rl::PointStatus::Wrong:
      return std::string(red) + "WRONG: " + r.message + reset;
    case rl::PointStatus::Failed:
      return std::string(red) + "FAILED: " + r.message + reset;
    case rl::PointStatus::Skipped:
      return std::string(yellow) + "SKIPPED: " + r.message + reset;
  }
  return "?";
}

void LiveTable::on_result(const rl::Session& so_far) {
  clear_progress();
  const rl::PointResult& r = so_far.results.back();
  const rl::PointSpec& p = r.point;
  const bool measured = r.status == rl::PointStatus::Ok || r.status == rl::PointStatus::Wrong;
  // GB/s, the roofs and the speed-up on the chosen time (--time), as the engine derives them.
  const rl::BasisMetrics m = rl::basis_metrics(so_far, so_far.results.size() - 1, basis_);
  const std::string first =
      measured && !r.first_kernel.empty() ? format_ms(r.first_kernel.median_ms) : "-";
  const std::string total = measured && !r.total.empty() ? format_ms(r.total.median_ms) : "-";
  const std::string gpu = measured && !r.gpu_time.empty() ? format_ms(r.gpu_time.median_ms) : "-";
  const std::string speedup = rl::format_speedup(m.speedup, rl::Glyphs::Ascii);
  const std::string noise =
      measured && !r.total.empty() ? format_fixed(100.0 * r.total.noise, 1) + "%" : "-";
  // Above 100% only within the floor's own noise: marked, and said why in the footer.
  const double pct_floor = m.pct_of_read_floor.value_or(0);
  const std::string floor = measured ? rl::format_pct_of_floor(pct_floor) : "-";
  above_floor_ = above_floor_ || (measured && pct_floor > 100);
  if (narrow_) {
    print_narrow_row(r, total, speedup);
    return;
  }
  std::printf(
      "%s  %s  %-9s %4s %3d  %s  %-7s  %10s  %10s  %10s  %6s  %8s  %7s  %6s  %8s%s  %s\n",
      pad_right(p.variant, variant_width_).c_str(), pad_right(seed_label(p), seed_width_).c_str(),
      std::string(rl::to_string(p.workspace)).c_str(), rl::block_size_text(p.block_size).c_str(),
      p.unroll, pad_left(p.size_text(), size_width_).c_str(),
      std::string(rl::to_string(p.type)).c_str(), first.c_str(), total.c_str(), gpu.c_str(),
      noise.c_str(), measured ? gbps_text(m.gbps).c_str() : "-", floor.c_str(),
      measured ? pct_text(m.pct_of_theoretical).c_str() : "-", speedup.c_str(),
      ((counts_ ? counts_cells(r.counts) : "") + counters_.cells(r)).c_str(),
      status_text(r).c_str());
  std::fflush(stdout);
}

// One row under kNarrowTableColumns: the status in a word, what went wrong on a line of its own.
void LiveTable::print_narrow_row(const rl::PointResult& r, const std::string& total,
                                 const std::string& speedup) {
  const rl::PointSpec& p = r.point;
  const char* red = color_ ? "\033[1;31m" : "";
  const char* yellow = color_ ? "\033[33m" : "";
  const char* reset = color_ ? "\033[0m" : "";
  std::string status = "ok";
  if (r.status == rl::PointStatus::Ok && r.noisy) status = std::string(yellow) + "NOISY" + reset;
  if (r.status == rl::PointStatus::Wrong) status = std::string(red) + "WRONG" + reset;
  if (r.status == rl::PointStatus::Failed) status = std::string(red) + "FAILED" + reset;
  if (r.status == rl::PointStatus::Skipped) status = std::string(yellow) + "SKIPPED" + reset;
  std::printf(
      kNarrowFormat, pad_right(narrow_point(p), point_width_).c_str(),
      std::string(rl::to_string(p.workspace)).c_str(), rl::block_size_text(p.block_size).c_str(),
      pad_left(p.size_text(), size_width_).c_str(), std::string(rl::to_string(p.type)).c_str(),
      total.c_str(), speedup.c_str(), status.c_str());
  if (r.status != rl::PointStatus::Ok && !r.message.empty()) {
    std::string why = "    " + r.message;
    if (why.size() >= kNarrowTableColumns) why = why.substr(0, kNarrowTableColumns - 4) + "...";
    std::printf("%s\n", why.c_str());
  }
  std::fflush(stdout);
}

void LiveTable::print_read_floors(const rl::Session& s) {
  if (device_.measured_copy_gbps <= 0 && s.device.measured_copy_gbps > 0)
    std::printf(
        "measured copy of the device: %s GB/s (reads and writes: information, not a roof)\n",
        gbps_text(s.device.measured_copy_gbps).c_str());
  if (s.device.measured_read_gbps > 0)
    std::printf("read floor of the device (%s): %s GB/s\n",
                format_bytes(s.device.read_floor_bytes).c_str(),
                format_fixed(s.device.measured_read_gbps, 0).c_str());
  for (const rl::ReadFloor& f : s.read_floors) {
    std::printf("read floor at %s: %s (gpu %s), %s GB/s, best shape %s%s\n",
                format_bytes(f.bytes).c_str(), format_ms(f.time.median_ms).c_str(),
                f.gpu_time.empty() ? "-" : format_ms(f.gpu_time.median_ms).c_str(),
                format_fixed(f.gbps(), 0).c_str(), f.shape.c_str(), f.noisy ? " (noisy)" : "");
  }
  if (above_floor_) std::printf("* %s\n", rl::above_floor_note().c_str());
}

void LiveTable::print_footer(const rl::Session& s, std::size_t total_points) {
  clear_progress();
  print_read_floors(s);
  std::size_t count[4] = {0, 0, 0, 0};
  for (const rl::PointResult& r : s.results) ++count[int(r.status)];
  std::printf("%zu of %zu points: %zu ok", s.results.size(), total_points, count[0]);
  if (count[1]) std::printf(", %zu WRONG", count[1]);
  if (count[2]) std::printf(", %zu FAILED", count[2]);
  if (count[3]) std::printf(", %zu skipped", count[3]);
  if (const int noisy = rl::count_noisy(s.results))
    std::printf(", %d noisy (noise above the %s target)", noisy,
                pct_text(100.0 * noise_target_).c_str());
  if (s.cancelled) std::printf(" (cancelled: finished points kept)");
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace rlcli
