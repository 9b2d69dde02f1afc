// Pictures of real recorded timelines for docs/, taken only when asked, from a session file that
// holds them (the bundled H200 session):
//   RL_GUI_SCREENSHOTS=/tmp/shots RL_TIMELINE_SESSION=resources/sessions/h200-ladder.json \
//     ./build/tests/gui_tests --gtest_filter='TimelineDocsScreens.*'
// Two rungs side by side on one time axis, and a kernel past the ladder alone, at a projector's
// and a laptop's size.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>

#include "animation/timeline_panel.h"
#include "animation/timeline_view.h"
#include "engine/io/session_file.h"

namespace rl::gui {
namespace {

int index_of(const Session& s, const std::string& label) {
  for (std::size_t i = 0; i < s.timelines.size(); ++i)
    if (s.timelines[i].label == label) return int(i);
  return -1;
}

void show(TimelinePanel& p, int first, int second) {
  auto* a = p.findChild<QComboBox*>("stored_first");
  auto* b = p.findChild<QComboBox*>("stored_second");
  a->setCurrentIndex(first);
  emit a->activated(first);
  b->setCurrentIndex(second + 1);  // entry 0: nothing beside it
  emit b->activated(second + 1);
}

TEST(TimelineDocsScreens, RecordedRungsSideBySideAndAKernelPastTheLadder) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  const QString path = qEnvironmentVariable("RL_TIMELINE_SESSION");
  if (dir.isEmpty() || path.isEmpty())
    GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR and RL_TIMELINE_SESSION=FILE to take pictures";
  QDir().mkpath(dir);
  auto s = std::make_shared<const Session>(session_from_json_file(path.toStdString()));
  const int neighbored = index_of(*s, "reduceNeighbored");
  const int interleaved = index_of(*s, "reduceInterleaved");
  const int single_pass = index_of(*s, "single_pass");
  ASSERT_GE(neighbored, 0);
  ASSERT_GE(interleaved, 0);
  for (QSize size : {QSize(1024, 768), QSize(1366, 768)}) {
    const QString wxh = QString("%1x%2").arg(size.width()).arg(size.height());
    TimelinePanel p;
    p.set_session(s, "bundled session");
    show(p, neighbored, interleaved);
    ASSERT_EQ(p.view()->timeline_count(), 2);
    p.resize(size);
    p.show();
    QApplication::processEvents();
    p.grab().save(QDir(dir).filePath("timeline_neighbored_interleaved_" + wxh + ".png"));
    if (single_pass >= 0) {
      show(p, single_pass, -1);
      QApplication::processEvents();
      p.grab().save(QDir(dir).filePath("timeline_single_pass_" + wxh + ".png"));
    }
  }
}

}  // namespace
}  // namespace rl::gui
