// Predict, then reveal: before a step's bar arrives the room guesses its speed-up over step 1;
// the presenter types the guess (digits) and reveals the bar with Enter or the clicker's next
// key. The guess stays marked beside the measured bar; nothing is measured or changed by it.
#include <QKeyEvent>
#include <QLabel>

#include "engine/report/format.h"
#include "slide_mode.h"
#include "story/story_bars.h"
#include "story/story_view.h"

namespace rl::gui {

namespace {
constexpr int kMaxGuessChars = 6;  // "1234.5": a speed-up, not an essay
}  // namespace

void StoryView::set_predict(bool on) {
  if (on == predict_) return;
  predict_ = on;
  // Turned off while the room guesses: the bar is shown at once.
  if (!on && predicting_) {
    predicting_ = false;
    revealed_.insert(step_);
  }
  fill_step();
  emit predict_changed(on);
}

std::optional<double> StoryView::guess(int step) const {
  const auto it = guesses_.find(step);
  if (it == guesses_.end()) return std::nullopt;
  return it->second;
}

void StoryView::reveal() {
  if (!predicting_) return;
  bool ok = false;
  const double g = QString(typed_).replace(',', '.').toDouble(&ok);
  if (ok && g > 0) guesses_[step_] = g;
  predicting_ = false;
  typed_.clear();
  revealed_.insert(step_);
  fill_step();
}

QString StoryView::prompt_text() const {
  return QString("What speed-up over step 1 do you expect? %1")
      .arg(typed_.isEmpty() ? QString("Type a guess (e.g. 4.5), then Enter to reveal.")
                            : QString("Guess: ×%1 · Enter to reveal").arg(typed_));
}

bool StoryView::predict_key(QKeyEvent* event) {
  const bool plain = !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier));
  if (event->key() == kPredictKey && plain) {
    set_predict(!predict_);
    return true;
  }
  if (!predicting_ || !plain) return false;
  const QString text = event->text();
  if (text.size() == 1 && (text[0].isDigit() || text[0] == '.' || text[0] == ',')) {
    if (typed_.size() < kMaxGuessChars) typed_ += text;
    numbers_->setText(prompt_text());
    return true;
  }
  switch (event->key()) {
    case Qt::Key_Backspace:  // edits the guess; back to the previous step only with none typed
      if (typed_.isEmpty()) return false;
      typed_.chop(1);
      numbers_->setText(prompt_text());
      return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
    case Qt::Key_PageDown:
    case Qt::Key_Right:
    case Qt::Key_Down:
      reveal();
      return true;
    default:
      return false;
  }
}

}  // namespace rl::gui
