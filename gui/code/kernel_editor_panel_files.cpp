// The kernel panel's files: the .cu the user owns, read with the panel's own checks (size, UTF-8)
// and written atomically, and the questions before unsaved edits are lost.
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QSaveFile>
#include <QStringDecoder>

#include "code/kernel_editor.h"
#include "code/kernel_editor_panel.h"

namespace rl::gui {

namespace {

const char* const kFileFilter = "CUDA kernels (*.cu *.cuh);;All files (*)";

}  // namespace

void KernelEditorPanel::set_dialogs(Dialogs dialogs) {
  if (!dialogs.open_path)
    dialogs.open_path = [this] {
      return QFileDialog::getOpenFileName(this, tr("Open kernel"), QString(), tr(kFileFilter));
    };
  if (!dialogs.save_path)
    dialogs.save_path = [this](const QString& suggested) {
      QString path =
          QFileDialog::getSaveFileName(this, tr("Save kernel as"), suggested, tr(kFileFilter));
      if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += ".cu";
      return path;
    };
  if (!dialogs.discard_changes)
    dialogs.discard_changes = [this](const QString& question) {
      return QMessageBox::question(this, tr("Unsaved kernel"), question,
                                   QMessageBox::Discard | QMessageBox::Cancel,
                                   QMessageBox::Cancel) == QMessageBox::Discard;
    };
  if (!dialogs.error)
    dialogs.error = [this](const QString& message) {
      QMessageBox::warning(this, tr("Kernel file"), message);
    };
  dialogs_ = std::move(dialogs);
}

bool KernelEditorPanel::maybe_discard_changes() {
  if (!is_modified()) return true;
  QString name = title();
  name.chop(1);  // the "*"
  return dialogs_.discard_changes(tr("%1 has edits that are not saved. Discard them?").arg(name));
}

void KernelEditorPanel::open_kernel() {
  if (!maybe_discard_changes()) return;
  const QString path = dialogs_.open_path();
  if (!path.isEmpty()) open_file(path);
}

bool KernelEditorPanel::open_file(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    fail(tr("Cannot open %1: %2").arg(path, file.errorString()));
    return false;
  }
  // One byte past the limit is enough to know the file is too large (size() is 0 for a pipe).
  const QByteArray bytes = file.read(static_cast<qint64>(rl::kMaxUserKernelBytes) + 1);
  if (bytes.size() > static_cast<qsizetype>(rl::kMaxUserKernelBytes)) {
    fail(tr("%1 is larger than %2 KB, the limit for a kernel file (a ladder kernel is about 2 KB)")
             .arg(path)
             .arg(rl::kMaxUserKernelBytes / 1024));
    return false;
  }
  QStringDecoder utf8(QStringDecoder::Utf8);
  const QString text = utf8.decode(bytes);
  if (utf8.hasError()) {
    fail(tr("%1 is not UTF-8 text: save it as UTF-8 and open it again").arg(path));
    return false;
  }
  rl::UserKernelSource kernel = source();
  kernel.source = text.toStdString();
  kernel.file = QFileInfo(path).absoluteFilePath().toStdString();
  kernel.started_from.clear();
  // The file's only extern "C" __global__ function names it; the contract is checked on Compile.
  const std::vector<std::string> names = rl::user_kernel_names(kernel.source);
  if (names.size() == 1) kernel.name = names.front();
  set_source(kernel);
  show_message(tr("Opened %1").arg(QString::fromStdString(kernel.file)));
  return true;
}

bool KernelEditorPanel::save_to(const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    fail(tr("Cannot write %1: %2").arg(path, file.errorString()));
    return false;
  }
  file.write(editor_->toPlainText().toUtf8());
  if (!file.commit()) {
    fail(tr("Cannot write %1: %2").arg(path, file.errorString()));
    return false;
  }
  path_ = QFileInfo(path).absoluteFilePath();
  editor_->document()->setModified(false);
  update_title();
  show_message(tr("Saved %1").arg(path_));
  return true;
}

bool KernelEditorPanel::save() {
  return path_.isEmpty() ? save_as() : save_to(path_);
}

bool KernelEditorPanel::save_as() {
  const QString name = name_->text().trimmed();
  const QString suggested = !path_.isEmpty() ? path_ : (name.isEmpty() ? "kernel" : name) + ".cu";
  const QString path = dialogs_.save_path(suggested);
  return !path.isEmpty() && save_to(path);
}

void KernelEditorPanel::fail(const QString& message) {
  last_error_ = message;
  dialogs_.error(message);
}

}  // namespace rl::gui
