// The "Several GPUs" tab: a multi-GPU session (reductionlab-cli run --devices ... --json FILE,
// opened with File > Open) as its charts (charts/chart_multi.h): the phases stacked, time and
// bandwidth against the number of GPUs. Above them, the GPUs, the links between them, NCCL, and
// which size and type the charts show. Without a session it says how to make one.
#pragma once

#include <QWidget>

#include <optional>

#include "engine/multi/multi_results.h"

class QComboBox;
class QLabel;

namespace rl::gui {

namespace charts {
class ChartWidget;
}

class MultiGpuView : public QWidget {
  Q_OBJECT
 public:
  explicit MultiGpuView(QWidget* parent = nullptr);
  void set_session(MultiSession session, const QString& path);
  bool has_session() const { return session_.has_value(); }
  const MultiSession& session() const { return *session_; }
  QString summary_text() const;  // the text above the charts, for tests
  charts::ChartWidget* chart(const QString& id) const;

 signals:
  // A session was opened (the animation's levels view shows its measured phases).
  void session_changed(const rl::MultiSession& session, const QString& path);

 private:
  void show_selected();
  std::optional<MultiSession> session_;
  QLabel* summary_;
  QComboBox* which_;  // size and type
  QList<QPair<QString, charts::ChartWidget*>> charts_;
};

}  // namespace rl::gui
