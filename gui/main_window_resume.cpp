// Resuming a run the app did not finish (a crash, a kill, the window closed mid-run): every run
// writes checkpoint.json after each point (run_worker.cpp); at start a checkpoint that is still
// there is offered in a bar, never a blocking dialog: Resume runs the missing points on the same
// device (engine/io/resume.h), Open as it is shows the finished ones, Discard removes it. A
// damaged one is moved aside and said so.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>

#include "engine/experiment/presets.h"
#include "engine/io/resume.h"
#include "experiment_panel.h"
#include "main_window.h"
#include "run_worker.h"
#include "session_files.h"
#include "session_store.h"

namespace rl::gui {

namespace {

QString checkpoint_dir(const MainWindow::Options& o) {
  if (!o.checkpoint_dir.isEmpty()) return o.checkpoint_dir;
  if (!o.settings) return {};
  const QByteArray env = qgetenv("REDUCTIONLAB_CHECKPOINT_DIR");
  if (!env.isEmpty()) return QString::fromLocal8Bit(env);
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

// "ladder preset on NVIDIA H200: 37 of 92 points, interrupted 2026-11-30 18:02"
QString describe(const Session& s, const QDateTime& when) {
  const int preset = preset_index_of(s.spec);
  const QString what = preset >= 0
                           ? QString::fromStdString(presets()[size_t(preset)].id) + " preset"
                           : QString("An experiment of %1 variant(s)").arg(s.spec.variants.size());
  size_t total = 0;
  try {
    total = expand(s.spec).size();
  } catch (const std::exception&) {
    total = s.results.size();
  }
  return QString("%1 on %2: %3 of %4 points, interrupted %5")
      .arg(what, QString::fromStdString(s.device.name))
      .arg(s.results.size())
      .arg(total)
      .arg(when.toString("yyyy-MM-dd HH:mm"));
}

}  // namespace

QWidget* MainWindow::build_resume_bar() {
  resume_bar_ = new QFrame;
  static_cast<QFrame*>(resume_bar_)->setFrameShape(QFrame::StyledPanel);
  resume_bar_->setStyleSheet("QFrame { background: #fff4d6; }");
  auto* row = new QHBoxLayout(resume_bar_);
  row->setContentsMargins(8, 4, 8, 4);
  resume_text_ = new QLabel;
  resume_text_->setWordWrap(true);
  row->addWidget(resume_text_, 1);
  auto* resume = new QPushButton("Resume");
  auto* open = new QPushButton("Open as it is");
  auto* discard = new QPushButton("Discard");
  resume->setToolTip("Run the missing points on the same device; the finished ones are kept");
  open->setToolTip("Show the finished points without running anything");
  row->addWidget(resume);
  row->addWidget(open);
  row->addWidget(discard);
  resume_button_ = resume;
  open_button_ = open;
  discard_button_ = discard;
  connect(resume, &QPushButton::clicked, this, [this] { resume_checkpoint(); });
  connect(open, &QPushButton::clicked, this, [this] { open_checkpoint(); });
  connect(discard, &QPushButton::clicked, this, [this] { discard_checkpoint(); });
  connect(controller_, &RunController::checkpoint_failed, this, [this](const QString& m) {
    statusBar()->showMessage("No checkpoint for this run: " + m, 10000);
  });
  resume_bar_->hide();
  return resume_bar_;
}

QString MainWindow::checkpoint_path() const {
  return controller_->checkpoint_path();
}

QString MainWindow::resume_offer() const {
  return resume_bar_->isHidden() ? QString() : resume_text_->text();
}

void MainWindow::offer_checkpoint() {
  const QString dir = checkpoint_dir(options_);
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  const QString path = QDir(dir).filePath("checkpoint.json");
  controller_->set_checkpoint_path(path);
  if (!QFile::exists(path)) return;
  const QDateTime when = QFileInfo(path).lastModified();
  QString error;
  std::optional<Session> s = read_session_file(path, &error);
  if (!s) {  // moved aside, so that it is neither lost nor offered again
    const QString aside =
        path + ".damaged-" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss");
    const bool moved = QFile::rename(path, aside);
    last_error_ = "The checkpoint of an unfinished run cannot be read: " + error +
                  (moved ? "; moved aside to " + aside : "; it could not be moved aside");
    emit error_reported(last_error_);
    resume_text_->setText(last_error_);
    resume_button_->hide();
    open_button_->hide();
    static_cast<QPushButton*>(discard_button_)->setText("Dismiss");
    resume_bar_->show();
    return;
  }
  checkpoint_ = std::move(*s);
  resume_text_->setText("A run did not finish: " + describe(*checkpoint_, when) + ".");
  resume_button_->show();
  open_button_->show();
  static_cast<QPushButton*>(discard_button_)->setText("Discard");
  resume_bar_->show();
}

bool MainWindow::resume_checkpoint() {
  if (!checkpoint_ || controller_->running()) return false;
  // A copy: start_run() drops checkpoint_, and the spec must outlive it.
  const Session saved = *checkpoint_;
  int device = kHostDevice;
  DeviceInfo info = saved.device;
  QString problem;
  if (saved.device.backend == "host") {
    if (discovery_) {
      problem = QString::fromStdString(resume_mismatch(saved, discovery_->host));
      info = discovery_->host;
    }
  } else if (!discovery_) {
    problem = options_.discover ? "the GPUs are still being looked for; try again in a moment"
                                : "no GPU is known to this window";
  } else {
    problem = "no " + QString::fromStdString(saved.device.name) + " here";
    for (const DeviceInfo& gpu : discovery_->gpus) {
      const std::string why = resume_mismatch(saved, gpu);
      if (!why.empty()) {
        problem = QString::fromStdString(why);
        continue;
      }
      device = gpu.index;
      info = gpu;
      problem.clear();
      if (gpu.index == saved.device.index) break;
    }
  }
  if (!problem.isEmpty()) {
    resume_text_->setText("Cannot resume: " + problem +
                          ". Open as it is shows the finished points.");
    resume_button_->setEnabled(false);
    return false;
  }
  experiment_->set_spec(saved.spec);
  experiment_->set_device(device);
  if (!saved.spec.baseline.empty()) store_->set_baseline(saved.spec.baseline);
  start_run(saved.spec, device, info, saved);
  return true;
}

bool MainWindow::open_checkpoint() {
  if (!checkpoint_) return false;
  // The file stays until a run replaces it or Discard: the shown session is not saved yet.
  store_->set_primary(*checkpoint_, controller_->checkpoint_path());
  resume_bar_->hide();
  checkpoint_.reset();
  statusBar()->showMessage("Showing the unfinished run's points; Ctrl+S saves them.", 10000);
  return true;
}

void MainWindow::discard_checkpoint() {
  resume_bar_->hide();
  if (checkpoint_ && !controller_->running()) QFile::remove(controller_->checkpoint_path());
  checkpoint_.reset();
}

}  // namespace rl::gui
