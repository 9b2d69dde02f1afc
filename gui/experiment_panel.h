// The experiment form: device, variants (with each one's idea and classic name), workspaces,
// block sizes, unroll factors, sizes, types, timing, presets for the classic ladder's experiments.
// Bad values are refused here, each with its reason (the form's own parsing, then rl::validate for
// the chosen device), and Run stays disabled until the form is clean.
#pragma once

#include <QStringList>
#include <QWidget>

#include <map>
#include <optional>

#include "engine/device/device.h"
#include "engine/experiment/spec.h"
#include "engine/measure/runner.h"
#include "remote/remote_host.h"
#include "run_worker.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QTimer;
class QVBoxLayout;

namespace rl::gui {

class VariantTree;

class ExperimentPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ExperimentPanel(QWidget* parent = nullptr);

  void set_discovery(const Discovery& discovery);
  int device() const;  // kHostDevice or a CUDA ordinal
  void set_device(int device);
  const DeviceInfo* device_info() const;  // null for the host (rl::validate's convention)

  // Devices of machines reached through a launcher (experiment_devices.cpp): listed after this
  // machine's, each named with its machine ("gpu-box · cuda:0 NVIDIA H200 (sm_90)").
  void set_remote_devices(const QString& host, const Discovery& discovery);
  void remove_remote(const QString& host);
  // Where the run goes (device() is its index), and the devices ticked under "Also run on": the
  // same experiment runs there too, in parallel, drawn side by side.
  DeviceTarget target() const;
  void set_target(const DeviceTarget& target);
  QList<DeviceTarget> also_targets() const;
  void set_also(const QList<DeviceTarget>& targets);
  const DeviceInfo* target_info(const DeviceTarget& target) const;  // null for a host backend
  QString target_label(const DeviceTarget& target) const;
  QListWidget* also_list() const { return also_; }

  void set_spec(const ExperimentSpec& spec);
  // The form as a spec; nullopt when a field cannot be read.
  std::optional<ExperimentSpec> spec() const;
  // Every variant ticked means `all` (rl::resolve_all): those that do not apply to the types,
  // workspaces, block sizes and device are left out of spec(), listed here with why.
  std::vector<Exclusion> left_out_by_all() const;
  // Everything wrong with the form now, one message each (empty: ready to run).
  QStringList problems() const { return problems_; }
  // Checks the form now (it does so by itself shortly after every edit).
  void validate_now();
  void apply_preset(int index);

  // Counters, line samples or line counts besides the times (experiment_profiling.cpp): what is
  // ticked, for a GPU target; none for a host backend, which has no hardware to profile.
  RunProfiling profiling() const;
  // Where several are set, the counters win, then the line samples.
  void set_profiling(const RunProfiling& profiling);
  QCheckBox* counters_box() const { return counters_; }
  QCheckBox* line_samples_box() const { return line_samples_; }
  QCheckBox* line_counts_box() const { return line_counts_; }

  void set_running(bool running);
  void show_progress(const Progress& progress);
  void show_status(const QString& text);  // after a run: "40 points in 12 s", "cancelled"

  // For tests and shortcuts.
  QPushButton* run_button() const { return run_; }
  QPushButton* cancel_button() const { return cancel_; }
  QLineEdit* sizes_field() const { return sizes_; }
  QLineEdit* blocks_field() const { return blocks_; }
  QLineEdit* unroll_field() const { return unrolls_; }
  // The matrices of the rows and columns variants (experiment_matrix.cpp): a list of shapes or a
  // sweep of columns (rows) at a total, and which of them `all` runs (rows, columns, both).
  QWidget* matrix_box() const { return matrix_box_; }
  QComboBox* shape_mode_box() const { return shape_mode_; }
  QLineEdit* shapes_field() const { return shapes_; }
  QLineEdit* sweep_field() const { return sweep_values_; }
  QLineEdit* total_field() const { return sweep_total_; }
  QComboBox* reduce_box() const { return reduce_; }
  // What the matrix fields say now: an error naming the field, or the rounding notes of a sweep.
  QString matrix_message() const;

 protected:
  void changeEvent(QEvent* event) override;  // the app's text size: the messages' space follows

 signals:
  void run_requested();
  void cancel_requested();
  void device_changed(int device);
  void preset_applied(const rl::ExperimentSpec& spec);
  void spec_changed();
  void remote_hosts_requested();  // "Remote machines..."

 private:
  void build_presets(QVBoxLayout* layout);
  void build_device(QVBoxLayout* layout);
  void rebuild_devices();  // the device box and the also-list from both discoveries
  void build_workspaces(QFormLayout* axes);
  void build_ranges(QFormLayout* axes);
  void build_types(QFormLayout* axes);
  void build_matrix(QVBoxLayout* layout);
  // The matrix box is shown where a ticked variant sums rows or columns.
  bool wants_matrix() const;
  void update_matrix_box();
  void show_shapes(const ExperimentSpec& spec);
  void check_matrix(QStringList& problems);
  ReduceFilter reduce_filter() const;
  // The shapes the fields give (empty where the box is hidden); false with *error when a field
  // cannot be read. notes: a sweep's rounding.
  bool read_shapes(std::vector<MatrixShape>* out, QString* error, QStringList* notes) const;
  void build_sampling(QFormLayout* axes);
  void build_profiling(QFormLayout* axes);
  // Each box enabled where it can be used, its tooltip saying why not where it cannot.
  void update_profiling();
  void build_messages(QVBoxLayout* layout);
  void fit_messages();
  void build_run_controls(QVBoxLayout* layout);
  void connect_validation();
  void schedule_validation();

  Discovery discovery_;
  std::map<QString, Discovery> remote_;  // by machine name
  QListWidget* also_ = nullptr;
  ExperimentSpec hidden_;  // fields the form does not show (warm-up, sample limits, baseline)
  QComboBox* presets_;
  QLabel* preset_note_;
  QComboBox* device_;
  VariantTree* variants_;
  QCheckBox *ws_global_, *ws_shared_, *ws_registers_;
  QLineEdit *blocks_, *unrolls_, *sizes_;
  QCheckBox *int32_, *float32_;
  QWidget* matrix_box_ = nullptr;
  QComboBox* shape_mode_ = nullptr;  // a list, columns at a total, rows at a total
  QLineEdit *shapes_ = nullptr, *sweep_values_ = nullptr, *sweep_total_ = nullptr;
  QWidget* sweep_row_ = nullptr;
  QLabel* sweep_label_ = nullptr;
  QComboBox* reduce_ = nullptr;
  QLabel* matrix_message_ = nullptr;  // beside the fields: the error, or a sweep's rounding
  QDoubleSpinBox* noise_;
  QSpinBox* budget_;
  QComboBox* l2_;
  QCheckBox *counters_ = nullptr, *line_samples_ = nullptr, *line_counts_ = nullptr;
  // The form's fields as a spec, every ticked variant kept.
  std::optional<ExperimentSpec> form_spec() const;
  std::vector<Exclusion> exclusions_of(const ExperimentSpec& s) const;

  QLabel* problems_label_;
  QLabel* left_out_label_;  // what ticking every variant leaves out here, and why
  QScrollArea* messages_;   // both labels, at a fixed height
  QPushButton *run_, *cancel_;
  QProgressBar* progress_;
  QLabel* progress_label_;
  QTimer* validate_timer_;
  QStringList problems_;
  bool running_ = false;
  bool loading_ = false;  // set_spec in progress: no validation per field
};

}  // namespace rl::gui
