// Syntax highlighting of the Code view: CUDA C++ source, SASS with the instruction
// classes the view counts (barriers, shuffles, branches, loads, stores), and a line diff.
#pragma once

#include <QColor>
#include <QFont>
#include <QRegularExpression>
#include <QSyntaxHighlighter>

#include "engine/code/sass_counts.h"

namespace rl::gui {

// The colour of a SASS class, shared by the highlighter and the counts legend.
QColor sass_class_color(code::SassClass c);
// The font code is shown in at `point_size`: the system's fixed font, or the bundled DejaVu Sans
// Mono where it is not monospaced (a bare font configuration). Shared by every code view.
QFont code_font(double point_size);

class CudaHighlighter : public QSyntaxHighlighter {
 public:
  explicit CudaHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  QRegularExpression keywords_, cuda_, numbers_;
};

class SassHighlighter : public QSyntaxHighlighter {
 public:
  explicit SassHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;
};

// Lines starting "+ " green, "- " red, "---"/"+++" bold.
class DiffHighlighter : public QSyntaxHighlighter {
 public:
  explicit DiffHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;
};

}  // namespace rl::gui
