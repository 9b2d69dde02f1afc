// The story's ladder chart: one slot per step, bars up to the current step, each bar the step's
// speed-up over the first step (the session's times, or a live run's), the current one
// highlighted and growing in as it arrives. Painted directly: one bar series with an arrival
// animation is simpler here than a Qt Charts scene, and nothing else draws it.
#pragma once

#include <QFont>
#include <QVariantAnimation>
#include <QWidget>

class QPainter;

#include <map>
#include <optional>
#include <vector>

#include "engine/views/story.h"

namespace rl::gui {

class StoryBars : public QWidget {
  Q_OBJECT
 public:
  explicit StoryBars(QWidget* parent = nullptr);

  // Shows steps 0..current of the story; the current bar arrives (grows in) when it was not
  // shown before or its value changed (a live run).
  void set_story(const ResolvedStory& story, int current);
  int current() const { return current_; }
  int shown_bars() const;  // bars drawn: steps up to the current one with a speed-up
  std::optional<double> value(int step) const;
  bool live(int step) const;
  double arrival() const { return arrival_; }  // 0..1 for the current bar; 1 when arrived
  void finish_arrival();                       // jumps to the end (tests, exports)
  QRect bar_rect(int step) const;              // the bar as drawn now (empty when not drawn)

  // Predict, then reveal: the current bar waits, hidden, until the room has guessed; shown
  // again, it arrives. A guess (the speed-up the room expected, by step) is drawn beside its
  // measured bar as a dashed mark at its height, labelled "guess ×4.5".
  void set_current_hidden(bool hidden);
  bool current_hidden() const { return current_hidden_; }
  void set_guesses(const std::map<int, double>& guesses);

  // A value over its bar, where it is drawn (never over another: value_labels()).
  struct ValueLabel {
    int step = 0;
    QString text;
    QFont font;
    QRect rect;
  };
  std::vector<ValueLabel> value_labels() const;
  QRect guess_rect(int step) const;  // the guess's mark and label; empty when none is drawn

  QSize sizeHint() const override { return {640, 420}; }
  QSize minimumSizeHint() const override { return {240, 160}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  struct Bar {
    std::optional<double> value;
    bool live = false, noisy = false;
  };
  QRect plot_rect() const;
  double top_value() const;  // the axis' top: every step's value, so the scale never jumps

  void paint_guesses(QPainter& p) const;
  static QString guess_text(double guess);  // "guess ×4.5"

  std::vector<Bar> bars_;
  std::map<int, double> guesses_;
  bool current_hidden_ = false;
  QString axis_title_;
  int current_ = -1;
  double arrival_ = 1;
  QVariantAnimation anim_;
};

}  // namespace rl::gui
