// A chart rendered without a widget, for the exports: an image, a PNG or an SVG file at the size
// asked for, laid out as a large screen would show it. The files are written as every file of
// the app is (session_files.h: atomic, locked against a CLI writing the same file, the reason on
// failure).
#include <QBuffer>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>

#include "charts/chart_scene.h"
#include "charts/chart_widget.h"
#include "session_files.h"

namespace rl::gui::charts {

namespace {

// Lays the chart out now, not on the next event loop turn; again while ChartScene's fitting to
// the plot (category labels wrapped or turned, room for bar labels) asks for another layout.
void lay_out(ChartScene& built, QChart* chart) {
  for (int round = 0; round < 6 && chart->layout(); ++round) {
    chart->layout()->activate();
    built.apply_pending_raise();
  }
}

// The chart laid out as an export draws it: at a logical size of at most about 1300 x 850, so a
// large file scales the whole chart up (text included) rather than spreading small text over a
// wide page. PNG and SVG both use it: the same size gives the same text.
struct ExportLayout {
  QSize size;
  double scale = 1;
  QSizeF logical;
  explicit ExportLayout(QSize wanted) : size(wanted.expandedTo(QSize(64, 64))) {
    scale = std::max(1.0, std::min(size.width() / 1300.0, size.height() / 850.0));
    logical = QSizeF(size.width() / scale, size.height() / scale);
  }
};

void lay_out_for_export(ChartScene& built, QChart* chart, const ExportLayout& l) {
  built.fit_legend(l.logical.width());
  chart->setGeometry(QRectF(QPointF(0, 0), l.logical));
  lay_out(built, chart);
}

}  // namespace

QImage render_chart(const Chart& data, QSize wanted, bool high_contrast) {
  const ExportLayout l(wanted);
  QGraphicsScene scene;
  auto* chart = new QChart;  // owned by the scene
  scene.addItem(chart);
  ChartScene built(data, chart, nullptr, high_contrast);
  lay_out_for_export(built, chart, l);
  QImage image(l.size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(l.size)), chart->sceneBoundingRect());
  painter.end();
  return image;
}

bool write_chart_png(const Chart& chart, const QString& path, QSize size, QString* error) {
  return write_png_file(render_chart(chart, size), path, error);
}

bool write_chart_svg(const Chart& data, const QString& path, QSize size, QString* error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  const ExportLayout l(size);
  QGraphicsScene scene;
  auto* chart = new QChart;
  scene.addItem(chart);
  ChartScene built(data, chart);
  lay_out_for_export(built, chart, l);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(l.size);
  svg.setViewBox(QRect(QPoint(0, 0), l.size));
  // Text in points becomes pixels at the device's resolution: the PNG's (an image's 96 dpi),
  // not the SVG generator's default 72, which drew every text three quarters as large.
  svg.setResolution(QImage(1, 1, QImage::Format_ARGB32).logicalDpiX());
  svg.setTitle(data.title);
  svg.setDescription(data.subtitle);
  QPainter painter(&svg);
  painter.fillRect(QRect(QPoint(0, 0), l.size), Qt::white);
  scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(l.size)), chart->sceneBoundingRect());
  painter.end();
  return write_text_file(path, std::string_view(bytes.constData(), std::size_t(bytes.size())),
                         error);
}

}  // namespace rl::gui::charts
