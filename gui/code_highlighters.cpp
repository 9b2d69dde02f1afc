#include "code_highlighters.h"

#include <QFontDatabase>
#include <QFontInfo>

#include <functional>

namespace rl::gui {

namespace {

QTextCharFormat coloured(const QColor& fg, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(fg);
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

void highlight_comments(QSyntaxHighlighter* h, const QString& text,
                        const std::function<void(int, int, const QTextCharFormat&)>& set) {
  (void)h;
  const int at = text.indexOf("//");
  if (at >= 0) set(at, static_cast<int>(text.size()) - at, coloured(QColor(0x6a, 0x73, 0x7d)));
}

}  // namespace

QColor sass_class_color(code::SassClass c) {
  switch (c) {
    case code::SassClass::Barrier:
      return QColor(0xff, 0xc9, 0xc9);  // red: every thread of the block waits here
    case code::SassClass::Shuffle:
      return QColor(0xe5, 0xd4, 0xff);
    case code::SassClass::Branch:
      return QColor(0xff, 0xe3, 0xb8);
    case code::SassClass::Load:
      return QColor(0xcf, 0xe8, 0xff);
    case code::SassClass::Store:
      return QColor(0xd3, 0xf5, 0xd3);
    case code::SassClass::Other:
      break;
  }
  return QColor();
}

CudaHighlighter::CudaHighlighter(QTextDocument* doc)
    : QSyntaxHighlighter(doc),
      keywords_(R"(\b(template|typename|const|constexpr|if|else|for|return|unsigned|int|bool|)"
                R"(void|using|volatile|auto|static_cast|reinterpret_cast|std::size_t|T|float)\b)"),
      cuda_(R"(\b(__global__|__device__|__forceinline__|__shared__|__syncthreads|__syncwarp|)"
            R"(__shfl_down_sync|__reduce_add_sync|__launch_bounds__|threadIdx|blockIdx|)"
            R"(blockDim|gridDim|atomicAdd|__threadfence|__ldg|__ldcg)\b|#pragma unroll|)"
            R"(#if|#else|#endif)"),
      numbers_(R"(\b\d+\b)") {}

void CudaHighlighter::highlightBlock(const QString& text) {
  auto apply = [&](const QRegularExpression& re, const QTextCharFormat& f) {
    for (auto it = re.globalMatch(text); it.hasNext();) {
      const auto m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), f);
    }
  };
  apply(numbers_, coloured(QColor(0x09, 0x86, 0x58)));
  apply(keywords_, coloured(QColor(0x00, 0x33, 0xb3), true));
  apply(cuda_, coloured(QColor(0x8f, 0x00, 0x8f), true));
  highlight_comments(this, text,
                     [this](int a, int n, const QTextCharFormat& f) { setFormat(a, n, f); });
}

SassHighlighter::SassHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {}

void SassHighlighter::highlightBlock(const QString& text) {
  const std::string line = text.toStdString();
  const std::string_view op = code::sass_opcode(line);
  if (op.empty()) {
    highlight_comments(this, text,
                       [this](int a, int n, const QTextCharFormat& f) { setFormat(a, n, f); });
    return;
  }
  const code::SassClass c = code::classify_opcode(op);
  const int at = static_cast<int>(text.indexOf(QString::fromUtf8(op.data(), op.size())));
  QTextCharFormat f = coloured(QColor(0x1f, 0x23, 0x28), c != code::SassClass::Other);
  if (c != code::SassClass::Other) {
    // The whole instruction gets the class colour, so a barrier stands out when scrolling.
    QTextCharFormat line_format;
    line_format.setBackground(sass_class_color(c));
    setFormat(0, static_cast<int>(text.size()), line_format);
    f.setBackground(sass_class_color(c));
  }
  setFormat(at, static_cast<int>(op.size()), f);
  const int addr_end = static_cast<int>(text.indexOf("*/"));
  if (addr_end > 0) setFormat(0, addr_end + 2, coloured(QColor(0x8b, 0x94, 0x9e)));
}

DiffHighlighter::DiffHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {}

void DiffHighlighter::highlightBlock(const QString& text) {
  QTextCharFormat f;
  if (text.startsWith("+++") || text.startsWith("---")) {
    f.setFontWeight(QFont::Bold);
  } else if (text.startsWith("+ ")) {
    f.setBackground(QColor(0xd7, 0xf5, 0xdd));
    f.setForeground(QColor(0x05, 0x50, 0x1e));
  } else if (text.startsWith("- ")) {
    f.setBackground(QColor(0xff, 0xdc, 0xe0));
    f.setForeground(QColor(0x82, 0x07, 0x1e));
  } else {
    return;
  }
  setFormat(0, static_cast<int>(text.size()), f);
}

QFont code_font(double point_size) {
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (!QFontInfo(mono).fixedPitch()) {
    mono = QFont("DejaVu Sans Mono");
    mono.setStyleHint(QFont::Monospace);
  }
  mono.setPointSizeF(point_size);
  return mono;
}

}  // namespace rl::gui
