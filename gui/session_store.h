// The sessions the window shows: the primary one (a live run, an opened file or the bundled
// H200 session) and overlays (e.g. another GPU) drawn in the same charts. Keeps speed-ups in
// step with the chosen baseline (rl::compute_speedups), holds which time the charts draw, and
// tells views what changed.
#pragma once

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

#include "charts/chart_builders.h"
#include "engine/run/results.h"

namespace rl::gui {

class SessionStore : public QObject {
  Q_OBJECT
 public:
  explicit SessionStore(QObject* parent = nullptr);

  bool has_primary() const { return has_primary_; }
  const Session& primary() const { return primary_; }
  const QString& primary_source() const { return source_; }  // "live run", a path, "bundled ..."
  const std::vector<Session>& overlays() const { return overlays_; }
  const std::string& baseline() const { return baseline_; }
  // The time every chart draws (the table shows all three whatever this is).
  TimeBasis time_basis() const { return time_basis_; }
  // The ladder setting the person chose on the Ladder page (nullopt: each session's default).
  // Kept across sessions: a session that does not hold it draws its default.
  const std::optional<LadderSetting>& ladder_setting() const { return ladder_setting_; }
  // Primary first; labels name the device (with a number when two share a name).
  std::vector<ShownSession> shown() const;

  // A live run: starts an empty primary session, grows point by point, then takes the
  // runner's session (its metadata, and its points when they differ from those streamed).
  void begin_live(const ExperimentSpec& spec, const DeviceInfo& device);
  void append_live(const PointResult& result);
  void finish_live(const Session& session);

  // Several devices at once (one experiment on each, side by side): the other devices' runs
  // are overlays that grow point by point as the primary does. begin_live_overlay returns the
  // overlay's index.
  int begin_live_overlay(const ExperimentSpec& spec, const DeviceInfo& device);
  void append_live_overlay(int overlay, const PointResult& result);
  void finish_live_overlay(int overlay, const Session& session);

  // The machine a session was measured on when it is not this one ("gpu-box": a run through a
  // launcher); overlay -1 is the primary. Prefixes its label in the charts and the banner.
  // Cleared with the session it names.
  void set_machine(int overlay, const QString& machine);
  QString machine(int overlay) const;

  void set_primary(Session session, const QString& source);
  void add_overlay(Session session);
  void clear_overlays();
  void clear();
  void set_baseline(const std::string& variant_id);
  void set_time_basis(TimeBasis basis);
  void set_ladder_setting(std::optional<LadderSetting> setting);

 signals:
  void reset();             // the primary session was replaced: views reload everything
  void appended(int row);   // primary().results[row] is new
  void speedups_changed();  // every point's speed-up may have changed
  void overlays_changed();
  void metadata_changed();  // device / origin of the primary changed, points did not
  void time_basis_changed();
  void ladder_setting_changed();

 private:
  void recompute(Session& s) { compute_speedups(s.results, baseline_); }
  Session primary_;
  bool has_primary_ = false;
  QString source_;
  std::vector<Session> overlays_;
  QString primary_machine_;
  std::vector<QString> overlay_machines_;  // beside overlays_
  std::string baseline_ = "neighbored";
  TimeBasis time_basis_ = TimeBasis::Whole;
  std::optional<LadderSetting> ladder_setting_;
};

}  // namespace rl::gui
