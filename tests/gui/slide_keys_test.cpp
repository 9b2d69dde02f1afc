// The keys presentation mode and story mode share (slide_mode.h): one table, so both answer a
// clicker and the presenter's text keys alike; a key not in it is left to the view (H, R).
#include <gtest/gtest.h>

#include <QKeyEvent>

#include <cmath>

#include "slide_mode.h"

using namespace rl::gui;

namespace {

// The move for key on slide 2 of 5 at text factor 2.
SlideMove move_for(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier, int index = 2) {
  const QKeyEvent event(QEvent::KeyPress, key, modifiers);
  return slide_move(event, index, 5, 2.0);
}

}  // namespace

TEST(SlideKeys, ClickerKeysStepJumpAndLeave) {
  for (int key : {Qt::Key_PageDown, Qt::Key_Space, Qt::Key_Right, Qt::Key_Down}) {
    EXPECT_EQ(move_for(key).kind, SlideMove::Show) << key;
    EXPECT_EQ(move_for(key).index, 3) << key;
  }
  for (int key : {Qt::Key_PageUp, Qt::Key_Backspace, Qt::Key_Left, Qt::Key_Up}) {
    EXPECT_EQ(move_for(key).kind, SlideMove::Show) << key;
    EXPECT_EQ(move_for(key).index, 1) << key;
  }
  EXPECT_EQ(move_for(Qt::Key_Home).index, 0);
  EXPECT_EQ(move_for(Qt::Key_End).index, 4);
  EXPECT_EQ(move_for(Qt::Key_PageDown, Qt::NoModifier, 4).index, 5);  // the view clamps
  EXPECT_EQ(move_for(Qt::Key_Escape).kind, SlideMove::Leave);
  EXPECT_EQ(move_for(Qt::Key_F5).kind, SlideMove::Leave);
  EXPECT_EQ(move_for(Qt::Key_F5, Qt::ShiftModifier).kind, SlideMove::Leave);
}

TEST(SlideKeys, TextSizeWithCtrlOnly) {
  EXPECT_EQ(move_for(Qt::Key_Equal, Qt::ControlModifier).kind, SlideMove::Zoom);
  // On the grid of 1.15^n: 2.0 is nearest 1.15^5, so one step up is 1.15^6, one down 1.15^4.
  EXPECT_EQ(move_for(Qt::Key_Equal, Qt::ControlModifier).zoom, std::pow(1.15, 6));
  EXPECT_EQ(move_for(Qt::Key_Plus, Qt::ControlModifier).zoom, std::pow(1.15, 6));
  EXPECT_EQ(move_for(Qt::Key_Minus, Qt::ControlModifier).zoom, std::pow(1.15, 4));
  EXPECT_DOUBLE_EQ(move_for(Qt::Key_0, Qt::ControlModifier).zoom, 1.0);
  for (int key : {Qt::Key_Equal, Qt::Key_Plus, Qt::Key_Minus, Qt::Key_0})
    EXPECT_EQ(move_for(key).kind, SlideMove::None) << key;
}

TEST(SlideKeys, EachViewsOwnKeysAreLeftToIt) {
  EXPECT_EQ(move_for(Qt::Key_H).kind, SlideMove::None);  // presentation: contrast
  EXPECT_EQ(move_for(Qt::Key_R).kind, SlideMove::None);  // story: run the step
  EXPECT_EQ(move_for(Qt::Key_R, Qt::ControlModifier).kind, SlideMove::None);
}

TEST(SlideKeys, ZoomStaysWithinTheBounds) {
  EXPECT_DOUBLE_EQ(clamp_slide_zoom(1.2), 1.2);
  double zoom = 1.0;
  EXPECT_FALSE(change_slide_zoom(zoom, 1.0));
  EXPECT_TRUE(change_slide_zoom(zoom, 10.0));
  EXPECT_EQ(zoom, 3.0);
  EXPECT_FALSE(change_slide_zoom(zoom, 4.0));  // already at the top
  EXPECT_TRUE(change_slide_zoom(zoom, 0.1));
  EXPECT_EQ(zoom, 0.5);
}
