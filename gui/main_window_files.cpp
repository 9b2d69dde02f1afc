// The window's menus and everything that reads or writes files: sessions, CSV, charts, and
// the settings remembered between runs.
#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <algorithm>

#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "engine/experiment/presets.h"
#include "engine/io/export.h"
#include "experiment_panel.h"
#include "export_dialog.h"
#include "main_window.h"
#include "multi_gpu_view.h"
#include "session_files.h"
#include "session_store.h"
#include "time_basis.h"

namespace rl::gui {

namespace {

template <class Slot>
QAction* add_action(QWidget* owner, QMenu* menu, const QString& text, QKeySequence key, Slot slot) {
  QAction* a = menu->addAction(text);
  if (!key.isEmpty()) a->setShortcut(key);
  QObject::connect(a, &QAction::triggered, owner, slot);
  return a;
}

}  // namespace

void MainWindow::build_actions() {
  build_file_menu();
  QMenu* run_menu = menuBar()->addMenu("&Run");
  run_action_ =
      add_action(this, run_menu, "&Run the experiment", QKeySequence("Ctrl+R"), [this] { run(); });
  cancel_action_ =
      add_action(this, run_menu, "&Cancel", QKeySequence(Qt::Key_Escape), [this] { cancel(); });
  cancel_action_->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence("Ctrl+.")});
  cancel_action_->setEnabled(false);
  add_action(this, run_menu, "Re&mote machines...", QKeySequence("Ctrl+Shift+M"),
             [this] { show_remote_hosts_dialog(); });
  QMenu* presets_menu = run_menu->addMenu("Presets");
  for (int i = 0; i < int(presets().size()); ++i)
    add_action(this, presets_menu, QString::fromStdString(presets()[size_t(i)].name),
               QKeySequence(), [this, i] { experiment_->apply_preset(i); });

  build_view_menu();
  build_story_menu();
  build_help_menu();  // main_window_help.cpp
  build_run_toolbar();
}

// Run and Cancel always in view, whatever the form's height or the panels shown; beside them
// the panels' toggles and presentation mode, so that a newcomer finds them without the menus.
void MainWindow::build_run_toolbar() {
  run_toolbar_ = addToolBar("Run");
  run_toolbar_->setObjectName("run_toolbar");
  run_toolbar_->setMovable(false);
  run_toolbar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  run_action_->setIconText("Run  (Ctrl+R)");
  cancel_action_->setIconText("Cancel  (Esc)");
  run_toolbar_->addAction(run_action_);
  run_toolbar_->addAction(cancel_action_);
  run_toolbar_->addSeparator();
  QAction* form = experiment_dock_->toggleViewAction();
  QAction* sessions = sessions_dock_->toggleViewAction();
  form->setIconText("Experiment  (F9)");
  sessions->setIconText("Sessions  (Ctrl+Shift+S)");
  present_action_->setIconText("Present  (F5)");
  for (QAction* a : {form, sessions, present_action_}) run_toolbar_->addAction(a);
}

void MainWindow::build_file_menu() {
  QMenu* file = menuBar()->addMenu("&File");
  auto add = [this, file](const QString& text, QKeySequence key, auto slot) {
    return add_action(this, file, text, key, slot);
  };
  add("&Open session...", QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open session", last_dir_,
                                                      "Sessions (*.json);;All files (*)");
    if (!path.isEmpty()) open_session_in_background(path);
  });
  add("O&verlay a second session...", QKeySequence("Ctrl+Shift+O"), [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, "Overlay session (e.g. another GPU)", last_dir_, "Sessions (*.json);;All files (*)");
    if (!path.isEmpty()) open_session_in_background(path, true);
  });
  add("Clear overlays", QKeySequence(), [this] { store_->clear_overlays(); });
  add("Open s&tory...", QKeySequence(), [this] { open_story_interactive(); });
  add("Open &kernel...", QKeySequence(), [this] { open_kernel_interactive(); });
  add("Open &lab sheet...", QKeySequence(), [this] { open_lab_sheet_interactive(); });
  file->addSeparator();
  add("&Save session...", QKeySequence::Save, [this] {
    const QString path = ask_save_path("Save session", "Sessions (*.json)", "session.json");
    if (!path.isEmpty()) start_save_session(path);
  });
  add("Save every session shown...", QKeySequence(), [this] {
    const QString path = ask_save_path("Save every session shown (the others beside it)",
                                       "Sessions (*.json)", "session.json");
    if (!path.isEmpty()) start_save_all_sessions(path);
  });
  add("&Export chart...", QKeySequence("Ctrl+E"),
      [this] { export_chart_interactive(charts_->first_chart_on(tabs_->currentWidget())); });
  add("Export all charts as PNG...", QKeySequence("Ctrl+Shift+E"),
      [this] { export_all_charts_interactive(); });
  add("Export summary CSV...", QKeySequence(), [this] {
    const QString path = ask_save_path("Export summary CSV", "CSV (*.csv)", "summary.csv");
    if (!path.isEmpty()) start_export_csv(path, false);
  });
  add("Export raw samples CSV...", QKeySequence(), [this] {
    const QString path = ask_save_path("Export raw samples CSV", "CSV (*.csv)", "samples.csv");
    if (!path.isEmpty()) start_export_csv(path, true);
  });
  file->addSeparator();
  add("&Quit", QKeySequence::Quit, [this] { close(); });
}

bool MainWindow::open_session(const QString& path, bool overlay) {
  return show_opened_session(path, overlay, read_opened_session(path, overlay));
}

bool MainWindow::show_opened_session(const QString& path, bool overlay, OpenedSession opened) {
  const QString& error = opened.error;
  std::optional<Session>& s = opened.one;
  if (opened.is_multi) {
    std::optional<MultiSession>& m = opened.multi;
    if (!m) {
      report_error("Open session", error);
      return false;
    }
    last_dir_ = QFileInfo(path).absolutePath();
    multi_view_->set_session(std::move(*m), path);
    show_tab_of(multi_view_);
    statusBar()->showMessage(QString("Opened %1 (several GPUs)").arg(path), 6000);
    return true;
  }
  if (!s) {
    report_error(overlay ? "Overlay session" : "Open session", error);
    return false;
  }
  last_dir_ = QFileInfo(path).absolutePath();
  if (overlay) {
    if (!store_->has_primary()) {
      store_->set_primary(std::move(*s), path);
    } else {
      store_->add_overlay(std::move(*s));
    }
  } else {
    // The sessions open before stay in the Sessions list, hidden (set_primary).
    // The session's own baseline when the current one is not in it (a lab's session has no
    // reduceNeighbored): its speed-ups are then the ones it was run for.
    const std::string own = s->spec.baseline;
    const bool has_current = std::any_of(s->results.begin(), s->results.end(), [&](const auto& r) {
      return r.point.variant == store_->baseline();
    });
    const bool has_own = std::any_of(s->results.begin(), s->results.end(),
                                     [&](const auto& r) { return r.point.variant == own; });
    const bool matrices = matrices_only(*s);  // opens on the page that draws them
    store_->set_primary(std::move(*s), path);
    if (!has_current && has_own) {
      store_->set_baseline(own);
      update_baselines();
    }
    if (matrices) show_charts_page(kMatrixPage);
  }
  statusBar()->showMessage(QString("Opened %1").arg(path), 6000);
  return true;
}

bool MainWindow::export_chart(const QString& id, const QString& path, QSize size) {
  charts_->refresh_all();
  charts::ChartWidget* w = charts_->chart(id);
  if (!w) {
    report_error("Export chart", "no chart named " + id);
    return false;
  }
  QString error;
  const bool svg = path.endsWith(".svg", Qt::CaseInsensitive);
  const bool ok = svg ? charts::write_chart_svg(w->chart(), path, size, &error)
                      : charts::write_chart_png(w->chart(), path, size, &error);
  if (!ok) report_error("Export chart", error);
  return ok;
}

void MainWindow::export_chart_interactive(const QString& id) {
  QList<QPair<QString, QString>> list;
  for (const QString& cid : charts_->ids()) list.append({cid, charts_->name(cid)});
  const auto choice = ask_chart_export(this, list, id, export_size_);
  if (!choice) return;
  export_size_ = choice->size;
  const QString path =
      ask_save_path("Export chart", "PNG image (*.png);;SVG drawing (*.svg)", choice->id + ".png");
  if (!path.isEmpty() && export_chart(choice->id, path, choice->size))
    statusBar()->showMessage("Wrote " + path, 6000);
}

QString MainWindow::ask_save_path(const QString& title, const QString& filter,
                                  const QString& suggested) {
  const QString path =
      QFileDialog::getSaveFileName(this, title, QDir(last_dir_).filePath(suggested), filter);
  if (!path.isEmpty()) last_dir_ = QFileInfo(path).absolutePath();
  return path;
}

void MainWindow::restore_settings() {
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  last_dir_ = settings.value("dirs/last", QDir::homePath()).toString();
  const QString spec = settings.value("experiment/spec").toString();
  if (!spec.isEmpty()) {
    try {
      experiment_->set_spec(spec_from_json(spec.toStdString()));
    } catch (const std::exception&) {
      // a spec saved by another version: keep the defaults
    }
  }
  if (settings.contains("experiment/device"))
    wanted_device_ = settings.value("experiment/device").toInt();
  restore_wanted_devices(settings);
  experiment_->set_profiling({settings.value("experiment/counters", false).toBool(),
                              settings.value("experiment/line_samples", false).toBool(),
                              settings.value("experiment/line_counts", false).toBool()});
  if (settings.contains("charts/baseline"))
    store_->set_baseline(settings.value("charts/baseline").toString().toStdString());
  // An unknown key (a later version's basis) keeps the whole reduction.
  if (auto basis = parse_time_basis(settings.value("charts/time_basis").toString()))
    store_->set_time_basis(*basis);
  const QSize size = settings.value("charts/export_size", export_size_).toSize();
  if (size.isValid()) export_size_ = size;
}

void MainWindow::save_settings() const {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("dirs/last", last_dir_);
  if (auto spec = experiment_->spec()) {
    try {
      settings.setValue("experiment/spec", QString::fromStdString(spec_to_json(*spec)));
    } catch (const std::exception&) {
    }
  }
  settings.setValue("experiment/device", experiment_->device());
  save_wanted_devices(settings);
  // The ticks as they are, also where the host backend turns them off for now.
  settings.setValue("experiment/counters", experiment_->counters_box()->isChecked());
  settings.setValue("experiment/line_samples", experiment_->line_samples_box()->isChecked());
  settings.setValue("experiment/line_counts", experiment_->line_counts_box()->isChecked());
  settings.setValue("charts/baseline", QString::fromStdString(store_->baseline()));
  settings.setValue("charts/time_basis", qtext::time_basis_key(store_->time_basis()));
  settings.setValue("charts/export_size", export_size_);
}

}  // namespace rl::gui
