// The live table of `reductionlab-cli run`: a header with the device and its bandwidth roofs,
// one row per finished point on stdout, and a progress line on stderr (redrawn in place on a
// terminal, plain lines otherwise).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "engine/measure/runner.h"
#include "engine/report/time_basis.h"
#include "engine/session/results.h"
#include "run_counters.h"

namespace rlcli {

class LiveTable {
 public:
  // points: the run's points (for column widths); baseline: the speed-up baseline's id;
  // noise_target: the spec's noise threshold (points above it are flagged noisy).
  // basis: the time the GB/s, %floor, %theo and speed-up columns use (--time).
  LiveTable(const rl::DeviceInfo& device, const std::vector<rl::PointSpec>& points,
            const std::string& baseline, double noise_target,
            rl::TimeBasis basis = rl::TimeBasis::Whole);

  // Adds the block model's counts to every row (before the status): barriers, warp-steps, lane
  // efficiency, loads, stores, launches (run_counts.h says when). Call before print_header().
  void show_counts(bool on) { counts_ = on; }
  // Adds the hardware counters' columns that fit (run_counters.h). Call before print_header().
  void show_counters(const std::vector<std::string>& ids) { counters_ = CounterColumns(ids); }
  // The narrow table (under kNarrowTableColumns): point, workspace, B, N, type, total, speed-up
  // and status. Call before print_header().
  void set_narrow(bool on) { narrow_ = on; }
  void print_header();
  void on_progress(const rl::Progress& p);
  // Prints the row of so_far's last point (the session so far gives the read floor at its size
  // and the baseline of its speed-up).
  void on_result(const rl::Session& so_far);
  // The closing summary: the read floor of each size, counts per status and of noisy points,
  // and whether the run was cancelled.
  void print_footer(const rl::Session& s, std::size_t total_points);

 private:
  void clear_progress();
  void print_read_floors(const rl::Session& s);
  std::string status_text(const rl::PointResult& r) const;
  void print_narrow_row(const rl::PointResult& r, const std::string& total,
                        const std::string& speedup);

  rl::DeviceInfo device_;
  std::string baseline_;
  double noise_target_ = 0.01;
  bool progress_tty_ = false;  // stderr is a terminal: redraw the progress line in place
  bool color_ = false;         // stdout is a terminal and NO_COLOR is unset
  bool progress_shown_ = false;
  bool counts_ = false;
  bool narrow_ = false;
  bool above_floor_ = false;  // a row showed more than 100% of the floor: the footer says why
  rl::TimeBasis basis_ = rl::TimeBasis::Whole;
  CounterColumns counters_{{}};
  std::size_t variant_width_ = 7, seed_width_ = 4, size_width_ = 4, point_width_ = 5;
  std::string size_header_ = "N";
};

}  // namespace rlcli
