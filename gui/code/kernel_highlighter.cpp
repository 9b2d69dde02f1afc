#include "code/kernel_highlighter.h"

#include <QSet>

#include <algorithm>
#include <optional>

namespace rl::gui {

namespace {

constexpr int kNormal = 0;
constexpr int kInBlockComment = 1;

QSet<QString> word_set(const char* words) {
  const QStringList list = QString(words).split(' ', Qt::SkipEmptyParts);
  return QSet<QString>(list.begin(), list.end());
}

const QSet<QString>& keywords() {
  static const QSet<QString> words = word_set(
      "alignas alignof asm auto break case catch class const constexpr const_cast continue "
      "decltype default delete do dynamic_cast else enum explicit extern false for friend goto if "
      "inline mutable namespace new noexcept nullptr operator private protected public register "
      "reinterpret_cast return sizeof static static_assert static_cast struct switch template "
      "this throw true try typedef typename union using virtual volatile while");
  return words;
}

const QSet<QString>& types() {
  static const QSet<QString> words = word_set(
      "void bool char short int long unsigned signed float double size_t int8_t int16_t int32_t "
      "int64_t uint8_t uint16_t uint32_t uint64_t float2 float4 int2 int4 uint2 uint4 longlong2 "
      "double2 half dim3 T");
  return words;
}

// Built-ins without the double underscore every CUDA intrinsic and qualifier has.
const QSet<QString>& cuda_words() {
  static const QSet<QString> words = word_set("threadIdx blockIdx blockDim gridDim warpSize");
  return words;
}

std::optional<KernelHighlighter::Token> classify(const QString& word) {
  using Token = KernelHighlighter::Token;
  if (word.startsWith("RL_")) return Token::ContractMacro;
  if (word.startsWith("__") || cuda_words().contains(word)) return Token::Cuda;
  // atomicAdd, atomicCAS, ...: the device's atomics.
  if (word.size() > 6 && word.startsWith("atomic") && word[6].isUpper()) return Token::Cuda;
  if (keywords().contains(word)) return Token::Keyword;
  if (types().contains(word)) return Token::Type;
  return std::nullopt;
}

bool is_word_char(QChar c) {
  return c.isLetterOrNumber() || c == '_';
}

}  // namespace

KernelHighlighter::KernelHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {}

QTextCharFormat KernelHighlighter::format(Token kind) {
  QTextCharFormat f;
  switch (kind) {
    case Token::Keyword:
      f.setForeground(QColor("#0033b3"));  // dark blue
      f.setFontWeight(QFont::Bold);
      break;
    case Token::Type:
      f.setForeground(QColor("#00627a"));  // dark teal
      break;
    case Token::Cuda:
      f.setForeground(QColor("#8f008f"));  // purple, as in the Code view
      f.setFontWeight(QFont::Bold);
      break;
    case Token::ContractMacro:
      f.setForeground(QColor("#a04000"));  // burnt orange: what the engine passes in
      f.setFontWeight(QFont::Bold);
      break;
    case Token::Number:
      f.setForeground(QColor("#067d4a"));  // dark green
      break;
    case Token::String:
      f.setForeground(QColor("#a31515"));  // dark red
      break;
    case Token::Comment:
      f.setForeground(QColor("#5a6370"));  // grey, still 6:1 on white
      break;
    case Token::Preprocessor:
      f.setForeground(QColor("#6b3fa0"));  // violet
      f.setFontWeight(QFont::Bold);
      break;
  }
  return f;
}

void KernelHighlighter::highlightBlock(const QString& text) {
  setCurrentBlockState(kNormal);
  const int n = static_cast<int>(text.size());
  int i = 0;
  if (previousBlockState() == kInBlockComment) i = comment_until_close(text, 0);

  // A directive: "#" and its word ("#pragma", "#define"); an #include's file as a string.
  int first = i;
  while (first < n && text[first].isSpace()) ++first;
  if (i == 0 && first < n && text[first] == '#') {
    int end = first + 1;
    while (end < n && text[end].isSpace()) ++end;
    const int word = end;
    while (end < n && is_word_char(text[end])) ++end;
    setFormat(first, end - first, format(Token::Preprocessor));
    i = end;
    if (text.mid(word, end - word) == "include") {
      const int comment = static_cast<int>(text.indexOf("//", i));
      const int stop = comment < 0 ? n : comment;
      setFormat(i, stop - i, format(Token::String));
      i = stop;
    }
  }

  while (i < n) {
    const QChar c = text[i];
    const QChar next = i + 1 < n ? text[i + 1] : QChar();
    if (c == '/' && next == '/') {
      setFormat(i, n - i, format(Token::Comment));
      break;
    }
    if (c == '/' && next == '*') {
      i = comment_until_close(text, i);
    } else if (c == '"' || c == '\'') {
      i = quoted_at(text, i);
    } else if (c.isDigit() || (c == '.' && next.isDigit())) {
      i = number_at(text, i);
    } else if (c.isLetter() || c == '_') {
      i = word_at(text, i);
    } else {
      ++i;
    }
  }
}

int KernelHighlighter::comment_until_close(const QString& text, int at) {
  // A continued comment starts at 0 and may close at once ("*/" at 0); a new one after its "/*".
  const int search_from = previousBlockState() == kInBlockComment && at == 0 ? 0 : at + 2;
  const int close = static_cast<int>(text.indexOf("*/", search_from));
  if (close < 0) {
    setFormat(at, static_cast<int>(text.size()) - at, format(Token::Comment));
    setCurrentBlockState(kInBlockComment);
    return static_cast<int>(text.size());
  }
  setFormat(at, close + 2 - at, format(Token::Comment));
  return close + 2;
}

int KernelHighlighter::word_at(const QString& text, int at) {
  int end = at;
  while (end < text.size() && is_word_char(text[end])) ++end;
  if (const auto kind = classify(text.mid(at, end - at))) setFormat(at, end - at, format(*kind));
  return end;
}

int KernelHighlighter::number_at(const QString& text, int at) {
  int end = at;
  while (end < text.size()) {
    const QChar c = text[end];
    const QChar prev = text[end - 1 < at ? at : end - 1];
    const bool exponent_sign = (c == '-' || c == '+') && end > at && (prev == 'e' || prev == 'E') &&
                               text.mid(at, 2).compare("0x", Qt::CaseInsensitive) != 0;
    if (!(is_word_char(c) || c == '.' || c == '\'' || exponent_sign)) break;
    ++end;
  }
  setFormat(at, end - at, format(Token::Number));
  return end;
}

int KernelHighlighter::quoted_at(const QString& text, int at) {
  const QChar quote = text[at];
  int end = at + 1;
  while (end < text.size() && text[end] != quote) end += text[end] == '\\' ? 2 : 1;
  end = std::min(end + 1, static_cast<int>(text.size()));
  setFormat(at, end - at, format(Token::String));
  return end;
}

}  // namespace rl::gui
