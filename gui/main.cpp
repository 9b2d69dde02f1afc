// reductionlab: the desktop app. `reductionlab [--open SESSION]` opens the window;
// `reductionlab --open SESSION --export-charts DIR [--size WxH]` writes every chart as PNG and
// exits (no window, no display needed): 0 on success, 1 when a file cannot be read or written,
// 2 for bad arguments; the reason goes to stderr.
#include <QApplication>
#include <QTextStream>

#include <cstring>

#include "app_setup.h"
#include "chart_export.h"
#include "main_window.h"

int main(int argc, char** argv) {
  bool headless = false;
  for (int i = 1; i < argc; ++i)
    headless = headless || std::strncmp(argv[i], "--export-charts", 15) == 0 ||
               std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
  if (headless && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");

  QApplication app(argc, argv);
  rl::gui::setup_application();
  QTextStream out(stdout), err(stderr);
  const rl::gui::CommandLine cl = rl::gui::parse_command_line(app.arguments());
  if (!cl.error.isEmpty()) {
    err << "reductionlab: " << cl.error << "\n";
    return 2;
  }
  if (cl.help) {
    out << cl.help_text;
    return 0;
  }
  if (!cl.export_dir.isEmpty()) {
    QStringList written;
    QString error;
    if (!rl::gui::export_session_charts(cl.open, cl.export_dir, cl.size, &written, &error)) {
      err << "reductionlab: " << error << "\n";
      return 1;
    }
    for (const QString& path : written) out << path << "\n";
    return 0;
  }
  rl::gui::MainWindow window;
  window.show();
  if (!cl.open.isEmpty()) window.open_session(cl.open);
  return app.exec();
}
