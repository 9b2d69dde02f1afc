// Sessions side by side: a run adds a session and keeps the one shown before
// (hidden, listed); the Sessions list renames, hides and closes; any two are compared as A and
// B, with a ratio and a difference chart whose titles name both sessions and the setting, and
// the points of one session only listed, never dropped.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>

#include "app_sample_session.h"
#include "app_test_support.h"
#include "charts/chart_builders.h"
#include "session_store.h"
#include "sessions_panel.h"

using namespace rl::gui;

namespace {

// The sample on another GPU, every time scaled by k; `drop` points removed from its end.
rl::Session other(double k, const std::string& gpu = "Other GPU", int drop = 0) {
  rl::Session s = test::sample_session(gpu);
  s.created_utc = "2025-02-03T10:20:00Z";
  for (rl::PointResult& r : s.results)
    for (rl::Summary* t : {&r.total, &r.first_kernel}) {
      t->median_ms *= k, t->mean_ms *= k, t->min_ms *= k, t->max_ms *= k;
      t->stddev_ms = t->median_ms * 0.001;
    }
  s.results.resize(s.results.size() - size_t(drop));
  return s;
}

}  // namespace

TEST(AppSessions, ARunAddsASessionAndKeepsTheOneShownBefore) {
  MainWindow w(test::quiet_options());
  w.store()->set_primary(test::sample_session("NVIDIA H200"), "bundled session");
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  const auto& open = w.store()->open();
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].session->device.backend, "host");  // the run is the primary: the table's
  EXPECT_EQ(open[1].source, "bundled session");        // the H200 stays, out of the charts
  EXPECT_TRUE(open[1].hidden);
  EXPECT_EQ(w.store()->shown().size(), 1u);
  // No comparison by default: the run's CPU times are of another kind than the H200's.
  EXPECT_EQ(w.store()->compared_a(), -1);
  EXPECT_EQ(w.store()->compared_b(), -1);
  EXPECT_TRUE(w.store()->only_other_kinds_to_compare());
  EXPECT_TRUE(w.banner_text().contains("1 more session open")) << w.banner_text().toStdString();
  ASSERT_NE(w.sessions_dock(), nullptr);
  EXPECT_FALSE(w.sessions_dock()->isHidden());  // shown once a second session is open
  // A second run keeps both.
  ASSERT_TRUE(test::run_and_wait(w, test::tiny_spec()));
  EXPECT_EQ(w.store()->open().size(), 3u);
  // Two host runs: the earlier as A, the newer (the primary) as B.
  EXPECT_EQ(w.store()->compared_b(), 0);
  EXPECT_EQ(w.store()->open()[size_t(w.store()->compared_a())].session->device.backend, "host");
  const QStringList names = w.store()->names();
  EXPECT_EQ(QSet<QString>(names.begin(), names.end()).size(), 3) << names.join(" | ").toStdString();
}

TEST(AppSessions, TheListRenamesHidesAndClosesUnderTheModelTester) {
  SessionStore store;
  store.set_primary(test::sample_session("NVIDIA H200"), "a.json");
  store.add_overlay(other(0.5));
  SessionsPanel panel(&store);
  SessionsModel* model = panel.model();
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_EQ(model->rowCount(), 2);
  EXPECT_EQ(model->index(0, SessionsModel::Name).data(Qt::EditRole).toString(), "H200");
  EXPECT_EQ(model->index(0, SessionsModel::Compared).data().toString(), "A");
  EXPECT_EQ(model->index(1, SessionsModel::Compared).data().toString(), "B");
  EXPECT_TRUE(panel.comparison_text().contains("4 faster"))
      << panel.comparison_text().toStdString();

  ASSERT_TRUE(model->setData(model->index(1, SessionsModel::Name), "after the fix", Qt::EditRole));
  EXPECT_EQ(store.names().value(1), "after the fix");
  EXPECT_EQ(store.shown()[1].label, "after the fix");  // the legends say it too
  ASSERT_TRUE(
      model->setData(model->index(1, SessionsModel::Name), Qt::Unchecked, Qt::CheckStateRole));
  EXPECT_EQ(store.shown().size(), 1u);
  EXPECT_EQ(store.compared().size(), 2u);  // hidden, still compared
  store.add_overlay(other(2.0, "Third GPU"));
  EXPECT_EQ(model->rowCount(), 3);
  // The person picks the pair: A = the third, B = the primary.
  panel.a_box()->setCurrentIndex(2);
  emit panel.a_box()->activated(2);
  panel.b_box()->setCurrentIndex(0);
  emit panel.b_box()->activated(0);
  EXPECT_EQ(store.compared_a(), 2);
  EXPECT_EQ(store.compared_b(), 0);
  EXPECT_EQ(store.compared()[0].label, "Third GPU");
  EXPECT_TRUE(store.close(1));
  EXPECT_EQ(model->rowCount(), 2);
  EXPECT_EQ(store.compared_a(), 1);  // the chosen pair follows its sessions
  EXPECT_TRUE(store.close(0));       // the primary: the next newest takes its place
  EXPECT_EQ(store.primary().device.name, "Third GPU");
  EXPECT_EQ(store.compared().size(), 0u);
}

TEST(AppSessions, RatioAndDifferenceChartsNameWhatTheyDraw) {
  const rl::Session a = test::sample_session("NVIDIA H200");
  const rl::Session b = other(2.0, "NVIDIA A100", 1);  // twice as slow, its last point missing
  const std::vector<ShownSession> ss{{&a, "H200"}, {&b, "A100"}};
  const charts::Chart ratio = build_chart("ladder_compare", ss, "neighbored");
  const charts::Chart diff = build_chart("ladder_compare_diff", ss, "neighbored");
  ASSERT_FALSE(diff.empty()) << diff.empty_hint.toStdString();
  EXPECT_EQ(ratio.title.toStdString(), "A100 against H200: speed-up per point");
  EXPECT_EQ(diff.title.toStdString(), "A100 minus H200: time difference per point");
  for (const charts::Chart* c : {&ratio, &diff}) {
    EXPECT_TRUE(c->subtitle.contains("A = H200 · B = A100")) << c->subtitle.toStdString();
    EXPECT_TRUE(c->subtitle.contains("N=2^20")) << c->subtitle.toStdString();
    EXPECT_TRUE(c->warnings.join(" ").contains("only in A, not drawn: Unroll8"))
        << c->warnings.join(" | ").toStdString();
  }
  // B - A in µs: 4 ms against 8 ms is 4000 µs slower, coloured "B slower".
  ASSERT_EQ(diff.series[1].name, "B slower");
  ASSERT_FALSE(diff.series[1].points.isEmpty());
  EXPECT_DOUBLE_EQ(diff.series[1].points.front().y, 4000);
  EXPECT_TRUE(diff.y.title.contains("µs"));
  // The store gives the comparison charts the chosen pair, hidden or not.
  SessionStore store;
  store.set_primary(a, "a.json");
  store.set_primary(b, "b.json");  // a kept, hidden
  EXPECT_EQ(store.shown().size(), 1u);
  bool listed = false;
  for (const ChartKind& k : store.chart_kinds()) listed = listed || k.id == "ladder_compare_diff";
  EXPECT_TRUE(listed);
  EXPECT_FALSE(store.chart("ladder_compare_diff").empty());
}
