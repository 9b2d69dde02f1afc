// "Inside a block" for the rows variants: row_per_warp (a warp per row, lanes along it) and
// row_per_block (the block along one row) can be picked with a shape, walk every frame offscreen,
// show which lanes read a short row, and refuse a missing or bad shape naming the field.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLineEdit>

#include "animation/block_animation.h"
#include "animation/block_view.h"

namespace rl::gui {
namespace {

QColor pixel_at(const QImage& img, const QRect& r) {
  return img.pixelColor(r.center());
}

TEST(AnimationRows, BothRowVariantsArePickable) {
  BlockAnimationPanel panel;
  auto* variants = panel.findChild<QComboBox*>("variant_a");
  ASSERT_NE(variants, nullptr);
  EXPECT_GE(variants->findData("row_per_warp"), 0);
  EXPECT_GE(variants->findData("row_per_block"), 0);
}

TEST(AnimationRows, WarpPerRowBesideBlockPerRowWalksEveryFrame) {
  BlockAnimationPanel panel;
  panel.resize(1400, 900);
  panel.set_shape("6x40");
  ASSERT_TRUE(panel.show_variants("row_per_warp", "row_per_block", 256, 4))
      << panel.status_text().toStdString();
  ASSERT_TRUE(panel.side_by_side());
  const Trace* warp = panel.first_view()->trace();
  const Trace* block = panel.second_view()->trace();
  ASSERT_NE(warp, nullptr);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(warp->rows, 6u);
  EXPECT_EQ(warp->row_sums.size(), 6u);  // 8 warps, 6 rows: a warp each
  EXPECT_EQ(block->row_sums.size(), 1u);
  panel.show();
  QApplication::processEvents();
  for (int f = 0; f < panel.frame_count(); ++f) {
    panel.set_frame(f);
    EXPECT_FALSE(panel.render_frame().isNull()) << f;
  }
  // The load: a row of 40 aligned elements is ten 16-byte vectors, lanes 0..9 of each warp with
  // a row read; lane 20 reads nothing, and warps 6 and 7 have no row.
  BlockView* view = panel.first_view();
  view->set_frame(1);
  ASSERT_EQ(warp->steps.front().kind, "load");
  const QImage img = view->grab().toImage();
  EXPECT_EQ(pixel_at(img, view->lane_rect(0)), BlockView::acting_color());
  EXPECT_EQ(pixel_at(img, view->lane_rect(32 + 9)), BlockView::acting_color());
  EXPECT_NE(pixel_at(img, view->lane_rect(20)), BlockView::acting_color());
  EXPECT_EQ(pixel_at(img, view->lane_rect(6 * 32)), BlockView::exited_color());
  // The load, warp per row beside block per row, for a look.
  panel.set_frame(1);
  QApplication::processEvents();
  EXPECT_TRUE(panel.grab().save("/tmp/animation_rows.png"));
}

TEST(AnimationRows, ShapeAndNAreEnabledForTheVariantsThatTakeThem) {
  BlockAnimationPanel panel;
  auto* shape = panel.findChild<QLineEdit*>("shape");
  ASSERT_NE(shape, nullptr);
  ASSERT_TRUE(panel.show_variants("interleaved", "", 64));
  EXPECT_FALSE(shape->isEnabled());
  ASSERT_TRUE(panel.show_variants("row_per_warp", "", 64));
  EXPECT_TRUE(shape->isEnabled());
}

TEST(AnimationRows, RefusesAMissingOrBadShapeNamingTheField) {
  BlockAnimationPanel panel;
  panel.set_shape("");
  EXPECT_FALSE(panel.show_variants("row_per_warp", "", 128));
  EXPECT_TRUE(panel.status_text().contains("Shape")) << panel.status_text().toStdString();
  panel.set_shape("12xq");
  EXPECT_EQ(panel.frame_count(), 0);
  EXPECT_TRUE(panel.status_text().contains("Shape")) << panel.status_text().toStdString();
  panel.set_shape("3x10");
  EXPECT_GT(panel.frame_count(), 0) << panel.status_text().toStdString();
}

}  // namespace
}  // namespace rl::gui
