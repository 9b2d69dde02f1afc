#include "code_diff_view.h"

#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>

namespace rl::gui {

namespace {

QPlainTextEdit* side() {
  auto* t = new QPlainTextEdit;
  t->setReadOnly(true);
  t->setLineWrapMode(QPlainTextEdit::NoWrap);
  return t;
}

// "  12  text" with the 1-based line number, or a blank row where the side has no line.
QString numbered(int line, const std::string& text) {
  return line < 0 ? QString() : QString("%1  ").arg(line + 1, 4) + QString::fromStdString(text);
}

void mark(QPlainTextEdit* page, int row, const QColor& color,
          QList<QTextEdit::ExtraSelection>& marks) {
  QTextEdit::ExtraSelection s;
  s.cursor = QTextCursor(page->document()->findBlockByNumber(row));
  s.format.setBackground(color);
  s.format.setProperty(QTextFormat::FullWidthSelection, true);
  marks << s;
}

}  // namespace

SideBySideDiff::SideBySideDiff(QWidget* parent) : QWidget(parent) {
  old_name_ = new QLabel, new_name_ = new QLabel;
  left_ = side(), right_ = side();
  left_->setObjectName("diff_left"), right_->setObjectName("diff_right");
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addWidget(old_name_, 0, 0);
  grid->addWidget(new_name_, 0, 1);
  grid->addWidget(left_, 1, 0);
  grid->addWidget(right_, 1, 1);
  // Rows are aligned, so the two sides scroll as one.
  for (auto [a, b] : {std::pair{left_, right_}, std::pair{right_, left_}}) {
    connect(a->verticalScrollBar(), &QScrollBar::valueChanged, b->verticalScrollBar(),
            &QScrollBar::setValue);
    connect(a->horizontalScrollBar(), &QScrollBar::valueChanged, b->horizontalScrollBar(),
            &QScrollBar::setValue);
  }
}

void SideBySideDiff::show_rows(const std::vector<code::DiffRow>& rows, const QString& old_name,
                               const QString& new_name) {
  using Kind = code::DiffLine::Kind;
  old_name_->setText("<b>" + old_name.toHtmlEscaped() + "</b> (before)");
  new_name_->setText("<b>" + new_name.toHtmlEscaped() + "</b> (after)");
  QStringList l, r;
  for (const code::DiffRow& row : rows) {
    l << numbered(row.old_line, row.old_text);
    r << numbered(row.new_line, row.new_text);
  }
  left_->setPlainText(l.join('\n'));
  right_->setPlainText(r.join('\n'));
  // The diff page's colours (DiffHighlighter): red removed, green added, grey padding.
  QList<QTextEdit::ExtraSelection> lm, rm;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const code::DiffRow& row = rows[static_cast<std::size_t>(i)];
    if (row.old_kind == Kind::Removed) mark(left_, i, QColor(0xfd, 0xe2, 0xe2), lm);
    if (row.old_line < 0) mark(left_, i, QColor(0xf0, 0xf0, 0xf0), lm);
    if (row.new_kind == Kind::Added) mark(right_, i, QColor(0xdf, 0xf5, 0xdc), rm);
    if (row.new_line < 0) mark(right_, i, QColor(0xf0, 0xf0, 0xf0), rm);
  }
  left_->setExtraSelections(lm);
  right_->setExtraSelections(rm);
}

QString SideBySideDiff::left_text() const {
  return left_->toPlainText();
}
QString SideBySideDiff::right_text() const {
  return right_->toPlainText();
}
void SideBySideDiff::set_code_font(const QFont& font) {
  left_->setFont(font);
  right_->setFont(font);
}

}  // namespace rl::gui
