// Where a user writes a reduction kernel: its name (a C identifier, checked as it is typed), the
// file it lives in (Open kernel..., Save, Save as...), the editor, the compiler's messages (click
// one to go to its line) and a status line. The panel compiles and runs nothing itself: Compile
// and Run emit the source, and the caller shows what came of it (show_compile_result,
// show_message). Dialogs go through Dialogs, so tests answer them.
#pragma once

#include <QString>
#include <QWidget>
#include <functional>

#include "engine/user/user_kernel.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace rl::gui {

class KernelEditor;

class KernelEditorPanel : public QWidget {
  Q_OBJECT

 public:
  // The questions the panel asks a person. Each defaults to a dialog over the panel.
  struct Dialogs {
    std::function<QString()> open_path;                   // the .cu to open, "" to cancel
    std::function<QString(const QString&)> save_path;     // from a suggested path; "" cancels
    std::function<bool(const QString&)> discard_changes;  // the question; true: discard
    std::function<void(const QString&)> error;            // a file could not be read or written
  };

  explicit KernelEditorPanel(QWidget* parent = nullptr);

  void set_dialogs(Dialogs dialogs);

  // The kernel as written now: the name field, the editor's text, the file it was last read
  // from or saved to, and the built-in variant it started from.
  rl::UserKernelSource source() const;
  // "" when the name field holds a usable kernel name, else what is wrong with it, naming the
  // field.
  QString name_problem() const;
  bool is_modified() const;
  QString file_path() const { return path_; }
  // "reduceMine.cu" or "reduceMine (not saved)", with "*" while there are unsaved edits.
  QString title() const;

  // Asks before unsaved edits would be lost (Dialogs::discard_changes); true: go ahead.
  bool maybe_discard_changes();
  // Reads a kernel file: refused (Dialogs::error, false) over rl::kMaxUserKernelBytes, when not
  // UTF-8 or unreadable. Sets the name from the file's only extern "C" __global__ function.
  bool open_file(const QString& path);
  // Writes the editor's text to path atomically (QSaveFile) and remembers path.
  bool save_to(const QString& path);
  QString last_error() const { return last_error_; }

  KernelEditor* editor() const { return editor_; }
  QListWidget* diagnostics_list() const { return diagnostics_; }
  QLineEdit* name_edit() const { return name_; }
  QPushButton* compile_button() const { return compile_; }
  QPushButton* run_button() const { return run_; }
  QString status_text() const;
  QString name_message_text() const;

 public slots:
  // Replaces what the panel shows (no question asked: call maybe_discard_changes first).
  void set_source(const rl::UserKernelSource& kernel);
  // The compiler's messages at their lines and in the list; the status line says whether it
  // compiled and then `summary` (the caller's numbers: time, registers, shared memory).
  void show_compile_result(const rl::CompileResult& result, const QString& summary);
  void show_message(const QString& message);
  // While the caller compiles or runs: Compile and Run wait.
  void set_busy(bool busy);

  void open_kernel();  // asks, then open_file
  bool save();         // to the remembered file, or Save as... when there is none
  bool save_as();

 signals:
  void compile_requested(const rl::UserKernelSource& kernel);
  void run_requested(const rl::UserKernelSource& kernel);
  void title_changed(const QString& title);

 protected:
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void build_ui();
  void connect_ui();
  void update_name_state();
  void update_title();
  void fill_diagnostics(const std::vector<rl::CompileDiagnostic>& diagnostics);
  void fit_diagnostics_height();
  void go_to_diagnostic(QListWidgetItem* item);
  void fail(const QString& message);
  void set_status(const QString& text, const QString& colour);

  Dialogs dialogs_;
  KernelEditor* editor_ = nullptr;
  QLineEdit* name_ = nullptr;
  QLabel* name_message_ = nullptr;
  QLabel* file_label_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* save_ = nullptr;
  QPushButton* save_as_ = nullptr;
  QPushButton* compile_ = nullptr;
  QPushButton* run_ = nullptr;
  QListWidget* diagnostics_ = nullptr;
  QLabel* status_ = nullptr;
  QString path_;
  std::string started_from_;
  QString last_error_;
  bool busy_ = false;
};

}  // namespace rl::gui
