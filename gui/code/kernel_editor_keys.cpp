// The kernel editor's typing: Tab indents with spaces (a selection of lines as a whole),
// Shift+Tab takes the indent back, Enter keeps the line's indent. Each is one undo step.
#include <QKeyEvent>
#include <QTextBlock>

#include "code/kernel_editor.h"

namespace rl::gui {

void KernelEditor::keyPressEvent(QKeyEvent* event) {
  const bool plain = (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
  if (event->key() == Qt::Key_Tab && plain) {
    QTextCursor c = textCursor();
    if (c.hasSelection() &&
        document()->findBlock(c.selectionStart()) != document()->findBlock(c.selectionEnd())) {
      indent_selection(false);
    } else {
      const int column = c.positionInBlock();
      c.insertText(QString(kIndentWidth - column % kIndentWidth, ' '));
    }
    return;
  }
  if (event->key() == Qt::Key_Backtab) {
    indent_selection(true);
    return;
  }
  if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && plain) {
    insert_newline_keeping_indent();
    return;
  }
  QPlainTextEdit::keyPressEvent(event);
}

void KernelEditor::indent_selection(bool outdent) {
  QTextCursor c = textCursor();
  QTextBlock block = document()->findBlock(c.selectionStart());
  QTextBlock last = document()->findBlock(c.selectionEnd());
  // A selection that ends at the start of a line does not take that line.
  if (c.hasSelection() && last != block && c.selectionEnd() == last.position())
    last = last.previous();
  c.beginEditBlock();
  for (; block.isValid(); block = block.next()) {
    QTextCursor at(block);
    if (outdent) {
      int spaces = 0;
      while (spaces < kIndentWidth && spaces < block.length() - 1 && block.text()[spaces] == ' ')
        ++spaces;
      at.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, spaces);
      at.removeSelectedText();
    } else {
      at.insertText(QString(kIndentWidth, ' '));
    }
    if (block == last) break;
  }
  c.endEditBlock();
}

void KernelEditor::insert_newline_keeping_indent() {
  QTextCursor c = textCursor();
  const QString line = c.block().text();
  int indent = 0;
  while (indent < line.size() && indent < c.positionInBlock() && line[indent] == ' ') ++indent;
  c.insertText("\n" + QString(indent, ' '));
  ensureCursorVisible();
}

}  // namespace rl::gui
