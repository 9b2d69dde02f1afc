#include "story/story_view.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "animation/block_view.h"
#include "code_highlighters.h"
#include "engine/code/code_view.h"
#include "engine/report/format.h"
#include "run_worker.h"
#include "slide_mode.h"
#include "story/story_bars.h"

namespace rl::gui {

namespace {

QLabel* wrapped_label(const QString& name) {
  auto* l = new QLabel;
  l->setObjectName(name);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::NoTextInteraction);
  return l;
}

}  // namespace

StoryView::StoryView(Story story, Session session, RunController* jobs, double zoom,
                     QWidget* parent)
    : QWidget(parent),
      story_(std::move(story)),
      session_(std::move(session)),
      jobs_(jobs),
      zoom_(clamp_slide_zoom(zoom)),
      saved_font_(QApplication::font()) {
  setObjectName("story_view");
  setWindowTitle("ReductionLab: " + QString::fromStdString(story_.title));
  set_slide_look(this);
  build_ui();
  if (jobs_) {
    connect(jobs_, &RunController::measured, this, &StoryView::on_measured);
    connect(jobs_, &RunController::measure_failed, this, &StoryView::on_measure_failed);
    // A GPU, or why there is none: host times would be CPU times beside the session's GPU bars.
    auto from_discovery = [this](const Discovery& d) {
      if (!d.gpus.empty()) return set_run_device(d.gpus.front().index);
      set_run_device(std::nullopt, "no GPU here; the bars are the session's",
                     QString::fromStdString(d.no_gpu_reason));
    };
    connect(jobs_, &RunController::discovered, this, from_discovery);
    if (jobs_->discovery())
      from_discovery(*jobs_->discovery());
    else
      unavailable_ = "looking for a GPU";
  }
  resolve();
  fill_step();
}

void StoryView::build_ui() {
  heading_ = wrapped_label("story_heading");
  caption_ = wrapped_label("story_caption");
  numbers_ = wrapped_label("story_numbers");
  source_ = wrapped_label("story_source");
  counter_ = wrapped_label("story_counter");
  code_title_ = wrapped_label("story_code_title");
  animation_note_ = wrapped_label("story_animation_note");
  footer_ = new QLabel;
  status_ = wrapped_label("story_run_status");
  footer_->setStyleSheet("color: #444444;");
  status_->setStyleSheet("color: #444444;");
  counter_->setStyleSheet("color: #333333;");
  source_->setStyleSheet("color: #555555;");
  bars_ = new StoryBars;
  code_ = new QPlainTextEdit;
  code_->setObjectName("story_code");
  code_->setReadOnly(true);
  code_->setLineWrapMode(QPlainTextEdit::WidgetWidth);  // a slide never scrolls sideways
  code_->setFocusPolicy(Qt::NoFocus);                   // the clicker's keys stay with the story
  new DiffHighlighter(code_->document());
  block_ = new BlockView;
  block_->installEventFilter(this);
  block_->set_compact(true);
  run_ = new QPushButton("Run this step now (R)");
  run_->setObjectName("story_run");
  run_->setFocusPolicy(Qt::NoFocus);
  connect(run_, &QPushButton::clicked, this, [this] { run_step(); });
  timer_ = new QTimer(this);
  timer_->setInterval(kStoryTickMs);
  connect(timer_, &QTimer::timeout, this, &StoryView::tick_animation);

  // Left: the ladder and its numbers; right: the code change over the block animation.
  auto* left = new QVBoxLayout;
  left->addWidget(bars_, 1);
  left->addWidget(numbers_);
  left->addWidget(source_);
  left->addWidget(counter_);
  auto* right = new QVBoxLayout;
  right->addWidget(code_title_);
  right->addWidget(code_, 1);  // the block takes the height it needs, the code the rest
  right->addWidget(block_);
  right->addWidget(animation_note_);
  auto* middle = new QHBoxLayout;
  middle->addLayout(left, 1);
  middle->addLayout(right, 1);
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(footer_, 1);
  bottom->addWidget(status_, 1);
  bottom->addWidget(run_);
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(16, 10, 16, 6);
  root->addWidget(heading_);
  root->addWidget(caption_);
  root->addLayout(middle, 1);
  root->addLayout(bottom);
}

void StoryView::start() {
  apply_font();
  show_step(0);
  setFocus();
}

void StoryView::apply_font() {
  const QFont f = slide_font(*this, saved_font_, zoom_);
  QApplication::setFont(f);
  QFont heading = f;
  heading.setBold(true);
  heading.setPointSizeF(f.pointSizeF() * 1.3);
  heading_->setFont(heading);
  QFont bold = f;
  bold.setBold(true);
  numbers_->setFont(bold);
  // Secondary text a step smaller, never below what reads from the back of a room.
  QFont small = f;
  small.setPointSizeF(std::max(10.0, f.pointSizeF() * 0.8));
  for (QWidget* w : std::initializer_list<QWidget*>{counter_, source_, footer_, status_,
                                                    animation_note_, run_, code_title_})
    w->setFont(small);
  // The block view writes its step caption and counters in its own font: smaller still, so a
  // 128-thread block and its table fit half the screen.
  QFont block = f;
  block.setPointSizeF(std::max(9.0, f.pointSizeF() * 0.7));
  block_->setFont(block);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setFamily("DejaVu Sans Mono");
  mono.setPointSizeF(std::max(9.0, f.pointSizeF() * 0.7));
  code_->setFont(mono);
  fill_step();
}

void StoryView::set_zoom(double zoom) {
  if (!change_slide_zoom(zoom_, zoom)) return;
  apply_font();
  emit zoom_changed(zoom_);
}

void StoryView::resolve() {
  resolved_ = resolve_story(story_, session_, live_, &code::point_source_diff);
}

void StoryView::show_step(int index) {
  const int previous = step_;
  step_ = std::clamp(index, 0, step_count() - 1);
  // Moved forward to a step the room has not seen: it guesses first (step 1 is x1 by definition).
  predicting_ = predict_ && step_ > 0 && step_ > previous && !revealed_.count(step_);
  typed_.clear();
  if (!predicting_) revealed_.insert(step_);
  fill_step();
}

void StoryView::fill_step() {
  const ResolvedStep& s = resolved_.steps.at(std::size_t(step_));
  heading_->setText(heading_text());
  caption_->setText(QString::fromStdString(s.step.caption));
  // While the room guesses, the numbers that would give the answer away wait for the reveal.
  QString numbers = QString::fromStdString(story_numbers_line(resolved_, std::size_t(step_)));
  if (const auto g = guess(step_); g && !predicting_)
    numbers += QString(" · the room guessed %1").arg(QString::fromStdString(format_speedup(*g)));
  numbers_->setText(predicting_ ? prompt_text() : numbers);
  source_->setText(predicting_
                       ? QString()
                       : QString::fromStdString(story_source_line(resolved_, std::size_t(step_))));
  counter_->setText(counter_text());
  bars_->set_story(resolved_, step_);
  bars_->set_guesses(guesses_);
  bars_->set_current_hidden(predicting_);
  fill_code(s);
  fill_animation(s);
  footer_->setText(QString("%1 / %2 · %3 · PageUp: back · P: predict %4 · Esc: leave")
                       .arg(step_ + 1)
                       .arg(step_count())
                       .arg(predicting_ ? "Enter / PageDown: reveal" : "PageDown / Space: next")
                       .arg(predict_ ? "on" : "off"));
  update_run_button();
}

QString StoryView::heading_text() const {
  const ResolvedStep& s = resolved_.steps.at(std::size_t(step_));
  return QString("%1 · %2 / %3 · %4")
      .arg(QString::fromStdString(resolved_.title))
      .arg(step_ + 1)
      .arg(step_count())
      .arg(QString::fromStdString(s.step.title));
}

QString StoryView::caption_text() const {
  return caption_->text();
}
QString StoryView::numbers_text() const {
  return numbers_->text() + "\n" + source_->text();
}
QString StoryView::counter_text() const {
  return QString::fromStdString(resolved_.steps.at(std::size_t(step_)).counter.text);
}
QString StoryView::code_text() const {
  return code_->toPlainText();
}
QString StoryView::run_status() const {
  return run_status_;
}

void StoryView::keyPressEvent(QKeyEvent* event) {
  if (predict_key(event)) return;
  const SlideControls controls{step_, step_count(), zoom_, [this](int i) { show_step(i); },
                               [this](double z) { set_zoom(z); }};
  if (handle_slide_key(*event, this, controls)) return;
  // R alone runs the step (the button says so); Ctrl+R is passed on.
  if (event->key() == kRunStepKey && !(event->modifiers() & Qt::ControlModifier)) {
    run_step();
    return;
  }
  QWidget::keyPressEvent(event);
}

void StoryView::closeEvent(QCloseEvent* event) {
  timer_->stop();
  QApplication::setFont(saved_font_);
  emit closed();
  QWidget::closeEvent(event);
}

}  // namespace rl::gui
