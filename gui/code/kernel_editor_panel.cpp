// The panel's layout, the name check, and what a compile gave (kernel_editor_panel_files.cpp has
// the files and the questions).
#include "code/kernel_editor_panel.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

#include "code/kernel_editor.h"
#include "wrap_row.h"

namespace rl::gui {

namespace {

const char* const kOkColour = "#1b5e20";
const char* const kFailColour = "#b00020";
const char* const kPlainColour = "#1f2328";

bool is_error(const rl::CompileDiagnostic& d) {
  return QString::fromStdString(d.severity).contains("error");
}

// "1 error", "2 warnings".
QString count_of(long n, const QString& what) {
  return QString("%1 %2%3").arg(n).arg(what, n == 1 ? "" : "s");
}

QIcon mark_icon(KernelEditor::LineMark mark, const QFont& font) {
  const int size = 16;
  QPixmap pixmap(size, size);
  pixmap.fill(Qt::transparent);
  QPainter p(&pixmap);
  KernelEditor::paint_marker(p, mark, QRectF(1, 1, size - 2, size - 2), font);
  return QIcon(pixmap);
}

}  // namespace

KernelEditorPanel::KernelEditorPanel(QWidget* parent) : QWidget(parent) {
  build_ui();
  connect_ui();
  set_dialogs({});
  update_name_state();
  update_title();
}

void KernelEditorPanel::build_ui() {
  file_label_ = new QLabel;
  file_label_->setTextFormat(Qt::PlainText);
  QFont bold = file_label_->font();
  bold.setBold(true);
  file_label_->setFont(bold);
  open_ = new QPushButton(tr("Open kernel…"));
  save_ = new QPushButton(tr("Save"));
  save_as_ = new QPushButton(tr("Save as…"));
  // The file's name, then its buttons: on two lines where the dock is narrow (beside the
  // experiment form on a 1024-pixel screen), so a long name never widens the window.
  auto* file_row = new WrapRow;
  file_row->add_part(1)->addWidget(file_label_);
  QHBoxLayout* file_buttons = file_row->add_part();
  for (QPushButton* b : {open_, save_, save_as_}) file_buttons->addWidget(b);

  name_ = new QLineEdit;
  name_->setPlaceholderText(tr("the kernel's function name"));
  name_->setMinimumWidth(name_->fontMetrics().horizontalAdvance("reduceUnrollWarps8x") + 16);
  auto* name_label = new QLabel(tr("&Name"));
  name_label->setBuddy(name_);
  compile_ = new QPushButton(tr("Compile"));
  run_ = new QPushButton(tr("Run"));
  auto* name_row = new QHBoxLayout;
  name_row->addWidget(name_label);
  name_row->addWidget(name_, 1);
  name_row->addSpacing(12);
  name_row->addWidget(compile_);
  name_row->addWidget(run_);
  name_message_ = new QLabel;
  name_message_->setTextFormat(Qt::PlainText);
  name_message_->setWordWrap(true);
  name_message_->setStyleSheet(QString("color: %1;").arg(kFailColour));
  name_message_->hide();

  editor_ = new KernelEditor;
  status_ = new QLabel;
  status_->setTextFormat(Qt::PlainText);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  diagnostics_ = new QListWidget;
  diagnostics_->setWordWrap(true);
  diagnostics_->setUniformItemSizes(false);
  diagnostics_->setResizeMode(QListView::Adjust);
  diagnostics_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  diagnostics_->installEventFilter(this);
  diagnostics_->hide();

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(file_row);
  layout->addLayout(name_row);
  layout->addWidget(name_message_);
  layout->addWidget(editor_, 1);
  layout->addWidget(status_);
  layout->addWidget(diagnostics_);
}

void KernelEditorPanel::connect_ui() {
  connect(name_, &QLineEdit::textChanged, this, [this] {
    update_name_state();
    update_title();
  });
  connect(editor_->document(), &QTextDocument::modificationChanged, this,
          [this] { update_title(); });
  connect(open_, &QPushButton::clicked, this, &KernelEditorPanel::open_kernel);
  connect(save_, &QPushButton::clicked, this, [this] { save(); });
  connect(save_as_, &QPushButton::clicked, this, [this] { save_as(); });
  connect(compile_, &QPushButton::clicked, this, [this] {
    if (name_problem().isEmpty() && !busy_) emit compile_requested(source());
  });
  connect(run_, &QPushButton::clicked, this, [this] {
    if (name_problem().isEmpty() && !busy_) emit run_requested(source());
  });
  connect(diagnostics_, &QListWidget::itemClicked, this, &KernelEditorPanel::go_to_diagnostic);
  connect(diagnostics_, &QListWidget::itemActivated, this, &KernelEditorPanel::go_to_diagnostic);
}

rl::UserKernelSource KernelEditorPanel::source() const {
  rl::UserKernelSource k;
  k.name = name_->text().trimmed().toStdString();
  k.source = editor_->toPlainText().toStdString();
  k.file = path_.toStdString();
  k.started_from = started_from_;
  return k;
}

QString KernelEditorPanel::name_problem() const {
  // The engine's rule, the one the compiler's contract check applies.
  return QString::fromStdString(
      rl::user_kernel_name_problem(name_->text().trimmed().toStdString()));
}

void KernelEditorPanel::update_name_state() {
  const QString problem = name_problem();
  name_message_->setText(problem);
  name_message_->setVisible(!problem.isEmpty());
  // The field is outlined only when something was typed: an empty form is not an error yet.
  const bool flagged = !problem.isEmpty() && !name_->text().isEmpty();
  name_->setStyleSheet(flagged ? QString("QLineEdit { border: 2px solid %1; }").arg(kFailColour)
                               : QString());
  for (QPushButton* b : {compile_, run_}) {
    b->setEnabled(problem.isEmpty() && !busy_);
    b->setToolTip(problem.isEmpty() ? QString() : problem);
  }
}

void KernelEditorPanel::set_busy(bool busy) {
  busy_ = busy;
  update_name_state();
}

bool KernelEditorPanel::is_modified() const {
  return editor_->document()->isModified();
}

QString KernelEditorPanel::title() const {
  QString t;
  if (!path_.isEmpty())
    t = QFileInfo(path_).fileName();
  else
    t = (name_->text().trimmed().isEmpty() ? tr("New kernel") : name_->text().trimmed()) +
        tr(" (not saved)");
  return is_modified() ? t + "*" : t;
}

void KernelEditorPanel::update_title() {
  const QString t = title();
  file_label_->setText(t);
  file_label_->setToolTip(path_);
  setWindowTitle(t);
  emit title_changed(t);
}

void KernelEditorPanel::set_source(const rl::UserKernelSource& kernel) {
  path_ = QString::fromStdString(kernel.file);
  started_from_ = kernel.started_from;
  name_->setText(QString::fromStdString(kernel.name));
  editor_->clear_diagnostics();
  editor_->setPlainText(QString::fromStdString(kernel.source));
  editor_->document()->setModified(false);
  fill_diagnostics({});
  set_status({}, kPlainColour);
  update_title();
}

void KernelEditorPanel::show_compile_result(const rl::CompileResult& result,
                                            const QString& summary) {
  editor_->set_diagnostics(result.diagnostics);
  fill_diagnostics(result.diagnostics);
  if (!result.unavailable.empty()) {
    set_status(
        tr("Cannot compile on this machine: %1").arg(QString::fromStdString(result.unavailable)),
        kFailColour);
    return;
  }
  const auto errors = std::count_if(result.diagnostics.begin(), result.diagnostics.end(), is_error);
  const auto warnings = static_cast<long>(result.diagnostics.size()) - errors;
  const QString counts = count_of(errors, "error") + ", " + count_of(warnings, "warning");
  if (result.ok) {
    QString text = summary.isEmpty() ? tr("Compiled") : summary;
    if (warnings > 0) text += " (" + count_of(warnings, "warning") + ")";
    set_status(text, kOkColour);
  } else {
    set_status(tr("Did not compile: %1").arg(counts) + (summary.isEmpty() ? "" : ". " + summary),
               kFailColour);
  }
}

void KernelEditorPanel::show_message(const QString& message) {
  set_status(message, kPlainColour);
}

QString KernelEditorPanel::status_text() const {
  return status_->text();
}

QString KernelEditorPanel::name_message_text() const {
  return name_message_->isHidden() ? QString() : name_message_->text();
}

void KernelEditorPanel::set_status(const QString& text, const QString& colour) {
  status_->setText(text);
  status_->setStyleSheet(QString("color: %1;").arg(colour));
  status_->setVisible(!text.isEmpty());
}

void KernelEditorPanel::fill_diagnostics(const std::vector<rl::CompileDiagnostic>& diagnostics) {
  diagnostics_->clear();
  for (int i = 0; i < static_cast<int>(diagnostics.size()); ++i) {
    const rl::CompileDiagnostic& d = diagnostics[i];
    const QString where = d.line > 0 ? tr("line %1: ").arg(d.line) : QString();
    auto* item = new QListWidgetItem(where + QString::fromStdString(d.severity) + ": " +
                                     QString::fromStdString(d.message));
    const auto mark = is_error(d) ? KernelEditor::LineMark::Error : KernelEditor::LineMark::Warning;
    item->setIcon(mark_icon(mark, font()));
    item->setForeground(mark == KernelEditor::LineMark::Error ? QColor(kFailColour)
                                                              : QColor("#7a4a00"));
    item->setData(Qt::UserRole, i);
    item->setToolTip(d.line > 0 ? tr("Click to go to line %1").arg(d.line) : QString());
    diagnostics_->addItem(item);
  }
  diagnostics_->setVisible(!diagnostics.empty());
  fit_diagnostics_height();
}

// Up to five messages show at once, each wrapped to the list's width; more scroll.
void KernelEditorPanel::fit_diagnostics_height() {
  if (diagnostics_->count() == 0) return;
  diagnostics_->doItemsLayout();
  int height = 0;
  for (int row = 0; row < std::min(5, diagnostics_->count()); ++row)
    height += diagnostics_->visualItemRect(diagnostics_->item(row)).height();
  diagnostics_->setFixedHeight(height + 2 * diagnostics_->frameWidth() + 2);
}

bool KernelEditorPanel::eventFilter(QObject* watched, QEvent* event) {
  // The list's own width, once the layout has given it: what its messages wrap to.
  if (watched == diagnostics_ && event->type() == QEvent::Resize) fit_diagnostics_height();
  return QWidget::eventFilter(watched, event);
}

void KernelEditorPanel::go_to_diagnostic(QListWidgetItem* item) {
  const int index = item->data(Qt::UserRole).toInt();
  const int line = editor_->diagnostic_line(index);
  if (line > 0) editor_->go_to_line(line, editor_->diagnostics()[index].column);
}

void KernelEditorPanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) editor_->set_code_point_size(font().pointSizeF());
}

}  // namespace rl::gui
