#include "main_window.h"
#include "local_run.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <set>

#include "animation/block_animation.h"
#include "animation/timeline_panel.h"
#include "chart_export.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "device_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/experiment/presets.h"
#include "engine/io/export.h"
#include "experiment_panel.h"
#include "export_dialog.h"
#include "format.h"
#include "jobs/gpu_queue_jobs.h"
#include "jobs/job_tracker.h"
#include "jobs/jobs_bar.h"
#include "multi_gpu_view.h"
#include "remote/remote_run.h"
#include "results_model.h"
#include "results_table.h"
#include "run_worker.h"
#include "session_files.h"
#include "session_store.h"
#include "time_basis.h"

namespace rl::gui {

const char* const kBundledSession = ":/sessions/h200-ladder.json";

// A page in a scroll area: one whose controls need more width than a small screen leaves
// scrolls, rather than making the window wider than the screen.
QWidget* scrolled(QWidget* page) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(page);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  return scroll;
}

MainWindow::MainWindow() : MainWindow(Options{}) {}

MainWindow::MainWindow(Options options)
    : options_(options),
      jobs_(new JobTracker(this)),
      store_(new SessionStore(this)),
      controller_(new RunController(this)),
      experiment_(new ExperimentPanel),
      charts_(new ChartsPanel(store_, this)),
      model_(new ResultsModel(this)),
      table_(new ResultsTable(model_)),
      device_panel_(new DevicePanel),
      multi_view_(new MultiGpuView),
      tabs_(new QTabWidget),
      banner_(new QLabel),
      baseline_(new QComboBox),
      time_basis_(new QComboBox) {
  setWindowTitle("ReductionLab");
  // The form scrolls inside its dock: its height never sets the window's, and the dock closes
  // (View > Experiment panel, F9) to give the charts the whole width.
  auto* scroll = new QScrollArea;
  scroll->setWidget(experiment_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(experiment_->minimumSizeHint().width() + 24);  // room for the scroll bar
  experiment_dock_ = new QDockWidget("Experiment", this);
  experiment_dock_->setObjectName("experiment_dock");
  experiment_dock_->setWidget(scroll);
  addDockWidget(Qt::LeftDockWidgetArea, experiment_dock_);

  auto* right = new QWidget;
  auto* right_layout = new QVBoxLayout(right);
  right_layout->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  banner_->setWordWrap(true);
  banner_->setTextFormat(Qt::RichText);
  banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The banner gets the whole width: with two devices (or a remote one) it names both, and
  // beside the choosers it wrapped into a tall, narrow column.
  top->addStretch(1);
  top->addWidget(new QLabel("Speed-up against"));
  baseline_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  baseline_->setMinimumContentsLength(16);
  baseline_->setToolTip("The baseline variant of every speed-up (charts and table)");
  top->addWidget(baseline_);
  top->addWidget(new QLabel("Time"));
  time_basis_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  time_basis_->setMinimumContentsLength(14);
  for (TimeBasis b : time_bases())
    time_basis_->addItem(qtext::time_basis_choice(b), qtext::time_basis_key(b));
  time_basis_->setToolTip(
      "The time every chart draws (times, bandwidths, speed-ups); points without it are left out "
      "and counted. The Results table shows all three.");
  top->addWidget(time_basis_);
  right_layout->addWidget(build_resume_bar());
  right_layout->addWidget(banner_);
  right_layout->addLayout(top);
  for (const auto& [title, page] : charts_->pages()) tabs_->addTab(page, title);
  tabs_->addTab(table_, "Results");
  tabs_->addTab(device_panel_, "Device");
  tabs_->addTab(scrolled(multi_view_), "Several GPUs");
  {
    // Scrolls rather than forcing its width on the whole window (its controls are one wide row).
    auto* animation = new QScrollArea;
    auto* panel = new BlockAnimationPanel(animation);
    panel->set_gpu_jobs(controller_);  // discovery and recordings through the one GPU worker
    panel->set_job_tracker(jobs_);     // GIFs encoded and written as jobs
    // The levels above the block show the open multi-GPU session's measured phases.
    connect(multi_view_, &MultiGpuView::session_changed, panel,
            &BlockAnimationPanel::set_multi_session);
    // Its measured timeline shows the shown session's stored timelines and counters, and keeps
    // what it records there.
    panel->timeline_panel()->set_store(store_);
    for (auto changed :
         {&SessionStore::reset, &SessionStore::metadata_changed, &SessionStore::timelines_changed})
      connect(store_, changed, panel, [this, panel] {
        panel->set_session(store_->shared_primary(), store_->primary_source());
      });
    animation->setWidget(panel);
    animation->setWidgetResizable(true);
    animation->setFrameShape(QFrame::NoFrame);
    tabs_->addTab(animation, "Inside a block");
  }
  add_code_view();
  right_layout->addWidget(tabs_, 1);

  setCentralWidget(right);
  resizeDocks({experiment_dock_}, {scroll->minimumWidth()}, Qt::Horizontal);
  fit_to_screen();

  build_actions();
  // Every job (runs, the GPU queue's own, files) in one place at the status bar's right.
  jobs_bar_ = new JobsBar(jobs_, this);
  statusBar()->addPermanentWidget(jobs_bar_);
  new GpuQueueJobs(controller_, jobs_, this);
  connect_store();
  connect_run();
  connect_multi_run();
  connect(tabs_, &QTabWidget::currentChanged, charts_, [this] { charts_->refresh_visible(); });
  connect(charts_, &ChartsPanel::export_requested, this, &MainWindow::export_chart_interactive);
  connect(baseline_, &QComboBox::activated, this,
          [this] { store_->set_baseline(baseline_->currentData().toString().toStdString()); });
  connect(time_basis_, &QComboBox::activated, this, [this] {
    store_->set_time_basis(parse_time_basis(time_basis_->currentData().toString()).value());
  });
  connect(store_, &SessionStore::time_basis_changed, this, [this] {
    time_basis_->setCurrentIndex(
        time_basis_->findData(qtext::time_basis_key(store_->time_basis())));
  });
  connect(experiment_, &ExperimentPanel::preset_applied, this, [this](const ExperimentSpec& spec) {
    if (!spec.baseline.empty()) store_->set_baseline(spec.baseline);
    update_baselines();
  });

  if (options_.settings) restore_settings();
  if (options_.settings) restore_remote_hosts();
  connect(experiment_, &ExperimentPanel::remote_hosts_requested, this,
          &MainWindow::show_remote_hosts_dialog);
  restore_view_settings();
  if (options_.discover) controller_->discover();
  if (options_.open_bundled && QFile::exists(kBundledSession)) open_bundled_session();
  update_banner();
  update_baselines();
  statusBar()->showMessage(bundled_job_ ? "Opening the bundled session..."
                                        : "Ready. Pick a preset, then Ctrl+R.");
  offer_checkpoint();
}

MainWindow::~MainWindow() = default;

// The whole available area of the screen, maximized: the charts get every pixel at 1024 x 768 and
// at 4K alike. A size the person left it at comes back from the settings (restore_settings).
void MainWindow::fit_to_screen() {
  const QScreen* screen = QGuiApplication::primaryScreen();
  if (!screen) return resize(1280, 800);
  const QRect room = screen->availableGeometry();
  setGeometry(room);
  setWindowState(windowState() | Qt::WindowMaximized);
}

// The tab that holds page (itself, or the scroll area around it).
void MainWindow::show_tab_of(QWidget* page) {
  for (int i = 0; i < tabs_->count(); ++i)
    if (tabs_->widget(i) == page || tabs_->widget(i)->isAncestorOf(page))
      return tabs_->setCurrentIndex(i);
}

void MainWindow::show_charts_page(const QString& title) {
  for (const auto& [name, page] : charts_->pages())
    if (name == title) return show_tab_of(page);
}

void MainWindow::connect_store() {
  connect(store_, &SessionStore::reset, this, [this] {
    model_->set_session(store_->shared_primary(), store_->baseline());
    device_panel_->set_session_device(
        store_->has_primary() ? &store_->primary().device : nullptr,
        store_->has_primary() ? qtext::session_origin(store_->primary()) : QString());
    update_banner();
    update_baselines();
  });
  connect(store_, &SessionStore::appended, this, [this] {
    model_->append_new_points();
    update_banner();
  });
  connect(store_, &SessionStore::speedups_changed, this,
          [this] { model_->update_speedups(store_->baseline()); });
  connect(store_, &SessionStore::metadata_changed, this, [this] {
    model_->update_values(store_->baseline());
    device_panel_->set_session_device(&store_->primary().device,
                                      qtext::session_origin(store_->primary()));
    update_banner();
  });
  connect(store_, &SessionStore::overlays_changed, this, [this] {
    // Overlays cleared after a run on several devices: its lanes are no longer on screen.
    if (!running() && store_->overlays().empty()) lanes_.clear();
    update_banner();
    update_baselines();
  });
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
        source == "live run" ? (running() ? "<b>Running</b> on " : "<b>Run</b> on ")
        : source == "bundled session"
            ? "<b>Bundled session</b>, measured with reductionlab-cli on "
            : "<b>" + QFileInfo(source).fileName().toHtmlEscaped() + "</b>, measured on ";
    // A session measured through a launcher names its machine first.
    auto on = [this](int overlay) {
      const QString m = store_->machine(overlay);
      return m.isEmpty() ? QString() : "<b>" + m.toHtmlEscaped() + "</b> · ";
    };
    html = what + on(-1) + qtext::session_origin(s).toHtmlEscaped();
    // Points measured with a kernel's earlier device code (the catalog's record) say so here
    // and in their tooltips: they cannot be taken for this build's.
    if (const std::string note = earlier_code_session_note(s); !note.empty())
      html += "<br>" + QString::fromStdString(note).toHtmlEscaped();
    int hidden = 0;
    for (int i = 0; i < int(store_->overlays().size()); ++i) {
      if (store_->open()[size_t(i) + 1].hidden) {
        ++hidden;
        continue;
      }
      html += QString("<br>%1: ").arg(lane_of_overlay(i) ? "Also on" : "Overlaid (dashed)") +
              on(i) + qtext::session_origin(store_->overlays()[size_t(i)]).toHtmlEscaped();
    }
    // Sessions kept from earlier runs and files: listed, not drawn.
    if (hidden > 0)
      html += QString(
                  "<br><span style='color:#555'>%1 more session%2 open, hidden: View > "
                  "Sessions (Ctrl+Shift+S)</span>")
                  .arg(hidden)
                  .arg(hidden == 1 ? "" : "s");
  }
  banner_->setText(html);
}

bool MainWindow::lane_of_overlay(int overlay) const {
  for (const Lane& l : lanes_)
    if (l.overlay == overlay) return true;
  return false;
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
  for (const std::string& id : ids)  // kernels the user wrote, after the built-in rungs
    if (const VariantInfo* v = find_variant_by_id(id); v && v->family == VariantFamily::User)
      baseline_->addItem(QString::fromStdString(id) + "  (your kernel)",
                         QString::fromStdString(id));
  baseline_->setCurrentIndex(baseline_->findData(QString::fromStdString(store_->baseline())));
}

void MainWindow::report_error(const QString& title, const QString& message) {
  last_error_ = message;
  statusBar()->showMessage(message, 10000);
  emit error_reported(message);
  if (options_.dialogs) QMessageBox::critical(this, title, message);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // Asks first while jobs run (main_window_jobs.cpp); a run keeps its checkpoint.
  if (!end_jobs_for_quit()) return event->ignore();
  if (options_.settings) save_settings();
  QMainWindow::closeEvent(event);
}

}  // namespace rl::gui
