// The Code view's pages: source with the phases marked, the diff, SASS with its counts, and the
// resources with theoretical occupancy.
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>

#include "code_diff_view.h"
#include "code_highlighters.h"
#include "code_panel.h"
#include "engine/code/point_match.h"
#include "engine/report/format.h"

namespace rl::gui {

namespace {

// One light colour per phase, in the variant's phase order.
QColor phase_color(int i) {
  static const QColor kColors[] = {QColor(0xe8, 0xf1, 0xfb), QColor(0xfd, 0xf1, 0xdc),
                                   QColor(0xea, 0xf7, 0xe6), QColor(0xf4, 0xe8, 0xf8),
                                   QColor(0xfb, 0xe9, 0xe9)};
  return kColors[i % 5];
}

QString chip(const QColor& c, const QString& text) {
  return QString("<span style='background:%1'>&nbsp;%2&nbsp;</span>")
      .arg(c.name(), text.toHtmlEscaped());
}

}  // namespace

void CodePanel::show_source() {
  const VariantInfo* v = entry_.variant;
  QStringList lines;
  if (metrics_) fit_sample_columns(metrics_->source);
  for (std::size_t i = 0; i < entry_.source.size(); ++i) {
    const code::SourceLine& l = entry_.source[i];
    lines << (metrics_ ? sample_column(metrics_->source[i]) : QString()) +
                 (l.file_line > 0 ? QString("%1  ").arg(l.file_line, 4) : QString(6, ' ')) +
                 QString::fromStdString(l.text);
  }
  source_->setPlainText(lines.join('\n'));
  // Phases: each marked line gets its phase's background, and the legend says which is which.
  QList<QTextEdit::ExtraSelection> marks;
  QStringList legend;
  for (std::size_t p = 0; v != nullptr && p < v->phases.size(); ++p) {
    const QString phase = QString::fromStdString(v->phases[p]);
    legend << chip(phase_color(static_cast<int>(p)), phase.section(':', 0, 0));
  }
  for (int i = 0; i < static_cast<int>(entry_.source.size()); ++i) {
    const std::string& phase = entry_.source[i].phase;
    if (phase.empty() || v == nullptr) continue;
    const auto it = std::find(v->phases.begin(), v->phases.end(), phase);
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(source_->document()->findBlockByNumber(i));
    s.format.setBackground(phase_color(static_cast<int>(it - v->phases.begin())));
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    s.format.setToolTip(QString::fromStdString(phase));
    marks << s;
  }
  if (metrics_) mark_sample_heat(source_, metrics_->source, marks);
  source_->setExtraSelections(marks);
  phases_->setText(v == nullptr ? QString::fromStdString(entry_.missing)
                                : "<b>" + QString::fromStdString(v->display_name) +
                                      "</b> &nbsp;phases: " + legend.join(" "));
}

void CodePanel::show_diff() {
  if (entry_.variant == nullptr) {
    diff_->clear();
    return;
  }
  const QString chosen = compare_->currentData().toString();
  const auto starter = user_starters_.find(entry_.variant->id);
  if (chosen.isEmpty() && starter != user_starters_.end() && !starter->second.second.isEmpty()) {
    show_user_diff(starter->second.first, starter->second.second);
    return;
  }
  const VariantInfo* from = nullptr;
  from = chosen.isEmpty() ? code::previous_rung(*entry_.variant)
                          : find_variant_by_id(chosen.toStdString());
  if (from == nullptr) {
    diff_note_->setText("the first rung: nothing before it");
    diff_->setPlainText(QString::fromStdString(entry_.source_text()));
    side_by_side_->show_rows({}, "", QString::fromStdString(entry_.variant->id));
    return;
  }
  // The other variant at the same shape where it takes it, else at its own defaults.
  code::CodeQuery q = entry_.query;
  q.variant = from->id;
  code::CodeEntry other;
  try {
    other = code::find_code(q);
  } catch (const std::exception&) {
    other = code::find_code(code::CodeQuery{from->id, 0, 0, q.type});
  }
  const auto diff = code::source_diff(other, entry_);
  const code::DiffStats s = code::diff_stats(diff);
  diff_note_->setText(
      s.removed == 0 && s.added == 0
          ? QString("<b>%1</b> → <b>%2</b>: no source line differs (%3 lines, the same in both)")
                .arg(QString::fromStdString(from->id), QString::fromStdString(entry_.variant->id))
                .arg(s.same)
          : QString("<b>%1</b> → <b>%2</b>: %3 lines removed, %4 added")
                .arg(QString::fromStdString(from->id), QString::fromStdString(entry_.variant->id))
                .arg(s.removed)
                .arg(s.added));
  diff_->setPlainText(
      QString::fromStdString(code::format_diff(diff, from->id, entry_.variant->id)));
  side_by_side_->show_rows(code::side_by_side(diff), QString::fromStdString(from->id),
                           QString::fromStdString(entry_.variant->id));
}

// A kernel the user wrote against the text it was copied from: what the user changed.
void CodePanel::show_user_diff(const QString& label, const QString& text) {
  code::CodeEntry from;
  int n = 0;
  for (const QString& line : text.split('\n'))
    from.source.push_back({line.toStdString(), label.toStdString(), ++n, true, ""});
  if (!from.source.empty() && from.source.back().text.empty()) from.source.pop_back();
  const auto diff = code::source_diff(from, entry_);
  const code::DiffStats s = code::diff_stats(diff);
  const QString to = QString::fromStdString(entry_.variant->id);
  diff_note_->setText(QString("<b>%1</b> → <b>%2</b>: %3 lines removed, %4 added")
                          .arg(label, to)
                          .arg(s.removed)
                          .arg(s.added));
  diff_->setPlainText(
      QString::fromStdString(code::format_diff(diff, label.toStdString(), to.toStdString())));
  side_by_side_->show_rows(code::side_by_side(diff), label, to);
}

void CodePanel::show_sass() {
  const std::string arch = arch_->currentText().toStdString();
  const auto it = entry_.sass.find(arch);
  if (it == entry_.sass.end()) {
    sass_->setPlainText(entry_.missing.empty()
                            ? QString("No SASS for %1 in this build.").arg(arch_->currentText())
                            : "SASS is unavailable: " + QString::fromStdString(entry_.missing));
    counts_->setText("");
    return;
  }
  QList<QTextEdit::ExtraSelection> marks;
  if (metrics_ && metrics_->arch == arch) {
    QStringList lines;
    const auto text = code::split_lines(it->second);
    fit_sample_columns(metrics_->sass);
    for (std::size_t i = 0; i < text.size(); ++i)
      lines << sample_column(metrics_->sass[i]) + QString::fromStdString(text[i]);
    sass_->setPlainText(lines.join('\n'));
    mark_sample_heat(sass_, metrics_->sass, marks);
  } else {
    sass_->setPlainText(QString::fromStdString(it->second));
  }
  sass_->setExtraSelections(marks);
  const code::SassCounts c = code::count_sass(it->second);
  using code::SassClass;
  counts_->setText(
      QString("%1 instructions &nbsp;").arg(c.instructions) +
      chip(sass_class_color(SassClass::Barrier), QString("BAR %1").arg(c.barrier)) + " " +
      chip(sass_class_color(SassClass::Shuffle), QString("SHFL %1").arg(c.shuffle)) + " " +
      chip(sass_class_color(SassClass::Branch), QString("BRA/BSSY/BSYNC %1").arg(c.branch)) + " " +
      chip(sass_class_color(SassClass::Load), QString("loads %1").arg(c.load)) + " " +
      chip(sass_class_color(SassClass::Store), QString("stores %1").arg(c.store)));
}

QString CodePanel::measured_occupancy_html() const {
  const PointResult* p = code::occupancy_point(*sampled_, entry_.query);
  if (p == nullptr) return {};
  QString html =
      QString("<p><b>On %1</b> (the CUDA occupancy API, as this session recorded it at N=%2):")
          .arg(QString::fromStdString(sampled_->device.name).toHtmlEscaped(),
               QString::fromStdString(format_size(p->point.size)));
  html +=
      "<table cellpadding='4'><tr><th align='left'>kernel</th><th>grid x block</th>"
      "<th>registers</th><th>local</th><th>shared static + dynamic</th>"
      "<th align='left'>resident per SM</th></tr>";
  for (const KernelOccupancy& k : p->occupancy)
    html += QString(
                "<tr><td>%1</td><td align='right'>%2 x %3</td><td align='right'>%4</td>"
                "<td align='right'>%5 B</td><td align='right'>%6 + %7 B</td>"
                "<td>%8 blocks, %9 of %10 warps (%11%)</td></tr>")
                .arg(QString::fromStdString(k.role).replace('_', ' '))
                .arg(k.grid)
                .arg(k.block)
                .arg(k.registers)
                .arg(k.local_bytes)
                .arg(k.static_shared)
                .arg(k.dynamic_shared)
                .arg(k.blocks_per_sm)
                .arg(k.warps_per_sm())
                .arg(k.max_warps_per_sm)
                .arg(k.fraction() * 100, 0, 'f', 0);
  return html + "</table></p>";
}

void CodePanel::show_resources() {
  if (entry_.variant == nullptr) {
    resources_->setText(QString::fromStdString(entry_.missing).toHtmlEscaped());
    return;
  }
  const code::CodeQuery& q = entry_.query;
  QString html = QString("<p><b>%1</b> &nbsp; B=%2 U=%3 %4 %5</p>")
                     .arg(QString::fromStdString(entry_.variant->display_name).toHtmlEscaped())
                     .arg(q.block_size ? QString::number(q.block_size) : "CUB's own")
                     .arg(q.unroll)
                     .arg(QString::fromUtf8(rl::to_string(q.type).data()),
                          QString::fromUtf8(rl::to_string(*q.workspace).data()));
  if (!entry_.missing.empty())
    html += "<p>" + QString::fromStdString(entry_.missing).toHtmlEscaped() + "</p>";
  html +=
      "<table cellpadding='4'><tr><th align='left'>arch</th><th>registers</th>"
      "<th>local (spills)</th><th>shared static + dynamic</th>"
      "<th align='left'>theoretical occupancy</th></tr>";
  for (const std::string& arch : code::archs_in_order(entry_.resources)) {
    const code::Resources& r = entry_.resources.at(arch);
    const code::SassCounts c =
        code::count_sass(entry_.sass.count(arch) ? entry_.sass.at(arch) : "");
    const auto o = entry_.occupancy(arch);
    html += QString(
                "<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3 B "
                "(%4 STL, %5 LDL)</td><td align='right'>%6 + %7 B</td><td>%8</td></tr>")
                .arg(QString::fromStdString(arch))
                .arg(r.registers)
                .arg(r.local)
                .arg(c.local_store)
                .arg(c.local_load)
                .arg(entry_.static_shared(arch))
                .arg(entry_.dynamic_shared)
                .arg(o ? QString("%1% (%2 warps, %3 blocks per SM; limit: %4)")
                             .arg(o->fraction * 100, 0, 'f', 0)
                             .arg(o->warps_per_sm)
                             .arg(o->blocks_per_sm)
                             .arg(QString::fromStdString(o->limiter))
                       : QString("block size chosen by CUB"));
  }
  html +=
      "</table><p>Occupancy from the recorded resource usage with the CUDA occupancy "
      "calculator's formula (no GPU asked; static shared memory is the kernel's own, and the "
      "formula "
      "adds the 1 KB per block the system reserves on sm_80 and later).</p>" +
      measured_occupancy_html() + "<p>Kernels:</p><ul>";
  for (const std::string& f : entry_.functions)
    html += "<li><tt>" + QString::fromStdString(f).toHtmlEscaped() + "</tt></li>";
  resources_->setText(html + "</ul>");
}

}  // namespace rl::gui
