// reductionlab: the desktop app. `reductionlab [--open SESSION]` opens the window;
// `reductionlab --open SESSION --export-charts DIR [--size WxH] [--time whole|gpu|first]` writes
// every chart as PNG (drawn from the whole reduction, the GPU time or the first kernel) and
// exits (no window, no display needed): 0 on success, 1 when a file cannot be read or written
// (or, without --export-charts, when there is no display), 2 for bad arguments; the reason goes
// to stderr.
#include <QApplication>
#include <QTextStream>

#include <cstdio>

#include "app_setup.h"
#include "chart_export.h"
#include "main_window.h"
#include "session_store.h"

int main(int argc, char** argv) {
  // Arguments first: a typo gets its message even where no window could open.
  QStringList arguments;
  for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  const rl::gui::CommandLine early = rl::gui::parse_command_line(arguments);
  if (!early.error.isEmpty()) {
    std::fprintf(stderr, "reductionlab: %s\n", qPrintable(early.error));
    return 2;
  }
  const bool headless = early.help || !early.export_dir.isEmpty();
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
    if (headless) {
      qputenv("QT_QPA_PLATFORM", "offscreen");
    }
#if defined(Q_OS_LINUX)
    else if (qEnvironmentVariableIsEmpty("DISPLAY") &&
             qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
      // Qt would abort with a core dump; say what to do instead.
      std::fprintf(stderr,
                   "reductionlab: no display (DISPLAY and WAYLAND_DISPLAY are unset). Without one, "
                   "write the charts with --open SESSION --export-charts DIR, run experiments "
                   "with reductionlab-cli, or set QT_QPA_PLATFORM=offscreen.\n");
      return 1;
    }
#endif
  }

  QApplication app(argc, argv);
  rl::gui::setup_application();
  QTextStream out(stdout), err(stderr);
  const rl::gui::CommandLine cl = rl::gui::parse_command_line(app.arguments());
  if (cl.help) {
    out << cl.help_text;
    return 0;
  }
  if (!cl.export_dir.isEmpty()) {
    QStringList written, left_out;
    QString error;
    if (!rl::gui::export_session_charts(cl.open, cl.export_dir, cl.size, &written, &error,
                                        cl.time_basis.value_or(rl::gui::TimeBasis::Whole),
                                        &left_out, cl.ladder)) {
      err << "reductionlab: " << error << "\n";
      return 1;
    }
    for (const QString& path : written) out << path << "\n";
    // Listed once, on stderr: stdout stays the list of files written.
    if (!left_out.isEmpty())
      err << "reductionlab: not written (nothing to draw):\n  " << left_out.join("\n  ") << "\n";
    return 0;
  }
  rl::gui::MainWindow window;
  if (cl.time_basis) window.store()->set_time_basis(*cl.time_basis);
  window.show();
  // Read as a job, as File > Open does: the window is up at once with the bytes read in view.
  if (!cl.open.isEmpty()) window.open_session_in_background(cl.open);
  if (!cl.kernel.isEmpty()) window.open_kernel(cl.kernel);
  return app.exec();
}
