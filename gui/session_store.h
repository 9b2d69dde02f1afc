// The sessions the window has open: a run, an opened file or the bundled H200
// session each add one and none is discarded but by the person (Sessions list: rename, hide,
// close). The primary one (the newest run or file) is what the table and the banner show; the
// others are overlays, drawn dashed beside it when not hidden. Any two are compared point by
// point (A and B). Keeps speed-ups in step with the chosen baseline (rl::compute_speedups), holds
// which time the charts draw, and tells views what changed. What sessions are called is the
// engine's rule (engine/views/session_names.h).
#pragma once

#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "charts/chart_builders.h"
#include "engine/session/results.h"

namespace rl::gui {

// One open session and what the window knows about it beyond the file. The session is held once
// and shared with the views that show it whole (the Results table, the Code tab), which read it
// in place: a large session is never copied. Never null.
struct OpenSession {
  std::shared_ptr<Session> session;
  QString source;       // "live run", a path, "bundled session"
  QString machine;      // measured through a launcher ("gpu-box"); "" for this machine
  QString given_name;   // the person's name for it; "" for the engine's
  bool hidden = false;  // kept open and listed, not drawn
  bool live = false;    // a run still adds points to it: it cannot be closed
  int serial = 0;       // order of arrival: the newest two are compared by default
  // Its ladder settings (views/ladder_setting.h), listed once for its number of points.
  mutable std::shared_ptr<const std::vector<LadderSetting>> ladder_settings;
  mutable std::size_t ladder_settings_points = 0;
};

class SessionStore : public QObject {
  Q_OBJECT
 public:
  explicit SessionStore(QObject* parent = nullptr);

  // The open sessions other than the primary one, in the order they came.
  class Overlays {
   public:
    explicit Overlays(const std::vector<OpenSession>& open) : open_(open) {}
    size_t size() const { return open_.empty() ? 0 : open_.size() - 1; }
    bool empty() const { return size() == 0; }
    const Session& operator[](size_t i) const { return *open_[i + 1].session; }

   private:
    const std::vector<OpenSession>& open_;
  };

  bool has_primary() const { return !open_.empty(); }
  // With none open: an empty session and source (views ask before the first one opens).
  const Session& primary() const;
  // The primary session itself, for a view that shows it whole without a copy of its own: it
  // changes in place as the store's signals say (points appended, speed-ups, a run's final
  // values). With none open: an empty session.
  std::shared_ptr<const Session> shared_primary() const;
  // The primary session's ladder settings (views/ladder_setting.h), listed once for its number
  // of points and shared with the charts (ShownSession::ladder_settings); empty without one.
  std::shared_ptr<const std::vector<LadderSetting>> primary_ladder_settings() const;
  const QString& primary_source() const;
  Overlays overlays() const { return Overlays(open_); }
  // Every open session, the primary first; names() beside it, all different.
  const std::vector<OpenSession>& open() const { return open_; }
  QStringList names() const;
  const std::string& baseline() const { return baseline_; }
  // The time every chart draws (the table shows all three whatever this is).
  TimeBasis time_basis() const { return time_basis_; }
  // The ladder setting the person chose on the Ladder page (nullopt: each session's default).
  // Kept across sessions: a session that does not hold it draws its default.
  const std::optional<LadderSetting>& ladder_setting() const { return ladder_setting_; }
  // The sessions not hidden, primary first, labelled with their names.
  std::vector<ShownSession> shown() const;

  // The two sessions compared (A, then B), hidden or not; empty with fewer than two open. By
  // default the newest two of the same kind of time (GPU times, or the host emulation's CPU
  // times: rl::same_kind_of_time), the older as A; none where no two are of one kind. The
  // person may choose any two (set_compared), and the comparison then says they differ.
  std::vector<ShownSession> compared() const;
  int compared_a() const;  // index into open(); -1: none
  int compared_b() const;
  // Two or more sessions are open, but no two of the same kind of time: none is compared
  // unless the person chooses a pair.
  bool only_other_kinds_to_compare() const;
  void set_compared(int a, int b);  // indices into open(); equal or out of range: the default

  // What a chart draws: the compared pair for the comparison charts, else the shown sessions;
  // every chart the sessions have, in display order; one chart built as the settings say.
  std::vector<ShownSession> sessions_for(const QString& chart_id) const;
  std::vector<ChartKind> chart_kinds() const;
  charts::Chart chart(const QString& id) const;
  // A bandwidth chart drawn as % of the read floor (the person's choice, per chart).
  bool pct_of_limit(const QString& chart_id) const { return pct_of_limit_.contains(chart_id); }
  void set_pct_of_limit(const QString& chart_id, bool on);

  // A live run: adds an empty primary session (the previous primary stays open, hidden), grows
  // point by point, then takes the runner's session (its metadata, and its points when they
  // differ from those streamed).
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
  // launcher); overlay -1 is the primary. Prefixes its name in the charts and the banner.
  void set_machine(int overlay, const QString& machine);
  QString machine(int overlay) const;

  // An opened file becomes the primary session, shown alone; the others stay open, hidden.
  void set_primary(Session session, const QString& source);
  void add_overlay(Session session);  // shown beside the primary
  void clear_overlays();              // closes every session but the primary (and live runs)
  void clear();

  // The Sessions list (index into open()): a name of the person's ("" gives the engine's back),
  // hidden from the charts or shown, closed (refused for a live run; the next newest becomes
  // the primary when the primary closes).
  void rename(int index, const QString& name);
  void set_hidden(int index, bool hidden);
  bool close(int index);

  void set_baseline(const std::string& variant_id);

  // Warp timelines recorded in the app, kept with the shown session so that saving it keeps
  // them: the primary, unless that is the bundled session (another machine's measurement, as
  // shipped), when a new session of recorded timelines becomes the primary, as a run's does. A
  // session keeps at most kTimelineMaxPerSession: the oldest go first. Null entries are skipped.
  struct KeptTimelines {
    int index = -1;   // into open(): where they were kept; -1: none given
    int dropped = 0;  // the oldest timelines dropped to stay within the bound
    bool new_session = false;
  };
  // device: the GPU they were recorded on, for a new session (else one named as they say).
  KeptTimelines add_timelines(const std::vector<std::shared_ptr<const MeasuredTimeline>>& list,
                              std::optional<DeviceInfo> device = std::nullopt);

  // A session another thread reads while the window goes on (a save, a CSV export): shared, not
  // copied, and not changed in place until release_hold(): a baseline chosen meanwhile applies
  // when the last hold ends. A live run's session grows as points arrive, so it is copied.
  std::shared_ptr<const Session> hold(int index);  // index into open()
  void release_hold();
  bool held() const { return holds_ > 0; }
  void set_time_basis(TimeBasis basis);
  void set_ladder_setting(std::optional<LadderSetting> setting);
  // The total M x N the row length chart draws (none: the one with the most points).
  const std::optional<std::uint64_t>& matrix_total() const { return matrix_total_; }
  void set_matrix_total(std::optional<std::uint64_t> total);

 signals:
  void reset();             // the primary session changed: views reload everything
  void appended(int row);   // primary().results[row] is new
  void speedups_changed();  // every point's speed-up may have changed
  void overlays_changed();  // sessions opened, closed, renamed, hidden, compared
  void metadata_changed();  // device / origin of the primary changed, points did not
  void time_basis_changed();
  void ladder_setting_changed();
  void matrix_total_changed();
  void chart_view_changed(const QString& chart_id);
  void timelines_changed();  // the primary's timelines changed in place, nothing else did

 private:
  // o's ladder settings, listed again only when it has grown.
  static std::shared_ptr<const std::vector<LadderSetting>> listed_settings(const OpenSession& o);
  void recompute(Session& s) { compute_speedups(s.results, baseline_); }
  OpenSession& add(Session session, const QString& source, bool as_primary);
  int index_of_serial(int serial) const;
  std::pair<int, int> compared_pair() const;  // (A, B) indices into open_; -1: none
  std::vector<OpenSession> open_;             // the primary first
  int next_serial_ = 1;
  int chosen_a_ = 0, chosen_b_ = 0;  // serials the person chose; 0: the default
  std::string baseline_ = "neighbored";
  TimeBasis time_basis_ = TimeBasis::Whole;
  std::optional<LadderSetting> ladder_setting_;
  std::optional<std::uint64_t> matrix_total_;
  QSet<QString> pct_of_limit_;
  int holds_ = 0;
  std::optional<std::string> held_baseline_;  // chosen while a session was held
};

}  // namespace rl::gui
