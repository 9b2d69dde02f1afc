// The block animation's exports: the frame shown, or every frame of the trace, as PNG files
// written as every file of the app is (session_files.h write_png_file: atomic, the reason on
// failure).
#include <QDir>
#include <QImage>
#include <QPainter>

#include <algorithm>

#include "animation/block_animation.h"
#include "animation/block_view.h"
#include "animation/hierarchy_view.h"
#include "session_files.h"

namespace rl::gui {

QImage BlockAnimationPanel::render_frame() const {
  if (levels_shown()) {
    QImage img(hierarchy_->size(), QImage::Format_ARGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    hierarchy_->render(&p, QPoint(0, 0));
    return img;
  }
  const bool both = side_by_side();
  const QSize a = view_a_->size(), b = both ? view_b_->size() : QSize(0, 0);
  QImage img(a.width() + b.width(), std::max(a.height(), b.height()), QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter p(&img);
  view_a_->render(&p, QPoint(0, 0));
  if (both) view_b_->render(&p, QPoint(a.width(), 0));
  return img;
}

bool BlockAnimationPanel::export_frame(const QString& path, QString* error) {
  if (frame_count() == 0) {
    if (error) *error = "Nothing to export: no trace is shown.";
    return false;
  }
  QString why;
  if (write_png_file(render_frame(), path, &why)) return true;
  if (error) *error = why;
  return false;
}

std::vector<QImage> BlockAnimationPanel::render_all_frames() {
  const bool was_playing = playing();
  set_playing(false);
  const int keep = frame_;
  std::vector<QImage> frames;
  for (int f = 0; f < frame_count(); ++f) {
    show_frame(f, 1.0);
    frames.push_back(render_frame());
  }
  show_frame(keep, 1.0);
  set_playing(was_playing);
  return frames;
}

int BlockAnimationPanel::export_sequence(const QString& directory, QString* error) {
  if (frame_count() == 0) {
    if (error) *error = "Nothing to export: no trace is shown.";
    return -1;
  }
  if (!QDir().mkpath(directory)) {
    if (error) *error = "Could not create " + directory;
    return -1;
  }
  const std::vector<QImage> frames = render_all_frames();
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const QString path =
        QDir(directory).filePath(QString("frame_%1.png").arg(int(f), 4, 10, QChar('0')));
    QString why;
    if (!write_png_file(frames[f], path, &why)) {
      if (error) *error = why;
      return -1;
    }
  }
  return int(frames.size());
}

}  // namespace rl::gui
