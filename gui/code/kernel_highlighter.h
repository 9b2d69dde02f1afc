// Syntax colours of the kernel editor: CUDA C++ as a person writes it, read by a small lexer (so
// a "//" inside a string or a keyword inside a comment is coloured as what it is), with block
// comments that span lines, the CUDA built-ins and the RL_* macros of the user-kernel contract.
// Colours are dark on the white editor, readable from the back of a lecture hall.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace rl::gui {

class KernelHighlighter : public QSyntaxHighlighter {
 public:
  enum class Token { Keyword, Type, Cuda, ContractMacro, Number, String, Comment, Preprocessor };

  explicit KernelHighlighter(QTextDocument* doc);

  // The format a token of this kind gets (tests compare the layout's formats with it).
  static QTextCharFormat format(Token kind);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  // Colours from `at` to the end of a block comment or of the line; returns where it stopped.
  int comment_until_close(const QString& text, int at);
  int word_at(const QString& text, int at);
  int number_at(const QString& text, int at);
  int quoted_at(const QString& text, int at);
};

}  // namespace rl::gui
