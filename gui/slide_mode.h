// What presentation mode (presentation.h) and story mode (story/story_view.h) share: the keys a
// clicker sends and the presenter's text keys, the text size for a room and its zoom's bounds,
// the room's look. One copy for both, so the two full-screen modes cannot drift apart; each view
// keeps its own extra keys (H: contrast in presentation mode; R: run the step, P: predict, then
// reveal in story mode).
#pragma once

#include <QFont>
#include <QList>
#include <QString>

#include <functional>

class QKeyEvent;
class QWidget;

namespace rl::gui {

// What a shared key asks of a slide view.
struct SlideMove {
  enum Kind { None, Show, Zoom, Leave };
  Kind kind = None;  // None: not a shared key; the view's own keys, then QWidget's
  int index = 0;     // Show: the slide to show, not clamped (the view clamps)
  double zoom = 1;   // Zoom: the text factor wanted, not clamped (set_zoom clamps)
};

// A key (or keys that do the same) and what it does, as Help > Keyboard shortcuts lists it.
struct KeyHelp {
  QString keys;
  QString what;
};

// Each view's own key beside the shared ones: named once, for its handler and for the help page.
inline constexpr Qt::Key kContrastKey = Qt::Key_H;  // presentation mode: high contrast
inline constexpr Qt::Key kRunStepKey = Qt::Key_R;   // story mode: run this step now
inline constexpr Qt::Key kPredictKey = Qt::Key_P;   // story mode: the room guesses before a bar

// PageDown / Space / Right / Down: next; PageUp / Backspace / Left / Up: back; Home / End: the
// first / last; Esc / F5: leave; Ctrl+= (or Ctrl++) / Ctrl+- / Ctrl+0: text larger (×1.15),
// smaller, back to 1. index / count: the slide shown and how many; zoom: the text factor now.
// The factor moves on a grid of whole steps (1.15^n), so Ctrl+= then Ctrl+- gives it back.
SlideMove slide_move(const QKeyEvent& event, int index, int count, double zoom);
// The shared keys as slide_move reads them, for the help page.
QList<KeyHelp> slide_key_help();

// A slide view's side of slide_move: the slide shown, how many, the text factor, and how to
// change them.
struct SlideControls {
  int index = 0;
  int count = 0;
  double zoom = 1;
  std::function<void(int)> show;
  std::function<void(double)> set_zoom;
};

// Does what a shared key asks (Leave closes view); false when the key is not one of them.
bool handle_slide_key(const QKeyEvent& event, QWidget* view, const SlideControls& controls);

// The text factor within the presenter's bounds (0.5 to 3).
double clamp_slide_zoom(double zoom);
// Sets zoom to wanted, clamped; false when that leaves it as it was (nothing to redo).
bool change_slide_zoom(double& zoom, double wanted);

// The text size for a room: about 1/54 of the screen's height (20 pt at 1080 lines, 14 pt at
// 768, 40 pt at 2160), times the presenter's zoom; never below 12 pt.
double presentation_point_size(int screen_height, double zoom);
// base at presentation_point_size for the screen view is on (the primary screen before it is
// shown; 1080 lines without one).
QFont slide_font(const QWidget& view, const QFont& base, double zoom);

// The room's look, before the view is shown: black on white whatever the desktop's theme,
// deleted when closed, and keyboard focus so the clicker's keys reach the view.
void set_slide_look(QWidget* view);

}  // namespace rl::gui
