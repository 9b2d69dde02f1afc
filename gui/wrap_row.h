// A row of controls in parts that stand on one line where the width holds them and flow onto
// more lines where it does not (a 1024-pixel screen with a dock open): never wider than its
// widest part, so a tab or a dock of such rows fits the window instead of scrolling sideways.
#pragma once

#include <QList>
#include <QWidget>

class QHBoxLayout;

namespace rl::gui {

class WrapRow : public QWidget {
  Q_OBJECT
 public:
  explicit WrapRow(QWidget* parent = nullptr);
  // A new part at the row's end, to fill like any row; stretch: its share of a line's spare
  // width.
  QHBoxLayout* add_part(int stretch = 0);
  int lines() const { return lines_; }

  QSize sizeHint() const override;         // every part on one line
  QSize minimumSizeHint() const override;  // the widest part, as tall as its lines are

 protected:
  void resizeEvent(QResizeEvent* event) override;
  bool event(QEvent* event) override;

 private:
  // The parts, line by line, for a width: each line as many as its width holds.
  QList<QList<int>> flow(int width) const;
  void place(int width);
  // The parts are placed by hand: a layout would answer the parent's questions about height for
  // a width itself, from the one-line arrangement alone.
  struct Part {
    QWidget* widget;
    int stretch;
  };
  QList<Part> parts_;
  int lines_ = 1;
  static constexpr int kSpacing = 6;
};

}  // namespace rl::gui
