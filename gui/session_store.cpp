#include "session_store.h"

#include <QDateTime>

namespace rl::gui {

SessionStore::SessionStore(QObject* parent) : QObject(parent) {}

const Session& SessionStore::primary() const {
  return *shared_primary();
}

std::shared_ptr<const Session> SessionStore::shared_primary() const {
  static const auto none = std::make_shared<const Session>();
  return open_.empty() ? none : open_.front().session;
}

const QString& SessionStore::primary_source() const {
  static const QString none;
  return open_.empty() ? none : open_.front().source;
}

OpenSession& SessionStore::add(Session session, const QString& source, bool as_primary) {
  OpenSession entry;
  recompute(session);
  entry.session = std::make_shared<Session>(std::move(session));
  entry.source = source;
  entry.serial = next_serial_++;
  // A run made now has no time of its own until the runner's session arrives; its name needs
  // one as soon as another session of the same GPU is open.
  if (entry.session->created_utc.empty())
    entry.session->created_utc =
        QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
  if (!as_primary) {
    open_.push_back(std::move(entry));
    return open_.back();
  }
  open_.insert(open_.begin(), std::move(entry));
  return open_.front();
}

void SessionStore::begin_live(const ExperimentSpec& spec, const DeviceInfo& device) {
  // The previous primary stays open, out of the charts; an empty one (a run cancelled before
  // its first point) is nothing to keep.
  if (!open_.empty()) {
    const Session& previous = *open_.front().session;
    if (previous.results.empty() && previous.timelines.empty())
      open_.erase(open_.begin());
    else
      open_.front().hidden = true;
  }
  Session s;
  s.spec = spec;
  s.device = device;
  add(std::move(s), "live run", true).live = true;
  emit reset();
  emit overlays_changed();
}

void SessionStore::append_live(const PointResult& result) {
  Session& primary = *open_.front().session;
  primary.results.push_back(result);
  recompute(primary);
  emit appended(int(primary.results.size()) - 1);
  emit speedups_changed();
}

void SessionStore::finish_live(const Session& session) {
  if (open_.empty()) return;
  open_.front().live = false;  // done: it may be closed now
  Session& primary = *open_.front().session;
  const bool same_points = session.results.size() == primary.results.size();
  const std::string created = primary.created_utc;
  // Timelines recorded while it ran were kept here (add_timelines); the runner's session has
  // none of them.
  std::vector<MeasuredTimeline> recorded = std::move(primary.timelines);
  primary = session;
  if (primary.created_utc.empty()) primary.created_utc = created;
  if (primary.timelines.empty()) primary.timelines = std::move(recorded);
  recompute(primary);
  if (same_points) {
    emit metadata_changed();
  } else {
    emit reset();
  }
}

void SessionStore::set_machine(int overlay, const QString& machine) {
  const size_t i = size_t(overlay + 1);
  if (i >= open_.size()) return;
  open_[i].machine = machine;
  emit metadata_changed();
  emit overlays_changed();
}

QString SessionStore::machine(int overlay) const {
  const size_t i = size_t(overlay + 1);
  return i < open_.size() ? open_[i].machine : QString();
}

int SessionStore::begin_live_overlay(const ExperimentSpec& spec, const DeviceInfo& device) {
  Session s;
  s.spec = spec;
  s.device = device;
  add(std::move(s), "live run", false).live = true;
  emit overlays_changed();
  return int(open_.size()) - 2;
}

void SessionStore::append_live_overlay(int overlay, const PointResult& result) {
  if (overlay < 0 || overlay + 1 >= int(open_.size())) return;
  Session& s = *open_[size_t(overlay + 1)].session;
  s.results.push_back(result);
  recompute(s);
  emit overlays_changed();
}

void SessionStore::finish_live_overlay(int overlay, const Session& session) {
  if (overlay < 0 || overlay + 1 >= int(open_.size())) return;
  OpenSession& o = open_[size_t(overlay + 1)];
  const std::string created = o.session->created_utc;
  *o.session = session;
  if (o.session->created_utc.empty()) o.session->created_utc = created;
  o.live = false;
  recompute(*o.session);
  emit overlays_changed();
}

void SessionStore::set_primary(Session session, const QString& source) {
  for (OpenSession& o : open_) o.hidden = true;
  add(std::move(session), source, true);
  emit reset();
  emit overlays_changed();
}

void SessionStore::add_overlay(Session session) {
  add(std::move(session), QString(), false);
  emit overlays_changed();
}

void SessionStore::clear_overlays() {
  if (open_.size() < 2) return;
  std::vector<OpenSession> kept{std::move(open_.front())};
  for (size_t i = 1; i < open_.size(); ++i)
    if (open_[i].live) kept.push_back(std::move(open_[i]));
  open_ = std::move(kept);
  emit overlays_changed();
}

void SessionStore::clear() {
  open_.clear();
  chosen_a_ = chosen_b_ = 0;
  emit reset();
  emit overlays_changed();
}

SessionStore::KeptTimelines SessionStore::add_timelines(
    const std::vector<std::shared_ptr<const MeasuredTimeline>>& list,
    std::optional<DeviceInfo> device) {
  KeptTimelines kept;
  std::vector<MeasuredTimeline> recorded;
  for (const auto& t : list)
    if (t) recorded.push_back(*t);
  if (recorded.empty()) return kept;
  bool reload = false;
  if (open_.empty() || open_.front().source == "bundled session") {
    // The bundled session stays as shipped: the recording is this machine's, a session of its own.
    for (OpenSession& o : open_) o.hidden = true;
    Session s;
    if (device) {
      s.device = *device;
    } else {  // timelines are recorded on CUDA GPUs only
      s.device.backend = "cuda";
      s.device.name = recorded.front().device;
    }
    add(std::move(s), "recorded timelines", true);
    kept.new_session = reload = true;
  } else if (holds_ > 0 && !open_.front().live) {
    // Another thread reads the held session (a save): the primary becomes a copy of its own.
    open_.front().session = std::make_shared<Session>(*open_.front().session);
    reload = true;
  }
  std::vector<MeasuredTimeline>& timelines = open_.front().session->timelines;
  for (MeasuredTimeline& t : recorded) timelines.push_back(std::move(t));
  if (timelines.size() > kTimelineMaxPerSession) {
    const std::size_t excess = timelines.size() - kTimelineMaxPerSession;
    timelines.erase(timelines.begin(), timelines.begin() + std::ptrdiff_t(excess));
    kept.dropped = int(excess);
  }
  kept.index = 0;
  if (reload) emit reset();
  if (kept.new_session) emit overlays_changed();
  if (!reload) emit timelines_changed();
  return kept;
}

void SessionStore::set_baseline(const std::string& variant_id) {
  if (holds_ > 0) {
    held_baseline_ = variant_id;
    return;
  }
  if (variant_id == baseline_) return;
  baseline_ = variant_id;
  for (OpenSession& o : open_) recompute(*o.session);
  emit speedups_changed();
}

std::shared_ptr<const Session> SessionStore::hold(int index) {
  const OpenSession& o = open_.at(size_t(index));
  if (o.live) return std::make_shared<const Session>(*o.session);
  ++holds_;
  return o.session;
}

void SessionStore::release_hold() {
  if (holds_ == 0 || --holds_ > 0 || !held_baseline_) return;
  const std::string chosen = *held_baseline_;
  held_baseline_.reset();
  set_baseline(chosen);
}

void SessionStore::set_time_basis(TimeBasis basis) {
  if (basis == time_basis_) return;
  time_basis_ = basis;
  emit time_basis_changed();
}

void SessionStore::set_matrix_total(std::optional<std::uint64_t> total) {
  if (total == matrix_total_) return;
  matrix_total_ = total;
  emit matrix_total_changed();
}

void SessionStore::set_ladder_setting(std::optional<LadderSetting> setting) {
  if (setting == ladder_setting_) return;
  ladder_setting_ = setting;
  emit ladder_setting_changed();
}

}  // namespace rl::gui
