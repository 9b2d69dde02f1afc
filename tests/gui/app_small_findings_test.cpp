// What a new user ran into in the first hour, each held here: a host run is never set against a
// GPU session unless asked, and then says that these are different kinds of time; a form field's
// error neither moves the form nor calls "2^99" a non-number; the noise warning names how each
// chart marks noisy points and stands under the title, not over the lines; presentation pages
// never ask to hover; story values never overlap, and the room can guess before each bar; the
// Code tab opens where the line samples are and names the kernel shown; an SVG's text is the
// size of the PNG's; the bundled session says which of its points are of an earlier kernel.
#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_builders.h"
#include "charts/chart_widget.h"
#include "charts_panel.h"
#include "code_panel.h"
#include "presentation.h"
#include "session_store.h"
#include "sessions_panel.h"
#include "story/story_bars.h"
#include "story/story_view.h"

using namespace rl::gui;

namespace {

const char* kBundled = ":/sessions/h200-ladder.json";

MainWindow::Options with_bundled() {
  MainWindow::Options o = test::quiet_options();
  o.open_bundled = true;
  return o;
}

rl::Session host_session() {
  rl::Session s = test::sample_session("Test CPU");
  s.device.backend = "host";
  s.created_utc = "2025-01-02T00:00:00Z";
  return s;
}

QChart* qchart_of(const charts::ChartWidget& w) {
  return w.findChild<QChartView*>()->chart();
}

// The first line of dark text from the top (the title's): its width in pixels.
int first_text_line_width(const QImage& image) {
  auto dark_in_row = [&](int y, int* left, int* right) {
    bool any = false;
    for (int x = 0; x < image.width(); ++x)
      if (qGray(image.pixel(x, y)) < 110) {
        *left = any ? std::min(*left, x) : x;
        *right = std::max(any ? *right : x, x);
        any = true;
      }
    return any;
  };
  int y = 0, left = 0, right = 0;
  while (y < image.height() && !dark_in_row(y, &left, &right)) ++y;
  int line_left = image.width(), line_right = 0;
  for (; y < image.height() && dark_in_row(y, &left, &right); ++y)
    line_left = std::min(line_left, left), line_right = std::max(line_right, right);
  return line_right - line_left;
}

}  // namespace

TEST(AppSmallFindings, AFieldTooLargeSaysItsLimitAndTheFormStaysPut) {
  MainWindow w(test::quiet_options());
  w.resize(1366, 768);
  w.show();
  ExperimentPanel* form = w.experiment();
  form->set_device(kHostDevice);
  form->set_spec(test::tiny_spec());
  form->validate_now();
  QApplication::processEvents();
  ASSERT_TRUE(form->problems().isEmpty()) << form->problems().join("; ").toStdString();
  const QPoint field = form->unroll_field()->mapTo(form, QPoint(0, 0));
  const QPoint run = form->run_button()->mapTo(form, QPoint(0, 0));
  form->unroll_field()->setText("2^99");
  form->validate_now();
  QApplication::processEvents();
  const QString problems = form->problems().join(" ");
  EXPECT_TRUE(problems.contains("unroll factor '2^99': too large: at most 2^30"))
      << problems.toStdString();
  EXPECT_FALSE(problems.contains("expected a whole number")) << problems.toStdString();
  // The message has its space already: nothing under the pointer moved.
  EXPECT_EQ(form->unroll_field()->mapTo(form, QPoint(0, 0)), field);
  EXPECT_EQ(form->run_button()->mapTo(form, QPoint(0, 0)), run);
}

TEST(AppSmallFindings, HostTimesAreComparedWithGpuTimesOnlyWhenAskedAndThenSaySo) {
  SessionStore store;
  store.set_primary(test::sample_session("NVIDIA H200"), "bundled session");
  store.set_primary(host_session(), "live run");
  SessionsPanel panel(&store);
  EXPECT_TRUE(store.compared().empty());
  EXPECT_TRUE(store.only_other_kinds_to_compare());
  for (const ChartKind& k : store.chart_kinds())
    EXPECT_FALSE(is_compare_chart(k.id)) << k.id.toStdString();
  EXPECT_TRUE(panel.comparison_text().contains("different kinds of time"))
      << panel.comparison_text().toStdString();

  store.set_compared(1, 0);  // the person asks: A = the H200, B = the host run
  ASSERT_EQ(store.compared().size(), 2u);
  for (const char* id : {"ladder_compare", "ladder_compare_diff"}) {
    const charts::Chart c = store.chart(id);
    EXPECT_TRUE(c.title.contains("different kinds of time")) << c.title.toStdString();
    EXPECT_TRUE(c.warnings.join(" ").contains("A has GPU times, B CPU times (host emulation)"))
        << c.warnings.join(" | ").toStdString();
    for (const charts::Series& s : c.series)
      EXPECT_FALSE(s.name.contains("faster") || s.name.contains("slower")) << s.name.toStdString();
  }
  EXPECT_TRUE(panel.comparison_text().contains("different kinds of time"));
  // Drawn in a small card, as the Ladder page's: no value stands outside the chart.
  for (const QSize size : {QSize(380, 260), QSize(640, 420)}) {
    charts::ChartWidget card;
    card.resize(size);
    card.set_chart(store.chart("ladder_compare"));
    card.show();
    QApplication::processEvents();
    EXPECT_TRUE(card.cut_text().filter("outside").isEmpty())
        << card.cut_text().join(" | ").toStdString();
  }

  SessionStore gpus;  // two GPU sessions: compared by default, as ever
  gpus.set_primary(test::sample_session("NVIDIA H200"), "a.json");
  gpus.add_overlay(test::sample_session("NVIDIA H100"));
  ASSERT_EQ(gpus.compared().size(), 2u);
  EXPECT_TRUE(gpus.chart("ladder_compare").warnings.filter("kinds of time").isEmpty());
}

TEST(AppSmallFindings, NoiseWarningSaysHowTheChartMarksNoisyPointsUnderTheTitle) {
  rl::Session s = test::sample_session();
  for (rl::PointResult& r : s.results) r.noisy = r.status == rl::PointStatus::Ok;
  const charts::Chart line = build_chart("time_vs_unroll", {{&s, ""}}, "neighbored");
  const QString line_warning = line.warnings.filter("noise target").join(" ");
  ASSERT_FALSE(line_warning.isEmpty()) << line.warnings.join(" | ").toStdString();
  EXPECT_FALSE(line_warning.contains("hatched")) << line_warning.toStdString();
  EXPECT_TRUE(line_warning.contains("in their tooltips")) << line_warning.toStdString();
  const charts::Chart bars = build_chart("ladder_time", {{&s, ""}}, "neighbored");
  EXPECT_TRUE(bars.warnings.join(" ").contains("hatched bars"))
      << bars.warnings.join(" | ").toStdString();

  // A small chart, as the Block size and Unroll pages draw them: the warning is part of the
  // title block, so the plot starts below it.
  charts::ChartWidget with, without;
  charts::Chart quiet = line;
  quiet.warnings.clear();
  for (auto* w : {&with, &without}) w->resize(440, 300);
  with.set_chart(line);
  without.set_chart(quiet);
  with.show();
  without.show();
  QApplication::processEvents();
  EXPECT_TRUE(qchart_of(with)->title().contains("noise target"));
  EXPECT_GT(qchart_of(with)->plotArea().top(), qchart_of(without)->plotArea().top() + 8);
}

TEST(AppSmallFindings, PresentationPagesNeverAskToHover) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  MainWindow w(with_bundled());
  w.wait_for_bundled_session();
  // On the desk the small counts chart says where the lane efficiency is (two workspaces).
  EXPECT_TRUE(w.store()->chart("ladder_counts").pointer_notes.join(" ").contains("hover"));
  w.present();
  PresentationView* p = w.presentation();
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < p->pages().size(); ++i) {
    p->show_page(i);
    EXPECT_FALSE(qchart_of(*p->chart_widget())->title().contains("hover"))
        << p->pages()[i].toStdString();
  }
  p->close();
}

TEST(AppSmallFindings, StoryValuesNeverOverlapAndTheRoomGuessesFirst) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  MainWindow w(with_bundled());
  w.wait_for_bundled_session();
  ASSERT_TRUE(w.present_story(":/stories/seed-ladder.json")) << w.last_error().toStdString();
  StoryView* v = w.story_view();
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->predict());  // off by default
  // Every step shown, at the view's size and squeezed: no value drawn over another.
  v->show_step(v->step_count() - 1);
  StoryBars narrow;
  narrow.setFont(v->bars()->font());
  narrow.resize(420, 300);
  narrow.set_story(v->resolved(), v->step());
  for (StoryBars* bars : {v->bars(), &narrow}) {
    bars->finish_arrival();
    const auto labels = bars->value_labels();
    EXPECT_EQ(int(labels.size()), bars->shown_bars());
    for (size_t i = 0; i < labels.size(); ++i)
      for (size_t j = i + 1; j < labels.size(); ++j)
        EXPECT_FALSE(labels[i].rect.intersects(labels[j].rect))
            << labels[i].text.toStdString() << " / " << labels[j].text.toStdString();
  }

  v->set_predict(true);
  v->show_step(0);
  QTest::keyClick(v, Qt::Key_PageDown);  // step 2: the room guesses first
  ASSERT_EQ(v->step(), 1);
  EXPECT_TRUE(v->predicting());
  EXPECT_TRUE(v->bars()->bar_rect(1).isEmpty());
  EXPECT_EQ(v->bars()->shown_bars(), 1);
  EXPECT_TRUE(v->numbers_text().contains("What speed-up")) << v->numbers_text().toStdString();
  QTest::keyClicks(v, "4.5");
  EXPECT_EQ(v->typed_guess(), "4.5");
  QTest::keyClick(v, Qt::Key_Return);  // the presenter reveals
  EXPECT_FALSE(v->predicting());
  ASSERT_TRUE(v->guess(1));
  EXPECT_DOUBLE_EQ(*v->guess(1), 4.5);
  v->bars()->finish_arrival();
  EXPECT_FALSE(v->bars()->bar_rect(1).isEmpty());
  EXPECT_FALSE(v->bars()->guess_rect(1).isEmpty());
  EXPECT_TRUE(v->numbers_text().contains("the room guessed")) << v->numbers_text().toStdString();
  // Next: asked again; revealed without a guess, none is drawn.
  QTest::keyClick(v, Qt::Key_PageDown);
  EXPECT_EQ(v->step(), 2);
  EXPECT_TRUE(v->predicting());
  QTest::keyClick(v, Qt::Key_PageDown);
  EXPECT_EQ(v->step(), 2);
  EXPECT_FALSE(v->predicting());
  EXPECT_FALSE(v->guess(2));
  // Back and forward again: a step the room has seen is not asked twice.
  QTest::keyClick(v, Qt::Key_PageUp);
  QTest::keyClick(v, Qt::Key_PageDown);
  EXPECT_FALSE(v->predicting());
  QTest::keyClick(v, Qt::Key_P);  // P turns it off, and the window's menu follows
  EXPECT_FALSE(v->predict());
  v->close();
}

TEST(AppSmallFindings, CodeTabOpensWhereTheLineSamplesAreAndNamesWhatItShows) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  MainWindow w(with_bundled());
  w.wait_for_bundled_session();
  CodePanel* code = w.code_panel();
  ASSERT_NE(code, nullptr);
  ASSERT_NE(code->entry().variant, nullptr);
  EXPECT_EQ(code->entry().query.block_size, 1024);  // where the bundled session sampled
  EXPECT_TRUE(code->line_metrics().has_value());
  auto* box = code->findChild<QComboBox*>("code_variant");
  ASSERT_NE(box, nullptr);
  code->show_variant("unroll_warp_volatile", 0, 1);
  EXPECT_EQ(code->entry().query.unroll, 1);
  EXPECT_TRUE(box->currentText().contains("[reduceUnrollWarp1]"))
      << box->currentText().toStdString();
  code->show_variant("unroll_warp_volatile", 0, 8);
  EXPECT_TRUE(box->currentText().contains("[reduceUnrollWarp8]"))
      << box->currentText().toStdString();
}

TEST(AppSmallFindings, SvgTextIsTheSizeOfPngText) {
  const rl::Session s = test::sample_session();
  const charts::Chart c = build_chart("ladder_time", {{&s, ""}}, "neighbored");
  QTemporaryDir dir;
  QString error;
  const QSize size(1600, 1000);
  ASSERT_TRUE(charts::write_chart_png(c, dir.filePath("c.png"), size, &error))
      << error.toStdString();
  ASSERT_TRUE(charts::write_chart_svg(c, dir.filePath("c.svg"), size, &error))
      << error.toStdString();
  const QImage png(dir.filePath("c.png"));
  QSvgRenderer renderer(dir.filePath("c.svg"));
  ASSERT_TRUE(renderer.isValid());
  QImage svg(size, QImage::Format_ARGB32);
  svg.fill(Qt::white);
  QPainter painter(&svg);
  renderer.render(&painter);
  painter.end();
  const int png_width = first_text_line_width(png), svg_width = first_text_line_width(svg);
  ASSERT_GT(png_width, 100);
  EXPECT_NEAR(double(svg_width) / png_width, 1.0, 0.08) << svg_width << " vs " << png_width;
}

// The bundled session was measured after the last change to any kernel's device code: no banner
// and no point says it is of an earlier kernel (engine/report/format.h keeps the changes; a
// session measured before one is marked, compare_test.cpp).
TEST(AppSmallFindings, BundledSessionIsOfTheProductsKernels) {
  if (!QFile::exists(kBundled)) GTEST_SKIP() << "no bundled session here";
  MainWindow w(with_bundled());
  w.wait_for_bundled_session();
  EXPECT_FALSE(w.banner_text().contains("earlier version")) << w.banner_text().toStdString();
  const charts::Chart c = w.store()->chart("ladder_time");
  int points = 0;
  for (const charts::Series& s : c.series)
    for (const charts::Point& p : s.points) {
      EXPECT_FALSE(p.tooltip.contains("an earlier version")) << p.tooltip.toStdString();
      ++points;
    }
  EXPECT_GT(points, 0);
}
