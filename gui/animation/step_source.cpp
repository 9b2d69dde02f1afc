// The animation's source strip (step_source.h).
#include "animation/step_source.h"

#include <QApplication>
#include <QCheckBox>
#include <QEvent>
#include <QFontDatabase>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

#include "animation/block_animation.h"
#include "code_highlighters.h"
#include "engine/code/step_source.h"

namespace rl::gui {

namespace {

// Lines of code the strip asks for: four (a step's loop and its barrier) keep the transport in
// view at 1366x768; three at the least; on a taller window it grows, up to ten.
constexpr int kPreferredLines = 4;
constexpr int kMinimumLines = 3;
constexpr int kMaximumLines = 10;

// A read-only code view whose height is counted in lines of its font.
// One line, never wider than the panel: a caption longer than the room ends in "…" (its tooltip
// holds it whole). A wrapping label would ask the tab's scroll area for height the views need at
// 1366x768; a clipped one would cut words in half.
class ElidedCaption : public QLabel {
 public:
  using QLabel::QLabel;
  void set_full_text(const QString& text) {
    full_ = text;
    setToolTip(text);
    fit();
  }
  const QString& full_text() const { return full_; }

 protected:
  void resizeEvent(QResizeEvent* event) override {
    QLabel::resizeEvent(event);
    fit();
  }

 private:
  void fit() {
    const QString shown = fontMetrics().elidedText(full_, Qt::ElideRight, width());
    if (text() != shown) setText(shown);
  }
  QString full_;
};

class StripEdit : public QPlainTextEdit {
 public:
  using QPlainTextEdit::QPlainTextEdit;
  QSize sizeHint() const override {
    return {QPlainTextEdit::sizeHint().width(), height_for(kPreferredLines)};
  }
  QSize minimumSizeHint() const override {
    return {QPlainTextEdit::minimumSizeHint().width(), height_for(kMinimumLines)};
  }
  int height_for(int lines) const {
    return lines * fontMetrics().lineSpacing() + 2 * frameWidth() +
           2 * int(document()->documentMargin());
  }
};

std::string key_of(const Trace& t) {
  return t.variant + "|" + std::to_string(t.block_size) + "|" + std::to_string(t.unroll) + "|" +
         std::string(to_string(t.type)) + "|" + std::string(to_string(t.workspace));
}

QString short_phase(const std::string& phase) {
  return QString::fromStdString(phase).section(':', 0, 0);
}

}  // namespace

StepSourceStrip::StepSourceStrip(QWidget* parent) : QWidget(parent) {
  setObjectName("step_source");
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(0, 0, 0, 0);
  root->setSpacing(2);
  auto* head = new QHBoxLayout;
  toggle_ = new QCheckBox("Show source", this);
  toggle_->setObjectName("show_source");
  toggle_->setChecked(true);
  toggle_->setToolTip("the first view's kernel, with the lines of the current step highlighted");
  caption_ = new ElidedCaption(this);
  caption_->setObjectName("source_caption");
  caption_->setTextFormat(Qt::PlainText);
  caption_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  head->addWidget(toggle_);
  head->addWidget(caption_, 1);
  root->addLayout(head);
  code_ = new StripEdit(this);
  code_->setObjectName("source_strip");
  code_->setReadOnly(true);
  code_->setLineWrapMode(QPlainTextEdit::NoWrap);
  code_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  code_->setFocusPolicy(Qt::ClickFocus);  // the panel keeps its keys (Space, arrows, PageDown)
  new CudaHighlighter(code_->document());
  code_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);  // the views grow
  root->addWidget(code_, 1);
  apply_font();
  connect(toggle_, &QCheckBox::toggled, this, [this](bool on) {
    code_->setVisible(on);
    caption_->setVisible(on);
    emit code_shown_changed(on);
  });
}

void StepSourceStrip::set_code_shown(bool on) {
  toggle_->setChecked(on);
}

bool StepSourceStrip::code_shown() const {
  return toggle_->isChecked();
}

void StepSourceStrip::set_caption(const QString& text) {
  static_cast<ElidedCaption*>(caption_)->set_full_text(text);
}

QString StepSourceStrip::caption() const {
  return static_cast<const ElidedCaption*>(caption_)->full_text();
}

void StepSourceStrip::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  // Presentation mode's larger text reaches the strip as a font change.
  if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
    apply_font();
}

void StepSourceStrip::apply_font() {
  const QFont mono =
      code_font(font().pointSizeF() > 0 ? font().pointSizeF() : QApplication::font().pointSizeF());
  code_->setFont(mono);
  code_->setMaximumHeight(static_cast<StripEdit*>(code_)->height_for(kMaximumLines) +
                          code_->horizontalScrollBar()->sizeHint().height());
  code_->updateGeometry();  // its height is counted in lines of this font
  mark();
}

void StepSourceStrip::load(const Trace& t) {
  const std::string key = key_of(t);
  if (key == entry_key_) return;
  entry_key_ = key;
  entry_.reset();
  load_error_.clear();
  try {
    code::CodeQuery q;
    q.variant = t.variant;
    q.block_size = t.block_size;
    q.unroll = t.unroll;
    q.type = t.type;
    q.workspace = t.workspace;
    entry_ = code::find_code(q);
  } catch (const std::exception& e) {  // a shape the code view has no entry for
    load_error_ = e.what();
  }
  QStringList text;
  if (entry_)
    for (const code::SourceLine& l : entry_->source)
      text << (l.file_line > 0 ? QString("%1  ").arg(l.file_line, 4) : QString(6, ' ')) +
                  QString::fromStdString(l.text);
  code_->setPlainText(text.join('\n'));
}

void StepSourceStrip::show_step(const Trace* t, int frame) {
  if (t == trace_ && frame == frame_) return;
  trace_ = t;
  frame_ = frame;
  lines_.clear();
  if (t == nullptr) {
    entry_key_.clear();
    entry_.reset();
    code_->clear();
    set_caption("No trace to show the source of.");
    mark();
    return;
  }
  load(*t);
  const QString kernel = QString::fromStdString(t->label.empty() ? t->variant : t->label);
  const int steps = int(t->steps.size());
  if (!entry_) {
    set_caption(kernel + ": no source (" + QString::fromStdString(load_error_) + ")");
  } else if (frame <= 0 || frame > steps) {
    set_caption(kernel +
                ": the block as the kernel starts; step through to see each "
                "step's lines.");
  } else {
    const TraceStep& s = t->steps[frame - 1];
    const code::StepLines found = code::step_lines(*entry_, *t, std::size_t(frame - 1));
    lines_ = found.lines;
    QString head =
        QString("Step %1 of %2, %3").arg(frame).arg(steps).arg(QString::fromStdString(s.kind));
    if (s.stride > 0) head += QString(", stride %1").arg(s.stride);
    if (lines_.empty()) {
      set_caption(head + ": no source line highlighted, " + QString::fromStdString(found.reason) +
                  ".");
    } else {
      const code::SourceLine &a = entry_->source[lines_.front()],
                             &b = entry_->source[lines_.back()];
      const QString where = a.file_line == b.file_line
                                ? QString("line %1").arg(a.file_line)
                                : QString("lines %1-%2").arg(a.file_line).arg(b.file_line);
      const QString phase = short_phase(found.phase);
      if (phase != QString::fromStdString(s.kind)) head += " (" + phase + ")";
      set_caption(head + ": " + where + " of " + QString::fromStdString(a.file));
    }
  }
  mark();
}

// The step's lines on the phase colour the Code view would not use (amber), the first one
// scrolled to the middle of the strip.
void StepSourceStrip::mark() {
  QList<QTextEdit::ExtraSelection> marks;
  for (int i : lines_) {
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(code_->document()->findBlockByNumber(i));
    s.format.setBackground(QColor(255, 214, 102));
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    marks << s;
  }
  code_->setExtraSelections(marks);
  if (lines_.empty()) {
    // Before the first step: the kernel's signature at the top, not the comment above it.
    for (int i = 0; entry_ && i < int(entry_->source.size()); ++i)
      if (entry_->source[i].in_kernel &&
          entry_->source[i].text.find("__global__") != std::string::npos) {
        code_->verticalScrollBar()->setValue(i);
        break;
      }
    return;
  }
  // QPlainTextEdit scrolls by lines: the value is the first visible block.
  const int shown = std::max(1, code_->viewport()->height() / code_->fontMetrics().lineSpacing());
  const int span = lines_.back() - lines_.front() + 1;
  const int top = lines_.front() - std::max(0, (shown - span) / 2);
  code_->verticalScrollBar()->setValue(std::max(0, top));
}

// The panel's side: the box lives in the strip, the panel passes it on (the app remembers it).
void BlockAnimationPanel::set_source_shown(bool on) {
  source_strip_->set_code_shown(on);
}

bool BlockAnimationPanel::source_shown() const {
  return source_strip_->code_shown();
}

}  // namespace rl::gui
