// The "Several GPUs" tab: a multi-GPU session (run from the tab's form, or by reductionlab-cli run
// --devices ... --json FILE and opened with File > Open) as its charts (charts/chart_multi.h):
// the phases stacked, time and bandwidth against the number of GPUs. Above them, the run form
// (multi_gpu_run_form.h), the GPUs, the links between them, NCCL, and which size and type the
// charts show. A run's points appear as they are measured.
#pragma once

#include <QWidget>

#include <optional>

#include "engine/session/multi_results.h"

class QComboBox;
class QLabel;

namespace rl::gui {

class MultiRunForm;

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
  MultiRunForm* run_form() const { return form_; }
  // A run from the form: its session so far, then the whole (or why it failed).
  void show_run_progress(const MultiSession& session);
  void show_run_finished(const MultiSession& session);
  void show_run_failed(const QString& message);
  void show_run_notice(const QString& message);  // the worker's word ("measuring read floors")

 signals:
  // A session was opened (the animation's levels view shows its measured phases).
  void session_changed(const rl::MultiSession& session, const QString& path);

 private:
  void show_selected();
  std::optional<MultiSession> session_;
  MultiRunForm* form_;
  QLabel* summary_;
  QComboBox* which_;  // size and type
  QList<QPair<QString, charts::ChartWidget*>> charts_;
};

}  // namespace rl::gui
