// The GUI tests' wait for the event loop: what a layout, a rebuilt chart or a queued raise of a
// chart's value axis posts is handled before a test looks.
#pragma once

#include <QCoreApplication>
#include <QTest>

namespace rl::gui::test {

// Posted events handled, then wait_ms of the event loop (timers, queued calls they post), then the
// events those posted.
inline void settle_events(int wait_ms) {
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
  QTest::qWait(wait_ms);
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents();
}

}  // namespace rl::gui::test
