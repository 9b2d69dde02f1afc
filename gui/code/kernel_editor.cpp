#include "code/kernel_editor.h"

#include <QApplication>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextBlock>
#include <QToolTip>
#include <algorithm>

#include "code/kernel_highlighter.h"
#include "code_highlighters.h"

namespace rl::gui {

// The strip left of the text: line numbers, and a marker where the compiler said something.
class KernelEditorGutter : public QWidget {
 public:
  explicit KernelEditorGutter(KernelEditor* editor) : QWidget(editor), editor_(editor) {}
  QSize sizeHint() const override { return {editor_->gutter_width(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { editor_->paint_gutter(event); }
  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(event);
      if (!editor_->show_line_tooltip(editor_->line_at_y(help->pos().y()), help->globalPos()))
        QToolTip::hideText();
      return true;
    }
    return QWidget::event(event);
  }

 private:
  KernelEditor* editor_;
};

namespace {

const QColor kGutterBackground("#eef0f3");
const QColor kLineNumber("#57606a");  // 6:1 on the gutter: readable from the back of a room
const QColor kCurrentLineNumber("#1f2328");
const QColor kCurrentLine("#e6eefc");

bool is_error(const rl::CompileDiagnostic& d) {
  return QString::fromStdString(d.severity).contains("error");  // "error", "catastrophic error"
}

}  // namespace

KernelEditor::KernelEditor(QWidget* parent) : QPlainTextEdit(parent) {
  gutter_ = new KernelEditorGutter(this);
  highlighter_ = new KernelHighlighter(document());
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTabChangesFocus(false);
  set_code_point_size(QApplication::font().pointSizeF());
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { update_gutter_width(); });
  connect(this, &QPlainTextEdit::updateRequest, this, &KernelEditor::update_gutter);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this,
          &KernelEditor::update_line_backgrounds);
  connect(document(), &QTextDocument::contentsChanged, this,
          &KernelEditor::update_line_backgrounds);
  update_gutter_width();
  update_line_backgrounds();
}

void KernelEditor::set_code_point_size(double point_size) {
  const QFont mono = code_font(point_size > 0 ? point_size : 10);
  setFont(mono);
  gutter_->setFont(mono);
  setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(' ') * 4);
  update_gutter_width();
}

void KernelEditor::set_diagnostics(std::vector<rl::CompileDiagnostic> diagnostics) {
  diagnostics_ = std::move(diagnostics);
  anchors_.clear();
  for (const rl::CompileDiagnostic& d : diagnostics_) {
    const QTextBlock block = document()->findBlockByNumber(d.line - 1);
    anchors_.push_back(d.line > 0 && block.isValid() ? QTextCursor(block) : QTextCursor());
  }
  update_line_backgrounds();
  gutter_->update();
}

int KernelEditor::diagnostic_line(int index) const {
  if (index < 0 || index >= static_cast<int>(anchors_.size()) || anchors_[index].isNull()) return 0;
  return anchors_[index].blockNumber() + 1;
}

KernelEditor::LineMark KernelEditor::mark_at_line(int line) const {
  LineMark mark = LineMark::None;
  for (int i = 0; i < static_cast<int>(diagnostics_.size()); ++i) {
    if (line <= 0 || diagnostic_line(i) != line) continue;
    if (is_error(diagnostics_[i])) return LineMark::Error;
    mark = LineMark::Warning;
  }
  return mark;
}

QStringList KernelEditor::messages_at_line(int line) const {
  QStringList out;
  for (int i = 0; i < static_cast<int>(diagnostics_.size()); ++i)
    if (line > 0 && diagnostic_line(i) == line)
      out << QString::fromStdString(diagnostics_[i].severity + ": " + diagnostics_[i].message);
  return out;
}

void KernelEditor::go_to_line(int line, int column) {
  const int clamped = std::clamp(line, 1, std::max(1, blockCount()));
  const QTextBlock block = document()->findBlockByNumber(clamped - 1);
  QTextCursor c(block);
  c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                 std::clamp(column - 1, 0, block.length() - 1));
  setTextCursor(c);
  centerCursor();
  setFocus(Qt::OtherFocusReason);
}

QColor KernelEditor::line_background(LineMark mark) {
  switch (mark) {
    case LineMark::Error:
      return QColor("#ffc8c8");
    case LineMark::Warning:
      return QColor("#ffe190");
    case LineMark::None:
      break;
  }
  return QColor();
}

QColor KernelEditor::marker_color(LineMark mark) {
  switch (mark) {
    case LineMark::Error:
      return QColor("#c62828");
    case LineMark::Warning:
      return QColor("#b86e00");
    case LineMark::None:
      break;
  }
  return QColor();
}

void KernelEditor::paint_marker(QPainter& p, LineMark mark, const QRectF& box, const QFont& font) {
  if (mark == LineMark::None) return;
  QPainterPath shape;
  if (mark == LineMark::Error) {
    shape.addEllipse(box);
  } else {
    shape.moveTo(box.center().x(), box.top());
    shape.lineTo(box.bottomRight());
    shape.lineTo(box.bottomLeft());
    shape.closeSubpath();
  }
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.fillPath(shape, marker_color(mark));
  QFont bang = font;
  bang.setBold(true);
  bang.setPixelSize(std::max(6, qRound(box.height() * 0.8)));
  p.setFont(bang);
  p.setPen(Qt::white);
  // The triangle's "!" sits lower, where the triangle is wide enough for it.
  const double drop = mark == LineMark::Warning ? box.height() * 0.14 : 0;
  p.drawText(box.translated(0, drop), Qt::AlignCenter, "!");
  p.restore();
}

int KernelEditor::gutter_width() const {
  int digits = 1;
  for (int max = std::max(1, blockCount()); max >= 10; max /= 10) ++digits;
  const QFontMetrics fm(gutter_->font());
  const int marker = fm.height();
  return marker + fm.horizontalAdvance(QLatin1Char('9')) * std::max(3, digits) + 12;
}

void KernelEditor::update_gutter_width() {
  setViewportMargins(gutter_width(), 0, 0, 0);
  const QRect r = contentsRect();
  gutter_->setGeometry(QRect(r.left(), r.top(), gutter_width(), r.height()));
}

void KernelEditor::update_gutter(const QRect& rect, int dy) {
  if (dy != 0)
    gutter_->scroll(0, dy);
  else
    gutter_->update(0, rect.y(), gutter_->width(), rect.height());
  if (rect.contains(viewport()->rect())) update_gutter_width();
}

void KernelEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  update_gutter_width();
}

void KernelEditor::update_line_backgrounds() {
  QList<QTextEdit::ExtraSelection> selections;
  const int current = current_line();
  auto add = [&](int line, QColor background) {
    QTextEdit::ExtraSelection s;
    s.format.setBackground(background);
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.cursor = QTextCursor(document()->findBlockByNumber(line - 1));
    selections << s;
  };
  bool current_marked = false;
  for (int line = 1; line <= blockCount(); ++line) {
    const LineMark mark = mark_at_line(line);
    if (mark == LineMark::None) continue;
    current_marked |= line == current;
    add(line, line == current ? line_background(mark).darker(108) : line_background(mark));
  }
  if (!current_marked && !isReadOnly()) add(current, kCurrentLine);
  setExtraSelections(selections);
  gutter_->update();
}

int KernelEditor::line_at_y(int y) const {
  for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
    const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    if (y < r.top()) return 0;
    if (y < r.bottom()) return block.blockNumber() + 1;
  }
  return 0;
}

bool KernelEditor::show_line_tooltip(int line, const QPoint& global_pos) {
  const QStringList messages = messages_at_line(line);
  if (messages.isEmpty()) return false;
  QStringList escaped;
  for (const QString& m : messages) escaped << m.toHtmlEscaped();
  QToolTip::showText(global_pos, "<qt>" + escaped.join("<br>") + "</qt>", this);
  return true;
}

bool KernelEditor::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (!show_line_tooltip(line_at_y(help->pos().y()), help->globalPos())) QToolTip::hideText();
    return true;
  }
  return QPlainTextEdit::viewportEvent(event);
}

void KernelEditor::paint_gutter(QPaintEvent* event) {
  QPainter p(gutter_);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(event->rect(), kGutterBackground);
  const QFontMetrics fm(gutter_->font());
  const int current = current_line();
  QTextBlock block = firstVisibleBlock();
  for (; block.isValid(); block = block.next()) {
    const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    if (r.top() > event->rect().bottom()) break;
    if (!block.isVisible() || r.bottom() < event->rect().top()) continue;
    const int line = block.blockNumber() + 1;
    const QRect row(0, qRound(r.top()), gutter_->width(), qRound(r.height()));
    const LineMark mark = mark_at_line(line);
    if (mark != LineMark::None) {
      p.fillRect(row, line_background(mark));
      const double d = std::min(row.height(), fm.height()) * 0.72;
      paint_marker(p, mark, QRectF(4, row.top() + (row.height() - d) / 2, d, d), gutter_->font());
    }
    QFont number = gutter_->font();
    number.setBold(line == current);
    p.setFont(number);
    p.setPen(line == current ? kCurrentLineNumber : kLineNumber);
    p.drawText(row.adjusted(0, 0, -6, 0), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
  }
}

// Qt delivers the app's text size (Ctrl+= / Ctrl+-, the presentation's zoom) to event() as
// ApplicationFontChange, not to changeEvent(); the editor's own font is explicit, so it would
// not follow otherwise.
bool KernelEditor::event(QEvent* event) {
  const bool handled = QPlainTextEdit::event(event);
  if (event->type() == QEvent::ApplicationFontChange)
    set_code_point_size(QApplication::font().pointSizeF());
  return handled;
}

}  // namespace rl::gui
