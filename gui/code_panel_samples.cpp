// The Code view's per-line metrics: a session's warp samples and executed-
// instruction counts for the shown instantiation, as columns in front of each source and SASS
// line (its share of the kernel's samples and its largest stall; its executed instructions and
// thread efficiency) with a heat background, and a summary over the pages. The placing is the
// engine's (engine/code/line_metrics.h); this file only presents it.
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>

#include <algorithm>
#include <utility>

#include "code_panel.h"
#include "engine/report/format.h"

namespace rl::gui {

namespace {

QString reason_words(const std::string& reason) {
  return QString::fromStdString(reason).replace('_', ' ');
}

}  // namespace

void CodePanel::set_sampled_session(std::shared_ptr<const Session> session) {
  sampled_ = session ? std::move(session) : std::make_shared<const Session>();
  if (!show_sampled_shape()) refresh();
}

// Where the shown instantiation has no line samples and the session has some for this variant
// (the bundled session samples at B=1024, the view opens at 256), the view moves to that
// instantiation: line samples are never hidden behind a setting the person did not choose.
bool CodePanel::show_sampled_shape() {
  if (entry_.variant == nullptr) return false;
  if (code::sampled_point(*sampled_, entry_.query) != nullptr) return false;
  for (const PointResult& r : sampled_->results) {
    if (!r.line_samples || r.line_samples->functions.empty() ||
        r.point.variant != entry_.variant->id)
      continue;
    show_variant(QString::fromStdString(r.point.variant), r.point.block_size, r.point.unroll,
                 r.point.type, r.point.workspace);
    return true;
  }
  return false;
}

void CodePanel::compute_line_metrics() {
  metrics_.reset();
  samples_->hide();
  samples_->clear();
  if (entry_.variant == nullptr || sampled_->results.empty()) return;
  const PointResult* p = code::sampled_point(*sampled_, entry_.query);
  if (p == nullptr) return;
  const PointLineSamples& s = *p->line_samples;
  metrics_ = code::line_metrics(entry_, s);
  const QString size = QString::fromStdString(format_size(p->point.size));
  const QString gpu = QString::fromStdString(sampled_->device.name).toHtmlEscaped();
  QStringList parts;
  if (has_samples()) {
    QStringList top;
    const std::uint64_t total = metrics_->kernel.total;
    for (const auto& [reason, n] : metrics_->kernel.reasons)
      if (top.size() < 4 && total > 0)
        top << QString("%1% %2")
                   .arg(100.0 * double(n) / double(total), 0, 'f', 0)
                   .arg(reason_words(reason));
    parts << QString(
                 "<b>Where the warps were</b> at N=%1 (CUPTI PC sampling on %2, %3, a sample every "
                 "2<sup>%4</sup> cycles, %5 launches, %6 samples): %7. The column before each "
                 "line: its share of the samples and the largest reason it waited. A wait is "
                 "counted at the instruction the warp waits to issue: a barrier's shows just after "
                 "the __syncthreads() (in a loop, on its head).")
                 .arg(size, gpu, QString::fromStdString(s.arch))
                 .arg(s.period_log2)
                 .arg(s.launches)
                 .arg(total)
                 .arg(top.join(", "));
  }
  if (metrics_->counted) {
    const code::ReasonSamples& k = metrics_->kernel;
    parts << QString(
                 "<b>What ran</b> at N=%1 (CUPTI's SASS metrics on %2, %3, %4 launch of each "
                 "step): %5 warp instructions, %6% of their threads active. The %7column before "
                 "each line: the warp instructions it executed and the share of a warp's 32 "
                 "threads active in them (below 100% where a branch diverged or threads sat out).")
                 .arg(size, gpu, QString::fromStdString(s.arch))
                 .arg(s.counted_launches)
                 .arg(QString::fromStdString(code::short_count(k.inst_executed)))
                 .arg(100.0 * k.thread_efficiency(), 0, 'f', 1)
                 .arg(has_samples() ? "second " : "");
  }
  QString html = parts.join("<br>");
  for (const std::string& note : metrics_->notes)
    html += "<br>" + QString::fromStdString(note).toHtmlEscaped();
  samples_->setText(html);
  samples_->show();
}

bool CodePanel::has_samples() const {
  return metrics_ && (metrics_->sampled || !metrics_->counted);
}

// A line's share of the samples and its largest stall ("37.2% barrier"); "" for none.
QString CodePanel::sample_note(const code::ReasonSamples& line) const {
  if (line.total == 0 || !metrics_ || metrics_->kernel.total == 0) return {};
  const double share = 100.0 * double(line.total) / double(metrics_->kernel.total);
  const std::string stall = line.top_stall();
  return QString("%1% %2")
      .arg(share, 5, 'f', 1)
      .arg(stall.empty() ? "issuing" : reason_words(stall));
}

// Each column as wide as its widest note on the page about to be filled (and a separator), so
// the code keeps the width the notes do not need: at 1366 pixels the source is read, not cut.
void CodePanel::fit_sample_columns(const std::vector<code::ReasonSamples>& lines) {
  sample_width_ = count_width_ = 2;
  for (const code::ReasonSamples& l : lines) {
    sample_width_ = std::max(sample_width_, int(sample_note(l).size()) + 2);
    count_width_ = std::max(count_width_, int(code::count_note(l).size()) + 2);
  }
}

// The columns in front of a line: its share of the samples and its largest stall where the point
// was sampled; its executed instructions and thread efficiency where it was counted.
QString CodePanel::sample_column(const code::ReasonSamples& line) const {
  QString out;
  if (has_samples()) out += sample_note(line).leftJustified(sample_width_ - 2, ' ', true) + "| ";
  if (metrics_ && metrics_->counted)
    out +=
        QString::fromStdString(code::count_note(line)).leftJustified(count_width_ - 2, ' ', true) +
        "| ";
  return out;
}

// The columns' backgrounds: from none to a strong orange with the line's share of the samples,
// so the lines where the warps wait stand out from across a room; from none to a light blue
// with its share of the executed instructions, so the lines that run most do (dark text on it).
void CodePanel::mark_sample_heat(QPlainTextEdit* page,
                                 const std::vector<code::ReasonSamples>& lines,
                                 QList<QTextEdit::ExtraSelection>& marks) const {
  auto mark = [&](int start, int width, auto value, auto colour, bool dark_text) {
    std::uint64_t most = 0;
    for (const code::ReasonSamples& l : lines) most = std::max(most, value(l));
    if (most == 0) return;
    for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
      const std::uint64_t v = value(lines[static_cast<std::size_t>(i)]);
      if (v == 0) continue;
      QTextEdit::ExtraSelection s;
      s.cursor = QTextCursor(page->document()->findBlockByNumber(i));
      s.cursor.movePosition(QTextCursor::StartOfBlock);
      s.cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, start);
      s.cursor.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, width);
      s.format.setBackground(colour(double(v) / double(most)));
      // The SASS page greys everything before an instruction's address: dark on the blue.
      if (dark_text) s.format.setForeground(QColor(0x1f, 0x23, 0x28));
      marks << s;
    }
  };
  if (!metrics_) return;
  const bool samples = has_samples();
  if (samples)
    mark(
        0, sample_width_ - 2, [](const code::ReasonSamples& l) { return l.total; },
        [](double heat) { return QColor(255, int(255 - 120 * heat), int(255 - 230 * heat)); },
        false);
  if (metrics_->counted)
    mark(
        samples ? sample_width_ : 0, count_width_ - 2,
        [](const code::ReasonSamples& l) { return l.inst_executed; },
        [](double heat) { return QColor(int(255 - 105 * heat), int(255 - 60 * heat), 255); }, true);
}

QString CodePanel::samples_text() const {
  return samples_->isVisible() || metrics_ ? samples_->text() : QString();
}

}  // namespace rl::gui
