#include "main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <set>

#include "catalog.h"
#include "chart_export.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "device_panel.h"
#include "experiment_panel.h"
#include "export.h"
#include "export_dialog.h"
#include "format.h"
#include "presets.h"
#include "results_model.h"
#include "results_table.h"
#include "run_worker.h"
#include "session_files.h"
#include "session_store.h"

#if RL_HAVE_ANIMATION_PANEL
#include "animation/animation_panel.h"
#endif

namespace rl::gui {

namespace {
const char* kBundledSession = ":/sessions/h200-ladder.json";
}

MainWindow::MainWindow() : MainWindow(Options{}) {}

MainWindow::MainWindow(Options options)
    : options_(options),
      store_(new SessionStore(this)),
      controller_(new RunController(this)),
      experiment_(new ExperimentPanel),
      charts_(new ChartsPanel(store_, this)),
      model_(new ResultsModel(this)),
      table_(new ResultsTable(model_)),
      device_panel_(new DevicePanel),
      tabs_(new QTabWidget),
      banner_(new QLabel),
      baseline_(new QComboBox) {
  setWindowTitle("ReductionLab");
  auto* scroll = new QScrollArea;
  scroll->setWidget(experiment_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(experiment_->minimumSizeHint().width() + 24);  // room for the scroll bar

  auto* right = new QWidget;
  auto* right_layout = new QVBoxLayout(right);
  right_layout->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  banner_->setWordWrap(true);
  banner_->setTextFormat(Qt::RichText);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top->addWidget(banner_, 1);
  top->addWidget(new QLabel("Speed-up against"));
  baseline_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  baseline_->setToolTip("The baseline variant of every speed-up (charts and table)");
  top->addWidget(baseline_);
  right_layout->addLayout(top);
  for (const auto& [title, page] : charts_->pages()) tabs_->addTab(page, title);
  tabs_->addTab(table_, "Results");
  tabs_->addTab(device_panel_, "Device");
#if RL_HAVE_ANIMATION_PANEL
  tabs_->addTab(create_block_animation_panel(tabs_), "Inside a block");
#endif
  right_layout->addWidget(tabs_, 1);

  auto* split = new QSplitter;
  split->addWidget(scroll);
  split->addWidget(right);
  split->setStretchFactor(1, 1);
  split->setSizes({scroll->minimumWidth(), 1100});
  setCentralWidget(split);
  resize(1500, 950);

  build_actions();
  connect_store();
  connect_run();
  connect(tabs_, &QTabWidget::currentChanged, charts_, [this] { charts_->refresh_visible(); });
  connect(charts_, &ChartsPanel::export_requested, this, &MainWindow::export_chart_interactive);
  connect(baseline_, &QComboBox::activated, this,
          [this] { store_->set_baseline(baseline_->currentData().toString().toStdString()); });
  connect(experiment_, &ExperimentPanel::preset_applied, this, [this](const ExperimentSpec& spec) {
    if (!spec.baseline.empty()) store_->set_baseline(spec.baseline);
    update_baselines();
  });

  if (options_.settings) restore_settings();
  if (options_.discover) controller_->discover();
  if (options_.open_bundled && QFile::exists(kBundledSession)) {
    QString error;
    if (auto s = read_session_file(kBundledSession, &error))
      store_->set_primary(std::move(*s), "bundled session");
    else
      report_error("Bundled session", error);
  }
  update_banner();
  update_baselines();
  statusBar()->showMessage(
      QFile::exists(kBundledSession)
          ? "Showing the bundled session. Ctrl+R runs the experiment on the left."
          : "Ready. Pick a preset, then Ctrl+R.");
}

MainWindow::~MainWindow() = default;

void MainWindow::build_actions() {
  QMenu* file = menuBar()->addMenu("&File");
  auto add = [this](QMenu* menu, const QString& text, QKeySequence key, auto slot) {
    QAction* a = menu->addAction(text);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  add(file, "&Open session...", QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open session", last_dir_,
                                                      "Sessions (*.json);;All files (*)");
    if (!path.isEmpty()) open_session(path);
  });
  add(file, "O&verlay a second session...", QKeySequence("Ctrl+Shift+O"), [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, "Overlay session (e.g. another GPU)", last_dir_, "Sessions (*.json);;All files (*)");
    if (!path.isEmpty()) open_session(path, true);
  });
  add(file, "Clear overlays", QKeySequence(), [this] { store_->clear_overlays(); });
  file->addSeparator();
  add(file, "&Save session...", QKeySequence::Save, [this] {
    const QString path = ask_save_path("Save session", "Sessions (*.json)", "session.json");
    if (!path.isEmpty()) save_session(path);
  });
  add(file, "&Export chart...", QKeySequence("Ctrl+E"),
      [this] { export_chart_interactive(charts_->first_chart_on(tabs_->currentWidget())); });
  add(file, "Export all charts as PNG...", QKeySequence("Ctrl+Shift+E"), [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, "Folder for the charts", last_dir_);
    if (dir.isEmpty()) return;
    QStringList written;
    QString error;
    if (write_all_charts(store_->shown(), store_->baseline(), dir, export_size_, &written, &error))
      statusBar()->showMessage(QString("Wrote %1 charts to %2").arg(written.size()).arg(dir), 8000);
    else
      report_error("Export charts", error);
  });
  add(file, "Export summary CSV...", QKeySequence(), [this] {
    const QString path = ask_save_path("Export summary CSV", "CSV (*.csv)", "summary.csv");
    if (!path.isEmpty()) export_summary_csv(path);
  });
  add(file, "Export raw samples CSV...", QKeySequence(), [this] {
    const QString path = ask_save_path("Export raw samples CSV", "CSV (*.csv)", "samples.csv");
    if (!path.isEmpty()) export_samples_csv(path);
  });
  file->addSeparator();
  add(file, "&Quit", QKeySequence::Quit, [this] { close(); });

  QMenu* run_menu = menuBar()->addMenu("&Run");
  run_action_ = add(run_menu, "&Run the experiment", QKeySequence("Ctrl+R"), [this] { run(); });
  cancel_action_ = add(run_menu, "&Cancel", QKeySequence(Qt::Key_Escape), [this] { cancel(); });
  cancel_action_->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence("Ctrl+.")});
  cancel_action_->setEnabled(false);
  QMenu* presets_menu = run_menu->addMenu("Presets");
  for (int i = 0; i < int(presets().size()); ++i)
    add(presets_menu, presets()[size_t(i)].name, QKeySequence(),
        [this, i] { experiment_->apply_preset(i); });

  QMenu* help = menuBar()->addMenu("&Help");
  add(help, "About ReductionLab", QKeySequence(), [this] {
    QMessageBox::about(
        this, "ReductionLab",
        "ReductionLab runs the classic ladder of CUDA parallel-reduction kernels and "
        "modern ones, measures what each optimisation buys, and shows what happens "
        "inside a block.\n\nFont: DejaVu Sans (bundled; see resources/fonts/LICENSE).");
  });
}

void MainWindow::connect_store() {
  connect(store_, &SessionStore::reset, this, [this] {
    model_->set_results(store_->primary().results, store_->primary().device, store_->baseline());
    device_panel_->set_session_device(
        store_->has_primary() ? &store_->primary().device : nullptr,
        store_->has_primary() ? session_origin(store_->primary()) : QString());
    update_banner();
    update_baselines();
  });
  connect(store_, &SessionStore::appended, this, [this](int row) {
    model_->append(store_->primary().results[size_t(row)]);
    update_banner();
  });
  connect(store_, &SessionStore::speedups_changed, this,
          [this] { model_->update_speedups(store_->primary().results, store_->baseline()); });
  connect(store_, &SessionStore::metadata_changed, this, [this] {
    model_->update_speedups(store_->primary().results, store_->baseline());
    device_panel_->set_session_device(&store_->primary().device, session_origin(store_->primary()));
    update_banner();
  });
  connect(store_, &SessionStore::overlays_changed, this, [this] {
    update_banner();
    update_baselines();
  });
}

void MainWindow::connect_run() {
  connect(experiment_, &ExperimentPanel::run_requested, this, &MainWindow::run);
  connect(experiment_, &ExperimentPanel::cancel_requested, this, &MainWindow::cancel);
  connect(controller_, &RunController::discovered, this, [this](const Discovery& d) {
    discovery_ = d;
    experiment_->set_discovery(d);
    device_panel_->set_discovery(d);
    if (wanted_device_) experiment_->set_device(*wanted_device_);
  });
  connect(controller_, &RunController::started, this, [this](const DeviceInfo& device) {
    Session s = store_->primary();
    s.device = device;  // the backend's view, with the measured copy bandwidth
    store_->finish_live(s);
    device_panel_->update_device(device);
  });
  connect(controller_, &RunController::progress, experiment_, &ExperimentPanel::show_progress);
  connect(controller_, &RunController::point_finished, store_, &SessionStore::append_live);
  connect(controller_, &RunController::finished, this, [this](const Session& session) {
    store_->finish_live(session);
    experiment_->set_running(false);
    cancel_action_->setEnabled(false);
    const QString took = format_duration_s(run_clock_.elapsed() / 1000.0);
    const QString text =
        session.cancelled
            ? QString("Cancelled after %1 point(s) in %2; the finished points are kept.")
                  .arg(session.results.size())
                  .arg(took)
            : QString("Done: %1 point(s) in %2.").arg(session.results.size()).arg(took);
    experiment_->show_status(text);
    statusBar()->showMessage(text, 10000);
    emit run_ended();
  });
  connect(controller_, &RunController::failed, this, [this](const QString& message) {
    experiment_->set_running(false);
    cancel_action_->setEnabled(false);
    experiment_->show_status("The run stopped: " + message);
    report_error("Run failed", message);
    emit run_ended();
  });
}

void MainWindow::run() {
  if (controller_->running()) return;
  experiment_->validate_now();  // the form may have changed within the last few milliseconds
  const QStringList problems = experiment_->problems();
  auto spec = experiment_->spec();
  if (!spec || !problems.isEmpty()) {
    statusBar()->showMessage("Cannot run: " + problems.join("; "), 10000);
    return;
  }
  spec->baseline = store_->baseline();
  const int device = experiment_->device();
  DeviceInfo info = discovery_ ? discovery_->host : DeviceInfo{};
  if (const DeviceInfo* gpu = experiment_->device_info()) info = *gpu;
  store_->begin_live(*spec, info);  // overlays stay: e.g. a saved H200 session beside this GPU
  experiment_->set_running(true);
  cancel_action_->setEnabled(true);
  run_clock_.start();
  controller_->start(*spec, device);
  update_banner();
  if (options_.settings) save_settings();
}

void MainWindow::cancel() {
  if (!controller_->running()) return;
  controller_->cancel();
  experiment_->show_status("Cancelling: the current sample finishes first...");
}

bool MainWindow::open_session(const QString& path, bool overlay) {
  QString error;
  std::optional<Session> s = read_session_file(path, &error);
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
    store_->clear_overlays();
    store_->set_primary(std::move(*s), path);
  }
  statusBar()->showMessage(QString("Opened %1").arg(path), 6000);
  return true;
}

bool MainWindow::save_session(const QString& path) {
  QString error;
  if (!store_->has_primary()) {
    report_error("Save session", "There is no session to save yet: run an experiment first.");
    return false;
  }
  if (!write_session_file(store_->primary(), path, &error)) {
    report_error("Save session", error);
    return false;
  }
  statusBar()->showMessage("Saved " + path, 6000);
  return true;
}

bool MainWindow::export_summary_csv(const QString& path) {
  QString error;
  if (!write_text_file(path, summary_csv(store_->primary().results), &error)) {
    report_error("Export CSV", error);
    return false;
  }
  return true;
}

bool MainWindow::export_samples_csv(const QString& path) {
  QString error;
  if (!write_text_file(path, samples_csv(store_->primary().results), &error)) {
    report_error("Export CSV", error);
    return false;
  }
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

void MainWindow::update_banner() {
  QString html;
  if (!store_->has_primary()) {
    html =
        "<b>No session yet.</b> Pick a preset on the left and press Run (Ctrl+R), or open a saved "
        "session (Ctrl+O).";
    if (!QFile::exists(kBundledSession))
      html += " <span style='color:#777'>(This build has no bundled H200 session.)</span>";
  } else {
    const Session& s = store_->primary();
    const QString source = store_->primary_source();
    QString what =
        source == "live run" ? (controller_->running() ? "<b>Running</b> on " : "<b>Run</b> on ")
        : source == "bundled session"
            ? "<b>Bundled session</b>, measured with reductionlab-cli on "
            : "<b>" + QFileInfo(source).fileName().toHtmlEscaped() + "</b>, measured on ";
    html = what + session_origin(s).toHtmlEscaped();
    for (const Session& o : store_->overlays())
      html += "<br>Overlaid (dashed): " + session_origin(o).toHtmlEscaped();
  }
  banner_->setText(html);
}

QString MainWindow::banner_text() const {
  return banner_->text();
}

void MainWindow::update_baselines() {
  std::set<std::string> ids{store_->baseline()};
  for (const ShownSession& s : store_->shown())
    for (const PointResult& r : s.session->results) ids.insert(r.point.variant);
  baseline_->clear();
  for (const VariantInfo& v : catalog())
    if (ids.count(v.id))
      baseline_->addItem(
          variant_label(v.id, 1, false) + "  (" + QString::fromStdString(v.display_name) + ")",
          QString::fromStdString(v.id));
  baseline_->setCurrentIndex(baseline_->findData(QString::fromStdString(store_->baseline())));
}

void MainWindow::report_error(const QString& title, const QString& message) {
  last_error_ = message;
  statusBar()->showMessage(message, 10000);
  emit error_reported(message);
  if (options_.dialogs) QMessageBox::critical(this, title, message);
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
  if (settings.contains("charts/baseline"))
    store_->set_baseline(settings.value("charts/baseline").toString().toStdString());
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
  settings.setValue("charts/baseline", QString::fromStdString(store_->baseline()));
  settings.setValue("charts/export_size", export_size_);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (options_.settings) save_settings();
  controller_->cancel();
  QMainWindow::closeEvent(event);
}

}  // namespace rl::gui
