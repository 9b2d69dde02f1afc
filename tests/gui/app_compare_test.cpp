// Two sessions compared in the app: with an overlay, the Ladder page gains
// B's speed-up over A per point at the ladder's setting, coloured by the engine's verdict, with
// the summary in the subtitle; without one the chart takes no room and says how to get it.
#include <gtest/gtest.h>

#include <QDir>
#include "app_sample_session.h"

#include "charts/chart_builders.h"
#include "charts/chart_widget.h"

using namespace rl::gui;

namespace {

// The sample with every time scaled: `faster` halves the first variant's, doubles the others'.
rl::Session scaled(const rl::Session& s) {
  rl::Session out = s;
  const std::string first = s.results.front().point.variant;
  for (rl::PointResult& r : out.results) {
    const double k = r.point.variant == first ? 0.5 : 2.0;
    for (rl::Summary* t : {&r.total, &r.first_kernel}) {
      t->median_ms *= k;
      t->mean_ms *= k;
      t->min_ms *= k;
      t->max_ms *= k;
      t->stddev_ms *= k;
    }
  }
  return out;
}

}  // namespace

TEST(AppCompare, AnOverlayIsComparedPointByPointWithAVerdict) {
  const rl::Session a = test::sample_session();
  const rl::Session b = scaled(a);
  const std::vector<ShownSession> ss{{&a, "A"}, {&b, "B"}};
  const charts::Chart c = build_chart("ladder_compare", ss, "neighbored");
  ASSERT_FALSE(c.empty()) << c.empty_hint.toStdString();
  EXPECT_TRUE(c.stacked);
  ASSERT_EQ(c.series.size(), 3);
  EXPECT_EQ(c.series[0].name, "B faster");
  EXPECT_EQ(c.series[1].name, "B slower");
  ASSERT_FALSE(c.series[0].points.isEmpty());
  ASSERT_FALSE(c.series[1].points.isEmpty());
  EXPECT_DOUBLE_EQ(c.series[0].points.front().y, 2.0);  // half the time: twice as fast
  EXPECT_DOUBLE_EQ(c.series[1].points.front().y, 0.5);
  EXPECT_TRUE(c.series[0].points.front().source.has_value());
  const int compared =
      int(c.series[0].points.size() + c.series[1].points.size() + c.series[2].points.size());
  EXPECT_EQ(c.x.categories.size(), compared);
  EXPECT_TRUE(c.subtitle.contains(QString("%1 faster, %2 slower")
                                      .arg(c.series[0].points.size())
                                      .arg(c.series[1].points.size())))
      << c.subtitle.toStdString();
  EXPECT_TRUE(c.subtitle.contains("A = A · B = B")) << c.subtitle.toStdString();
  QString error;
  EXPECT_TRUE(charts::write_chart_png(c, QDir::temp().filePath("reductionlab_compare.png"),
                                      QSize(1366, 768), &error))
      << error.toStdString();
  // Alone, a session has nothing to compare: the chart says how and takes no room.
  const charts::Chart alone = build_chart("ladder_compare", {{&a, ""}}, "neighbored");
  EXPECT_TRUE(alone.empty());
  EXPECT_TRUE(alone.empty_hint.contains("Overlay a second session"));
  bool listed = false;
  for (const ChartKind& k : chart_kinds_for({{&a, ""}}))
    listed = listed || k.id == "ladder_compare";
  EXPECT_FALSE(listed);
  for (const ChartKind& k : chart_kinds_for(ss)) listed = listed || k.id == "ladder_compare";
  EXPECT_TRUE(listed);
}
