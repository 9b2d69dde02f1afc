// The "Several GPUs" tab's run form: which GPUs, sizes, exchanges and local kernel, in the CLI's
// grammar (engine/experiment/multi_spec.h: "all", "2" or "cuda:0,cuda:1"; "2^28,2^30"; "all" or
// "nccl_allreduce,peer_partials"; a variant name), each field's problem said naming it, and the
// spec checked against the GPUs found (rl::validate) before a run is asked for. Run, Cancel and
// Save session; a status line.
#pragma once

#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

#include "engine/device/device.h"
#include "engine/experiment/multi_spec.h"

class QLabel;
class QLineEdit;
class QPushButton;

namespace rl::gui {

class MultiRunForm : public QWidget {
  Q_OBJECT
 public:
  explicit MultiRunForm(QWidget* parent = nullptr);
  // The GPUs a run may use; none: Run is off and the status says why.
  void set_gpus(const std::vector<DeviceInfo>& gpus, const QString& no_gpu_reason);
  // The spec the fields say, or std::nullopt with every problem, one line each, naming its field.
  std::optional<MultiSpec> spec(QStringList* problems) const;
  void set_running(bool running);
  // Cancel was pressed: progress lines say so until the run ends.
  void set_cancelling() { cancelling_ = true; }
  bool cancelling() const { return cancelling_; }
  void set_can_save(bool can);
  void set_status(const QString& text, bool error = false);
  QString status() const;

  QLineEdit* gpus_field() const { return gpus_; }
  QLineEdit* sizes_field() const { return sizes_; }
  QLineEdit* exchanges_field() const { return exchanges_; }
  QLineEdit* variant_field() const { return variant_; }
  QPushButton* run_button() const { return run_; }
  QPushButton* cancel_button() const { return cancel_; }
  QPushButton* save_button() const { return save_; }

 signals:
  void run_requested(const rl::MultiSpec& spec);
  void cancel_requested();
  void save_requested();

 private:
  void ask_to_run();
  std::vector<DeviceInfo> gpus_found_;
  QString no_gpu_reason_;
  bool running_ = false, cancelling_ = false;
  QLineEdit *gpus_, *sizes_, *exchanges_, *variant_;
  QPushButton *run_, *cancel_, *save_;
  QLabel* status_;
};

}  // namespace rl::gui
