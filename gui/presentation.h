// Presentation mode (F5 in the window; Esc or F5 leaves): full screen, one chart at a time, text
// scaled for a room. PageDown / Space / Right (what clickers send) step forward, PageUp / Left /
// Backspace back, Home / End jump; Ctrl+= and Ctrl+- make the text larger or smaller, H switches
// the high-contrast look (both remembered by the window).
// Pages are the charts that have something to draw for the sessions shown, in the window's order,
// then each measured warp timeline the shown session stores (one a page, its summary under it).
// Shift+F5 (the window's Story menu) leaves it for story mode (story/story_view.h).
#pragma once

#include <QFont>
#include <QStringList>
#include <QWidget>

#include "slide_mode.h"  // presentation_point_size, shared with story mode

class QLabel;
class QStackedWidget;

namespace rl::gui {

namespace charts {
class ChartWidget;
}
class SessionStore;
class TimelineView;

class PresentationView : public QWidget {
  Q_OBJECT
 public:
  // zoom: the presenter's text factor (1 = presentation_point_size's default).
  PresentationView(SessionStore* store, double zoom, QWidget* parent = nullptr);

  // Sets the application font for the room; the previous font comes back when the view closes.
  void start();
  // Chart ids, then "timeline:N" for the shown session's timeline N.
  const QStringList& pages() const { return pages_; }
  int page() const { return page_; }
  void show_page(int index);  // clamped to the pages
  double zoom() const { return zoom_; }
  void set_zoom(double zoom);  // 0.5..3, text resized at once
  charts::ChartWidget* chart_widget() const { return chart_; }
  // The timeline pages' view, and whether the page shown is one of them.
  TimelineView* timeline_view() const { return timeline_; }
  bool showing_timeline() const;
  // High contrast (on by default; H toggles it): thicker lines, bigger markers, darker colours.
  void set_high_contrast(bool on);
  bool high_contrast() const;

 signals:
  void zoom_changed(double zoom);
  void high_contrast_changed(bool on);
  void closed();

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  void collect_pages();
  void apply_font();
  void show_timeline(int index);  // into the shown session's timelines
  SessionStore* store_;
  double zoom_;
  QStringList pages_;
  int page_ = 0;
  charts::ChartWidget* chart_;
  TimelineView* timeline_;
  QLabel* timeline_summary_;
  QStackedWidget* stack_;  // the chart, or the timeline page
  QLabel* footer_;
  QFont saved_font_;  // the app's font, back when the view closes
};

}  // namespace rl::gui
