#include "animation/gif_writer.h"

#include <QByteArray>
#include <QPainter>
#include <QSaveFile>

#include <gif_lib.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace rl::gui {

namespace {

int append_bytes(GifFileType* gif, const GifByteType* data, int length) {
  static_cast<QByteArray*>(gif->UserData)->append(reinterpret_cast<const char*>(data), length);
  return length;
}

QString gif_error(int code) {
  const char* text = GifErrorString(code);
  return QString("GIF encoder: %1").arg(text ? text : "unknown error");
}

struct GifCloser {
  void operator()(GifFileType* g) const {
    int ignored = 0;
    if (g) EGifCloseFile(g, &ignored);
  }
};

// The loop-forever extension (NETSCAPE2.0, repeat count 0), before the first frame.
bool add_loop_block(GifFileType* gif) {
  static const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType loop[] = {1, 0, 0};
  return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gif, sizeof(app), app) == GIF_OK &&
         EGifPutExtensionBlock(gif, sizeof(loop), loop) == GIF_OK &&
         EGifPutExtensionTrailer(gif) == GIF_OK;
}

// One frame: quantized to its own 256-colour palette, with its delay.
bool put_frame(GifFileType* gif, const QImage& rgb, int delay_cs, QString* error) {
  const int w = rgb.width(), h = rgb.height();
  const std::size_t n = std::size_t(w) * h;
  std::vector<GifByteType> r(n), g(n), b(n), index(n);
  for (int y = 0; y < h; ++y) {
    const uchar* line = rgb.constScanLine(y);
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      r[i] = line[3 * x];
      g[i] = line[3 * x + 1];
      b[i] = line[3 * x + 2];
    }
  }
  int colours = 256;
  GifColorType palette[256] = {};
  if (GifQuantizeBuffer(w, h, &colours, r.data(), g.data(), b.data(), index.data(), palette) !=
      GIF_OK) {
    *error = "GIF encoder: could not reduce a frame to 256 colours";
    return false;
  }
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSAL_UNSPECIFIED;
  gcb.DelayTime = delay_cs;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t ext_len = EGifGCBToExtension(&gcb, ext);
  std::unique_ptr<ColorMapObject, void (*)(ColorMapObject*)> map(GifMakeMapObject(256, palette),
                                                                 GifFreeMapObject);
  if (!map || EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(ext_len), ext) != GIF_OK ||
      EGifPutImageDesc(gif, 0, 0, w, h, false, map.get()) != GIF_OK) {
    *error = gif_error(gif->Error);
    return false;
  }
  for (int y = 0; y < h; ++y)
    if (EGifPutLine(gif, index.data() + std::size_t(y) * w, w) != GIF_OK) {
      *error = gif_error(gif->Error);
      return false;
    }
  return true;
}

}  // namespace

int gif_delay_for_speed(double steps_per_second) {
  if (!(steps_per_second > 0)) return 100;
  return std::clamp(int(std::lround(100.0 / steps_per_second)), 2, 6000);
}

bool write_animated_gif(const std::vector<QImage>& frames, int delay_cs, const QString& path,
                        QString* error) {
  QString ignored;
  QString& why = error ? *error : ignored;
  if (frames.empty()) {
    why = "Nothing to export: no frames.";
    return false;
  }
  if (delay_cs < 1 || delay_cs > 65535) {
    why = QString("Frame delay %1 (hundredths of a second) is out of range 1..65535").arg(delay_cs);
    return false;
  }
  int w = 0, h = 0;
  for (const QImage& f : frames) {
    w = std::max(w, f.width());
    h = std::max(h, f.height());
  }
  if (w < 1 || h < 1 || w > 65535 || h > 65535) {
    why = QString("Cannot write a %1 x %2 GIF").arg(w).arg(h);
    return false;
  }
  QByteArray bytes;
  int code = 0;
  std::unique_ptr<GifFileType, GifCloser> gif(EGifOpen(&bytes, append_bytes, &code));
  if (!gif) {
    why = gif_error(code);
    return false;
  }
  EGifSetGifVersion(gif.get(), true);  // GIF89a: delays and the loop extension
  if (EGifPutScreenDesc(gif.get(), w, h, 8, 0, nullptr) != GIF_OK || !add_loop_block(gif.get())) {
    why = gif_error(gif->Error);
    return false;
  }
  for (const QImage& f : frames) {
    QImage canvas(w, h, QImage::Format_RGB888);
    canvas.fill(Qt::white);
    QPainter(&canvas).drawImage(0, 0, f);
    if (!put_frame(gif.get(), canvas, delay_cs, &why)) return false;
  }
  GifFileType* raw = gif.release();
  if (EGifCloseFile(raw, &code) != GIF_OK) {
    why = gif_error(code);
    return false;
  }
  QSaveFile out(path);
  if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
    why = QString("Could not write %1: %2").arg(path, out.errorString());
    return false;
  }
  return true;
}

}  // namespace rl::gui
