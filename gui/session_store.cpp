#include "session_store.h"

#include <QSet>

#include "format.h"

namespace rl::gui {

SessionStore::SessionStore(QObject* parent) : QObject(parent) {}

std::vector<ShownSession> SessionStore::shown() const {
  std::vector<ShownSession> out;
  if (!has_primary_) return out;
  QSet<QString> used;
  auto add = [&](const Session& s, const QString& machine) {
    const QString name =
        (machine.isEmpty() ? QString() : machine + " ") + qtext::device_short_name(s.device);
    QString label = name;
    for (int n = 2; used.contains(label); ++n) label = QString("%1 (%2)").arg(name).arg(n);
    used.insert(label);
    out.push_back({&s, label});
  };
  add(primary_, primary_machine_);
  for (int i = 0; i < int(overlays_.size()); ++i) add(overlays_[size_t(i)], machine(i));
  return out;
}

void SessionStore::begin_live(const ExperimentSpec& spec, const DeviceInfo& device) {
  primary_ = Session{};
  primary_.spec = spec;
  primary_.device = device;
  primary_machine_.clear();
  has_primary_ = true;
  source_ = "live run";
  emit reset();
}

void SessionStore::append_live(const PointResult& result) {
  primary_.results.push_back(result);
  recompute(primary_);
  emit appended(int(primary_.results.size()) - 1);
  emit speedups_changed();
}

void SessionStore::finish_live(const Session& session) {
  const bool same_points = session.results.size() == primary_.results.size();
  primary_ = session;
  has_primary_ = true;
  recompute(primary_);
  if (same_points) {
    emit metadata_changed();
  } else {
    emit reset();
  }
}

void SessionStore::set_machine(int overlay, const QString& machine) {
  if (overlay < 0) {
    primary_machine_ = machine;
  } else {
    if (overlay_machines_.size() <= size_t(overlay)) overlay_machines_.resize(size_t(overlay) + 1);
    overlay_machines_[size_t(overlay)] = machine;
  }
  emit metadata_changed();
}

QString SessionStore::machine(int overlay) const {
  if (overlay < 0) return primary_machine_;
  return size_t(overlay) < overlay_machines_.size() ? overlay_machines_[size_t(overlay)]
                                                    : QString();
}

int SessionStore::begin_live_overlay(const ExperimentSpec& spec, const DeviceInfo& device) {
  Session s;
  s.spec = spec;
  s.device = device;
  overlays_.push_back(std::move(s));
  emit overlays_changed();
  return int(overlays_.size()) - 1;
}

void SessionStore::append_live_overlay(int overlay, const PointResult& result) {
  if (overlay < 0 || overlay >= int(overlays_.size())) return;
  Session& s = overlays_[size_t(overlay)];
  s.results.push_back(result);
  recompute(s);
  emit overlays_changed();
}

void SessionStore::finish_live_overlay(int overlay, const Session& session) {
  if (overlay < 0 || overlay >= int(overlays_.size())) return;
  overlays_[size_t(overlay)] = session;
  recompute(overlays_[size_t(overlay)]);
  emit overlays_changed();
}

void SessionStore::set_primary(Session session, const QString& source) {
  primary_ = std::move(session);
  primary_machine_.clear();
  has_primary_ = true;
  source_ = source;
  recompute(primary_);
  emit reset();
}

void SessionStore::add_overlay(Session session) {
  recompute(session);
  overlays_.push_back(std::move(session));
  emit overlays_changed();
}

void SessionStore::clear_overlays() {
  overlays_.clear();
  overlay_machines_.clear();
  emit overlays_changed();
}

void SessionStore::clear() {
  primary_ = Session{};
  has_primary_ = false;
  source_.clear();
  primary_machine_.clear();
  overlays_.clear();
  overlay_machines_.clear();
  emit reset();
  emit overlays_changed();
}

void SessionStore::set_baseline(const std::string& variant_id) {
  if (variant_id == baseline_) return;
  baseline_ = variant_id;
  recompute(primary_);
  for (Session& s : overlays_) recompute(s);
  emit speedups_changed();
}

void SessionStore::set_time_basis(TimeBasis basis) {
  if (basis == time_basis_) return;
  time_basis_ = basis;
  emit time_basis_changed();
}

void SessionStore::set_ladder_setting(std::optional<LadderSetting> setting) {
  if (setting == ladder_setting_) return;
  ladder_setting_ = setting;
  emit ladder_setting_changed();
}

}  // namespace rl::gui
