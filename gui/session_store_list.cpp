// The Sessions list's side of the store: names, what is shown, which two are compared, and the
// charts built from them.
#include <algorithm>

#include "engine/report/compare.h"
#include "engine/views/session_names.h"
#include "format.h"
#include "session_store.h"

namespace rl::gui {

QStringList SessionStore::names() const {
  std::vector<SessionNameParts> parts;
  for (const OpenSession& o : open_) {
    const bool given = !o.given_name.isEmpty();
    const QString base = given ? o.given_name
                               : (o.machine.isEmpty() ? QString() : o.machine + " ") +
                                     qtext::device_short_name(o.session->device);
    parts.push_back({base.toStdString(), o.session->created_utc, given});
  }
  QStringList out;
  for (const std::string& n : session_names(parts)) out << QString::fromStdString(n);
  return out;
}

std::shared_ptr<const std::vector<LadderSetting>> SessionStore::listed_settings(
    const OpenSession& o) {
  if (!o.ladder_settings || o.ladder_settings_points != o.session->results.size()) {
    o.ladder_settings =
        std::make_shared<const std::vector<LadderSetting>>(ladder_settings(*o.session));
    o.ladder_settings_points = o.session->results.size();
  }
  return o.ladder_settings;
}

std::shared_ptr<const std::vector<LadderSetting>> SessionStore::primary_ladder_settings() const {
  if (open_.empty()) return std::make_shared<const std::vector<LadderSetting>>();
  return listed_settings(open_.front());
}

std::vector<ShownSession> SessionStore::shown() const {
  std::vector<ShownSession> out;
  const QStringList labels = names();
  for (size_t i = 0; i < open_.size(); ++i)
    if (!open_[i].hidden)
      out.push_back({open_[i].session.get(), labels[int(i)], listed_settings(open_[i])});
  return out;
}

int SessionStore::index_of_serial(int serial) const {
  for (size_t i = 0; i < open_.size(); ++i)
    if (open_[i].serial == serial) return int(i);
  return -1;
}

// The person's pair while both are open; else the newest session that has an older one of the
// same kind of time, against the newest such (a run against the session shown before it, an
// overlay against the session it was laid over). A host run's CPU times are never set against
// a GPU's by default: the person may choose such a pair, and the charts then say what it is.
std::pair<int, int> SessionStore::compared_pair() const {
  if (open_.size() < 2) return {-1, -1};
  const int a = index_of_serial(chosen_a_), b = index_of_serial(chosen_b_);
  if (a >= 0 && b >= 0 && a != b) return {a, b};
  std::vector<int> by_age(open_.size());
  for (size_t i = 0; i < open_.size(); ++i) by_age[i] = int(i);
  std::sort(by_age.begin(), by_age.end(),
            [this](int x, int y) { return open_[size_t(x)].serial > open_[size_t(y)].serial; });
  for (size_t newer = 0; newer < by_age.size(); ++newer)
    for (size_t older = newer + 1; older < by_age.size(); ++older)
      if (same_kind_of_time(open_[size_t(by_age[newer])].session->device,
                            open_[size_t(by_age[older])].session->device))
        return {by_age[older], by_age[newer]};
  return {-1, -1};
}

int SessionStore::compared_a() const {
  return compared_pair().first;
}

int SessionStore::compared_b() const {
  return compared_pair().second;
}

bool SessionStore::only_other_kinds_to_compare() const {
  return open_.size() >= 2 && compared_pair().first < 0;
}

std::vector<ShownSession> SessionStore::compared() const {
  const int a = compared_a(), b = compared_b();
  if (a < 0 || b < 0) return {};
  const QStringList labels = names();
  return {{open_[size_t(a)].session.get(), labels[a]}, {open_[size_t(b)].session.get(), labels[b]}};
}

void SessionStore::set_compared(int a, int b) {
  const bool valid = a != b && a >= 0 && b >= 0 && a < int(open_.size()) && b < int(open_.size());
  chosen_a_ = valid ? open_[size_t(a)].serial : 0;
  chosen_b_ = valid ? open_[size_t(b)].serial : 0;
  emit overlays_changed();
}

std::vector<ShownSession> SessionStore::sessions_for(const QString& chart_id) const {
  return is_compare_chart(chart_id) ? compared() : shown();
}

std::vector<ChartKind> SessionStore::chart_kinds() const {
  return chart_kinds_for(shown(), compared().size() == 2);
}

charts::Chart SessionStore::chart(const QString& id) const {
  return build_chart(id, sessions_for(id), baseline_, time_basis_, ladder_setting_,
                     pct_of_limit(id), matrix_total_);
}

void SessionStore::set_pct_of_limit(const QString& chart_id, bool on) {
  if (on == pct_of_limit(chart_id)) return;
  if (on)
    pct_of_limit_.insert(chart_id);
  else
    pct_of_limit_.remove(chart_id);
  emit chart_view_changed(chart_id);
}

void SessionStore::rename(int index, const QString& name) {
  if (index < 0 || index >= int(open_.size())) return;
  open_[size_t(index)].given_name = name.trimmed();
  emit overlays_changed();
}

void SessionStore::set_hidden(int index, bool hidden) {
  if (index < 0 || index >= int(open_.size()) || open_[size_t(index)].hidden == hidden) return;
  open_[size_t(index)].hidden = hidden;
  emit overlays_changed();
}

bool SessionStore::close(int index) {
  if (index < 0 || index >= int(open_.size())) return false;
  // While a run adds points, its lanes hold the overlays' indices: nothing closes under them.
  for (const OpenSession& o : open_)
    if (o.live) return false;
  open_.erase(open_.begin() + index);
  if (index == 0) {
    // The next newest becomes the primary: the table and the banner show it.
    auto newest = std::max_element(open_.begin(), open_.end(), [](const auto& x, const auto& y) {
      return x.serial < y.serial;
    });
    if (newest != open_.end()) {
      newest->hidden = false;
      std::rotate(open_.begin(), newest, newest + 1);
    }
    emit reset();
  }
  emit overlays_changed();
  return true;
}

}  // namespace rl::gui
