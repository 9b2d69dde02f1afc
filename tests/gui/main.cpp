// The GUI tests' main(): offscreen unless told otherwise (no display on CI), one QApplication
// set up as the app's own (bundled font, metatypes), then every test.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "app_setup.h"

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // Tests must not read or overwrite a user's settings, nor each other's: ctest runs them as
  // parallel processes, so each process keeps its settings in a folder of its own.
  QStandardPaths::setTestModeEnabled(true);
  QTemporaryDir settings_dir;
  if (settings_dir.isValid()) {
    for (QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat})
      QSettings::setPath(format, QSettings::UserScope, settings_dir.path());
  }
  QApplication app(argc, argv);
  rl::gui::setup_application("ReductionLabTests");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
