// "Your kernel": the dock where the user writes a rung (gui/code/kernel_editor_panel.h) beside a
// lab sheet (lab_sheet_box.h). The Code tab's "New rung from this kernel" and a lab sheet fill
// the editor with a starter kernel; Compile runs NVRTC on the one job queue (run_worker.h) and
// shows the result in the editor and the Code tab; Run measures the experiment with the user's
// rung added, as any run (on the GPU in a worker process; on a remote GPU through its launcher:
// the spec carries the source).
#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QVBoxLayout>

#include "code/kernel_editor_panel.h"
#include "code_panel.h"
#include "engine/catalog/catalog.h"
#include "engine/user/user_kernel.h"
#include "experiment_panel.h"
#include "lab_sheet_box.h"
#include "main_window.h"
#include "run_worker.h"
#include "session_store.h"

namespace rl::gui {

namespace {

QString read_resource(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The shape a kernel the user wrote is compiled for: the experiment's first block size, unroll
// factor and type, for its GPU's architecture.
UserCompileShape compile_shape_of(const ExperimentPanel& experiment) {
  UserCompileShape shape;
  if (const auto spec = experiment.spec()) {
    if (!spec->block_sizes.empty()) shape.block_size = spec->block_sizes.front();
    if (!spec->unroll_factors.empty()) shape.unroll = spec->unroll_factors.front();
    if (!spec->types.empty()) shape.type = spec->types.front();
  }
  if (const DeviceInfo* gpu = experiment.device_info(); gpu && gpu->cc_major > 0)
    shape.arch = "sm_" + std::to_string(gpu->cc_major) + std::to_string(gpu->cc_minor);
  return shape;
}

}  // namespace

void MainWindow::add_user_kernel_dock(QMenu* view) {
  kernel_panel_ = new KernelEditorPanel;
  kernel_panel_->setObjectName("kernel_panel");
  lab_box_ = new LabSheetBox;
  // How long a point of the kernel may go without finishing before its worker is stopped (an
  // endless loop costs that point, not the run): the spec's, so it travels to a remote GPU too.
  kernel_limit_ = new QDoubleSpinBox;
  kernel_limit_->setObjectName("kernel_time_limit");
  kernel_limit_->setRange(0.5, 3600);
  kernel_limit_->setDecimals(1);
  kernel_limit_->setSuffix(" s");
  kernel_limit_->setValue(kDefaultUserKernelLimitS);
  kernel_limit_->setToolTip(
      "A point of your kernel that runs this long without finishing is "
      "stopped and fails saying so; the rest of the run goes on");
  auto* limit_row = new QHBoxLayout;
  limit_row->addWidget(new QLabel("Stop a point after"));
  limit_row->addWidget(kernel_limit_);
  limit_row->addStretch(1);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->addWidget(lab_box_);
  layout->addWidget(kernel_panel_, 1);
  layout->addLayout(limit_row);
  kernel_dock_ = new QDockWidget("Your kernel", this);
  kernel_dock_->setObjectName("kernel_dock");
  kernel_dock_->setWidget(body);
  // Beside the Code tab where the screen is wide; on a laptop or a projector it shares the left
  // side with the experiment form, as a tab, so the window still fits.
  constexpr int kWideScreen = 1600;
  const QScreen* screen = QGuiApplication::primaryScreen();
  const bool wide = screen && screen->availableGeometry().width() >= kWideScreen;
  addDockWidget(wide ? Qt::RightDockWidgetArea : Qt::LeftDockWidgetArea, kernel_dock_);
  if (!wide) tabifyDockWidget(experiment_dock_, kernel_dock_);
  kernel_dock_->hide();
  QAction* toggle = kernel_dock_->toggleViewAction();
  toggle->setText("&Your kernel (write, compile and run a rung; lab sheets)");
  toggle->setShortcut(QKeySequence("Ctrl+Shift+K"));
  view->addAction(toggle);
  // Shown from the menu or Ctrl+Shift+K: in front, even where it shares its side as a tab.
  connect(toggle, &QAction::triggered, kernel_dock_, [this](bool on) {
    if (on) kernel_dock_->raise();
  });

  connect(code_, &CodePanel::user_shape_wanted, this,
          [this](const QString& id, int block_size, int unroll, int type) {
            const std::optional<UserKernelSource> k = user_variant_source(id.toStdString());
            if (!k) return;
            UserCompileShape shape = compile_shape_of(*experiment_);
            shape.block_size = block_size;
            shape.unroll = unroll;
            shape.type = static_cast<DType>(type);
            run_after_compile_ = false;
            kernel_panel_->set_busy(true);
            controller_->compile_user_kernel(*k, shape);
          });
  connect(code_, &CodePanel::new_rung_requested, this, [this](const QString& id) {
    const VariantInfo* v = find_variant_by_id(id.toStdString());
    if (v == nullptr || v->family == VariantFamily::User) return;
    start_user_kernel(QString::fromStdString(starter_kernel_file(v->id)),
                      QString::fromStdString(starter_rung_name(v->id)), id);
  });
  connect(lab_box_, &LabSheetBox::start_requested, this,
          [this](const QString& starter, const QString& rung, const QString& start) {
            start_user_kernel(starter,
                              !rung.isEmpty()
                                  ? rung
                                  : QString::fromStdString(starter_rung_name(start.toStdString())),
                              start);
          });
  connect(kernel_panel_, &KernelEditorPanel::compile_requested, this,
          [this](const UserKernelSource& k) { compile_user_kernel(k, false); });
  connect(kernel_panel_, &KernelEditorPanel::run_requested, this,
          [this](const UserKernelSource& k) { compile_user_kernel(k, true); });
  connect(controller_, &RunController::user_kernel_compiled, this,
          [this](const UserKernelBuild& b) { user_kernel_compiled(b); });
  auto judge = [this] { lab_box_->judge(store_->primary(), kernel_panel_->source().name.c_str()); };
  connect(this, &MainWindow::run_ended, lab_box_, judge);
  connect(store_, &SessionStore::reset, lab_box_, judge);
}

void MainWindow::open_kernel_interactive() {
  kernel_dock_->show();
  kernel_dock_->raise();
  kernel_panel_->open_kernel();
}

void MainWindow::open_kernel(const QString& path) {
  kernel_dock_->show();
  kernel_dock_->raise();
  if (kernel_panel_->open_file(path))
    user_starter_ = {QFileInfo(path).fileName() + " (as opened)",
                     QString::fromStdString(kernel_panel_->source().source)};
}

void MainWindow::open_lab_sheet_interactive() {
  const QString path = QFileDialog::getOpenFileName(this, "Open lab sheet", last_dir_,
                                                    "Lab sheets (*.json);;All files (*)");
  if (path.isEmpty()) return;
  QString why;
  if (!lab_box_->open_sheet(path, &why)) return report_error("Cannot open the lab sheet", why);
  kernel_dock_->show();
  kernel_dock_->raise();
}

void MainWindow::start_user_kernel(const QString& starter, const QString& name,
                                   const QString& started_from) {
  kernel_dock_->show();
  kernel_dock_->raise();
  if (!kernel_panel_->maybe_discard_changes()) return;
  const QString text = read_resource(":/kernels/" + starter);
  if (text.isEmpty()) return report_error("No starter kernel", "resources/kernels/" + starter);
  // The starter names its kernel; the copy takes the rung's own name.
  const std::vector<std::string> names = user_kernel_names(text.toStdString());
  UserKernelSource k;
  k.source = text.toStdString();
  if (names.size() == 1) {
    const QString from = QString::fromStdString(names.front());
    k.source = QString(text).replace(from, name).toStdString();
  }
  k.name = name.toStdString();
  k.started_from = started_from.toStdString();
  kernel_panel_->set_source(k);
  user_starter_ = {QString("%1 (as you started it)").arg(name), QString::fromStdString(k.source)};
  kernel_panel_->show_message(
      QString("A copy of %1 in the form a kernel you write takes (resources/kernels/%2): change a "
              "line, then Compile or Run.")
          .arg(started_from, starter));
}

void MainWindow::compile_user_kernel(const UserKernelSource& k, bool then_run) {
  const UserCompileShape shape = compile_shape_of(*experiment_);
  run_after_compile_ = then_run;
  kernel_panel_->set_busy(true);
  controller_->compile_user_kernel(k, shape);
}

void MainWindow::user_kernel_compiled(const UserKernelBuild& b) {
  kernel_panel_->set_busy(false);
  const code::UserCode& u = *b.code;
  QString summary;
  if (u.compiled.ok) {
    const auto res = u.entry.resources.find(b.shape.arch);
    summary = QString("compiled %1 for %2 (B=%3 U=%4 %5) in %6 ms")
                  .arg(QString::fromStdString(b.source.name), QString::fromStdString(b.shape.arch))
                  .arg(b.shape.block_size)
                  .arg(b.shape.unroll)
                  .arg(QString::fromStdString(std::string(to_string(b.shape.type))))
                  .arg(u.compiled.compile_ms, 0, 'f', 0);
    if (res != u.entry.resources.end())
      summary += QString(": %1 registers, %2 B shared")
                     .arg(res->second.registers)
                     .arg(u.entry.static_shared(b.shape.arch));
    code_->show_user_entry(u.entry, user_starter_.first, user_starter_.second);
  }
  kernel_panel_->show_compile_result(u.compiled, summary);
  if (!run_after_compile_ || !u.compiled.ok) return;
  run_after_compile_ = false;
  run_with_user_kernel(b.source);
}

void MainWindow::run_with_user_kernel(const UserKernelSource& k) {
  if (running()) return statusBar()->showMessage("A run is in progress (Esc cancels it).", 6000);
  run_experiment([&](ExperimentSpec& spec) {
    std::erase_if(spec.user_kernels, [&](const UserKernelSource& o) { return o.name == k.name; });
    spec.user_kernels.push_back(k);
    if (std::find(spec.variants.begin(), spec.variants.end(), k.name) == spec.variants.end())
      spec.variants.push_back(k.name);
    spec.timing.user_kernel_limit_s = kernel_limit_->value();
  });
}

}  // namespace rl::gui
