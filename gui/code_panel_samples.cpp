// The Code view's per-line metrics (issue 11, item 3): a session's warp samples for the shown
// instantiation, as a column in front of each source and SASS line (its share of the kernel's
// samples and its largest stall) with a heat background, and a summary over the pages. The
// placing is the engine's (engine/code/line_metrics.h); this file only presents it.
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>

#include "code_panel.h"
#include "engine/report/format.h"

namespace rl::gui {

namespace {

constexpr int kColumn = 28;  // "100.0% math pipe throttle" and a separator

QString reason_words(const std::string& reason) {
  return QString::fromStdString(reason).replace('_', ' ');
}

}  // namespace

void CodePanel::set_sampled_session(const Session& session) {
  sampled_ = Session{};
  sampled_.device = session.device;
  for (const PointResult& r : session.results)
    if ((r.line_samples && !r.line_samples->functions.empty()) || !r.occupancy.empty())
      sampled_.results.push_back(r);
  refresh();
}

void CodePanel::compute_line_metrics() {
  metrics_.reset();
  samples_->hide();
  samples_->clear();
  if (entry_.variant == nullptr || sampled_.results.empty()) return;
  const PointResult* p = code::sampled_point(sampled_, entry_.query);
  if (p == nullptr) return;
  const PointLineSamples& s = *p->line_samples;
  metrics_ = code::line_metrics(entry_, s);
  QStringList top;
  const std::uint64_t total = metrics_->kernel.total;
  for (const auto& [reason, n] : metrics_->kernel.reasons)
    if (top.size() < 4 && total > 0)
      top << QString("%1% %2")
                 .arg(100.0 * double(n) / double(total), 0, 'f', 0)
                 .arg(reason_words(reason));
  QString html =
      QString(
          "<b>Where the warps were</b> at N=%1 (CUPTI PC sampling on %2, %3, a sample every "
          "2<sup>%4</sup> cycles, %5 launches, %6 samples): %7. The column before each line: "
          "its share of the samples and the largest reason it waited. A wait is counted at the "
          "instruction the warp waits to issue: a barrier's shows just after the "
          "__syncthreads() (in a loop, on its head).")
          .arg(QString::fromStdString(format_size(p->point.size)),
               QString::fromStdString(sampled_.device.name).toHtmlEscaped(),
               QString::fromStdString(s.arch))
          .arg(s.period_log2)
          .arg(s.launches)
          .arg(total)
          .arg(top.join(", "));
  for (const std::string& note : metrics_->notes)
    html += "<br>" + QString::fromStdString(note).toHtmlEscaped();
  samples_->setText(html);
  samples_->show();
}

QString CodePanel::sample_column(const code::ReasonSamples& line) const {
  QString note;
  if (metrics_ && line.total > 0) {
    const double share = 100.0 * double(line.total) / double(metrics_->kernel.total);
    const std::string stall = line.top_stall();
    note = QString("%1% %2")
               .arg(share, 5, 'f', 1)
               .arg(stall.empty() ? "issuing" : reason_words(stall));
  }
  return note.leftJustified(kColumn - 2, ' ', true) + "| ";
}

// The column's background: from none to a strong orange with the line's share of the samples,
// so the lines where the warps wait stand out from across a room.
void CodePanel::mark_sample_heat(QPlainTextEdit* page,
                                 const std::vector<code::ReasonSamples>& lines,
                                 QList<QTextEdit::ExtraSelection>& marks) const {
  std::uint64_t most = 0;
  for (const code::ReasonSamples& l : lines) most = std::max(most, l.total);
  if (most == 0) return;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (lines[static_cast<std::size_t>(i)].total == 0) continue;
    const double heat = double(lines[static_cast<std::size_t>(i)].total) / double(most);
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(page->document()->findBlockByNumber(i));
    s.cursor.movePosition(QTextCursor::StartOfBlock);
    s.cursor.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, kColumn - 2);
    s.format.setBackground(QColor(255, int(255 - 120 * heat), int(255 - 230 * heat)));
    marks << s;
  }
}

QString CodePanel::samples_text() const {
  return samples_->isVisible() || metrics_ ? samples_->text() : QString();
}

}  // namespace rl::gui
