// An animated GIF of rendered frames (the block animation's "Export animated GIF..."), through
// giflib: each frame quantized to 256 colours (GifQuantizeBuffer, median cut, its own palette),
// a frame delay in hundredths of a second, looping forever. Written whole or not at all: the
// bytes are encoded in memory and committed with QSaveFile (a temporary file, then a rename).
#pragma once

#include <QImage>
#include <QString>

#include <vector>

namespace rl::gui {

// Frames of different sizes are drawn at the top left of a canvas the size of the largest, on
// white. Returns false and says why in *error (no frames, a delay out of range, the encoder's
// message, the file system's).
bool write_animated_gif(const std::vector<QImage>& frames, int delay_cs, const QString& path,
                        QString* error);

// 100 / steps per second, clamped to 2..6000 hundredths (what viewers honour).
int gif_delay_for_speed(double steps_per_second);

}  // namespace rl::gui
