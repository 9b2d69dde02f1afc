#include "chart_export.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryFile>

#include "charts/chart_widget.h"
#include "session_files.h"

namespace rl::gui {

namespace {

// The first line of a chart's empty state, "no size sweep in this session: ...".
QString why_empty(const charts::Chart& c) {
  const QString hint = c.empty_hint.section('\n', 0, 0).trimmed();
  return hint.isEmpty() ? QString("nothing to draw") : hint;
}

}  // namespace

bool write_all_charts(const std::vector<ShownSession>& sessions, const std::string& baseline,
                      TimeBasis basis, const QString& dir, QSize size, QStringList* written,
                      QString* error, QStringList* left_out,
                      const std::optional<LadderSetting>& ladder) {
  // Decide what can be drawn before touching the folder: an export with nothing in it fails
  // without creating anything.
  std::vector<charts::Chart> drawable;
  QStringList skipped;
  for (const ChartKind& kind : chart_kinds()) {
    charts::Chart c = build_chart(kind.id, sessions, baseline, basis, ladder);
    c.pointer_notes.clear();  // nobody hovers over an image
    if (c.empty())
      skipped << kind.id + ": " + why_empty(c);
    else
      drawable.push_back(std::move(c));
  }
  if (left_out) *left_out = skipped;
  if (drawable.empty()) {
    *error = QString("no chart has anything to draw in %1; left out:\n  %2")
                 .arg(qtext::time_basis_name(basis), skipped.join("\n  "));
    return false;
  }
  QDir folder(dir);
  if (!folder.exists() && !QDir().mkpath(dir)) {
    *error = QString("cannot create the folder %1").arg(dir);
    return false;
  }
  if (!QFileInfo(dir).isDir()) {
    *error = QString("%1 is not a folder").arg(dir);
    return false;
  }
  {
    // Say "not writable" up front rather than after the first chart was rendered.
    QTemporaryFile probe(folder.filePath(".reductionlab-write-test-XXXXXX"));
    if (!probe.open()) {
      *error = QString("cannot write into %1: %2").arg(dir, probe.errorString());
      return false;
    }
  }
  for (const charts::Chart& c : drawable) {
    const QString path = folder.filePath(c.id + ".png");
    if (!charts::write_chart_png(c, path, size, error)) return false;
    if (written) written->append(path);
  }
  return true;
}

bool export_session_charts(const QString& session_path, const QString& dir, QSize size,
                           QStringList* written, QString* error, TimeBasis basis,
                           QStringList* left_out, const std::optional<LadderChoice>& ladder) {
  std::optional<Session> session = read_session_file(session_path, error);
  if (!session) return false;
  std::optional<LadderSetting> setting;
  if (ladder) {
    std::string why;
    setting = find_ladder_setting(*session, *ladder, &why);
    if (!setting) {
      *error = "--setting: " + QString::fromStdString(why);
      return false;
    }
  }
  const std::string baseline =
      session->spec.baseline.empty() ? "neighbored" : session->spec.baseline;
  compute_speedups(session->results, baseline);
  return write_all_charts({ShownSession{&*session, QString()}}, baseline, basis, dir, size, written,
                          error, left_out, setting);
}

namespace {

// "1600x1000", as --size takes it.
QString size_text(QSize s) {
  return QString("%1x%2").arg(s.width()).arg(s.height());
}

// The window's options, in the order --help lists them.
struct Options {
  QCommandLineOption open{"open", "Open a saved session (JSON).", "SESSION"};
  QCommandLineOption kernel{"kernel",
                            "Open a kernel you wrote (a .cu file, docs/user-kernels.md) in the "
                            "Your kernel editor.",
                            "FILE.cu"};
  QCommandLineOption export_charts{
      "export-charts",
      "With --open: write every chart as DIR/<chart>.png and exit, without a window.", "DIR"};
  QCommandLineOption size{
      "size",
      QString("Size of exported charts in pixels (default %1).").arg(size_text(kDefaultExportSize)),
      "WxH"};
  QCommandLineOption time{"time",
                          "Which time the charts draw: whole (the whole reduction, default), "
                          "gpu (GPU time, the timestamps taken out) or first (the first kernel "
                          "alone, the classic ladder's timing).",
                          "whole|gpu|first"};
  QCommandLineOption setting{
      "setting",
      "With --export-charts: the N, block size and type the ladder charts "
      "draw, e.g. N=2^20,B=256,type=float32 (any part may be left out; "
      "default: the classic ladder's N=2^24, B=1024, int32 when the session holds "
      "it, else the setting with the most rungs).",
      "N=..,B=..,type=.."};
};

// What is wrong with the arguments naming files and folders; empty: nothing.
QString check_paths(const QCommandLineParser& parser, const Options& o, const CommandLine& out) {
  if (!parser.positionalArguments().isEmpty())
    return QString("unexpected argument '%1' (use --open SESSION)")
        .arg(parser.positionalArguments().first());
  // An empty value is a mistake, not "no value": without this, --export-charts "" would open
  // a window (which hangs where there is no display).
  if (parser.isSet(o.export_charts) && out.export_dir.isEmpty())
    return "--export-charts: empty folder name; give the folder for the charts";
  if (parser.isSet(o.open) && out.open.isEmpty())
    return "--open: empty file name; give the session to open";
  if (parser.isSet(o.export_charts) && out.open.isEmpty())
    return "--export-charts needs --open SESSION: which session to draw";
  if (parser.isSet(o.kernel) && out.kernel.isEmpty())
    return "--kernel: empty file name; give the .cu file to open";
  if (parser.isSet(o.kernel) && parser.isSet(o.export_charts))
    return "--kernel opens the editor in the window; not with --export-charts";
  if (parser.isSet(o.setting) && !parser.isSet(o.export_charts))
    return "--setting is for --export-charts; in the window, choose it on the Ladder page";
  return {};
}

// --size and --time into `out`; returns the error, empty when none.
QString parse_values(const QCommandLineParser& parser, const Options& o, CommandLine& out) {
  if (parser.isSet(o.size)) {
    static const QRegularExpression wxh(R"(^(\d{2,5})[xX](\d{2,5})$)");
    const auto m = wxh.match(parser.value(o.size));
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0,
              h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < kMinExportSize.width() || h < kMinExportSize.height() || w > kMaxExportSize.width() ||
        h > kMaxExportSize.height())
      return QString("--size '%1': expected WxH from %2 to %3, e.g. %4")
          .arg(parser.value(o.size), size_text(kMinExportSize), size_text(kMaxExportSize),
               size_text(kDefaultExportSize));
    out.size = QSize(w, h);
  }
  if (parser.isSet(o.time)) {
    const auto basis = parse_time_basis(parser.value(o.time));
    if (!basis)
      return QString("--time '%1': expected whole, gpu or first").arg(parser.value(o.time));
    out.time_basis = *basis;
  }
  if (parser.isSet(o.setting)) {
    std::string why;
    out.ladder = parse_ladder_choice(parser.value(o.setting).toStdString(), &why);
    if (!out.ladder) return "--setting: " + QString::fromStdString(why);
  }
  return {};
}

}  // namespace

CommandLine parse_command_line(const QStringList& arguments) {
  CommandLine out;
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "ReductionLab: run the CUDA reduction ladder, watch what each optimisation buys.");
  parser.addHelpOption();
  const Options o;
  parser.addOptions({o.open, o.kernel, o.export_charts, o.size, o.time, o.setting});
  out.help_text = parser.helpText();
  if (!parser.parse(arguments)) {
    out.error = parser.errorText();
    return out;
  }
  out.help = parser.isSet("help");
  out.open = parser.value(o.open);
  out.kernel = parser.value(o.kernel);
  out.export_dir = parser.value(o.export_charts);
  out.error = check_paths(parser, o, out);
  if (out.error.isEmpty()) out.error = parse_values(parser, o, out);
  return out;
}

}  // namespace rl::gui
