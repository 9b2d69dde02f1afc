// The GUI tests' main(): offscreen unless told otherwise (no display on CI), one QApplication
// set up as the app's own (bundled font, metatypes), then every test.
#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardPaths>

#include "app_setup.h"

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // Tests must not read or overwrite a user's settings.
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  rl::gui::setup_application("ReductionLabTests");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
