// The kernel editor and its panel, offscreen: colours, the compiler's messages at their lines,
// the name check, files, and the signals the caller compiles and runs from. With
// RL_GUI_SCREENSHOTS=DIR set, KernelEditorScreenshots saves the panel as PNG.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolTip>

#include "code/kernel_editor.h"
#include "code/kernel_editor_panel.h"
#include "code/kernel_highlighter.h"
#include "engine/temp_dir.h"

using rl::gui::KernelEditor;
using rl::gui::KernelEditorPanel;
using rl::gui::KernelHighlighter;
using Mark = KernelEditor::LineMark;

namespace {

// A ladder-sized kernel with a mistake on line 14 ("total" for "sum") and an unused variable on
// line 11.
const char* const kKernel =
    R"(// Unrolled by two, the last warp by shuffles: a block reduces 2 x RL_BLOCK elements.
/* The engine passes in RL_BLOCK (threads per block), RL_UNROLL and
   RL_T / RL_P (the element and partial types); it adds the partials. */
#include <cuda_runtime.h>

extern "C" __global__ void reduceMine(const RL_T* in, RL_P* partials, unsigned long long n) {
  __shared__ RL_P smem[RL_BLOCK];
  const unsigned int tid = threadIdx.x;
  const unsigned long long base = 2ull * blockIdx.x * RL_BLOCK;
  RL_P sum = 0;
  int unused = 0;
  if (base + tid < n) sum += in[base + tid];
  if (base + tid + RL_BLOCK < n) sum += in[base + tid + RL_BLOCK];
  smem[tid] = total;
  __syncthreads();
  for (unsigned int stride = RL_BLOCK / 2; stride > 32; stride >>= 1) {
    if (tid < stride) smem[tid] += smem[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    RL_P v = smem[tid] + smem[tid + 32];
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid == 0) partials[blockIdx.x] = v;
  }
}
)";

// nvcc 13.0's words for those two lines (-DRL_T=int -DRL_P="long long" -DRL_BLOCK=256, sm_90),
// each from a compile of its own (the front end reports the warning once the error is fixed);
// the columns are where its caret points.
rl::CompileResult failed_compile() {
  rl::CompileResult r;
  r.diagnostics = {{14, 15, "error", "identifier \"total\" is undefined"},
                   {11, 7, "warning", "variable \"unused\" was declared but never referenced"}};
  return r;
}

QColor foreground_at(const QTextBlock& block, int pos) {
  QColor c;  // later ranges win, as when the layout draws them
  for (const QTextLayout::FormatRange& r : block.layout()->formats())
    if (pos >= r.start && pos < r.start + r.length) c = r.format.foreground().color();
  return c;
}

QColor colour_of(KernelHighlighter::Token t) {
  return KernelHighlighter::format(t).foreground().color();
}

int line_y(KernelEditor& e, int line) {
  const QTextBlock b = e.document()->findBlockByNumber(line - 1);
  return e.cursorRect(QTextCursor(b)).center().y();
}

}  // namespace

TEST(KernelEditor, HighlighterColoursWhatEachTokenIs) {
  KernelEditor e;
  e.setPlainText(
      "// __global__ in a comment\n"
      "__global__ void f(int n) { return n + 42 + RL_BLOCK; } // \"x\"\n"
      "/* one\n"
      " two */ const char* s = \"// not a comment\";\n"
      "#pragma unroll\n");
  QTextDocument* d = e.document();
  using T = KernelHighlighter::Token;
  EXPECT_EQ(foreground_at(d->findBlockByNumber(0), 3), colour_of(T::Comment));
  const QTextBlock code = d->findBlockByNumber(1);
  EXPECT_EQ(foreground_at(code, 0), colour_of(T::Cuda));   // __global__
  EXPECT_EQ(foreground_at(code, 11), colour_of(T::Type));  // void
  EXPECT_EQ(foreground_at(code, code.text().indexOf("return")), colour_of(T::Keyword));
  EXPECT_EQ(foreground_at(code, code.text().indexOf("42")), colour_of(T::Number));
  EXPECT_EQ(foreground_at(code, code.text().indexOf("RL_BLOCK")), colour_of(T::ContractMacro));
  EXPECT_EQ(foreground_at(code, code.text().indexOf("\"x\"")), colour_of(T::Comment));
  // A block comment over two lines, then code on its closing line.
  EXPECT_EQ(foreground_at(d->findBlockByNumber(2), 2), colour_of(T::Comment));
  const QTextBlock closing = d->findBlockByNumber(3);
  EXPECT_EQ(foreground_at(closing, 2), colour_of(T::Comment));
  EXPECT_EQ(foreground_at(closing, closing.text().indexOf("const")), colour_of(T::Keyword));
  EXPECT_EQ(foreground_at(closing, closing.text().indexOf("// not")), colour_of(T::String));
  EXPECT_EQ(foreground_at(d->findBlockByNumber(4), 1), colour_of(T::Preprocessor));
  EXPECT_TRUE(KernelHighlighter::format(T::Keyword).fontWeight() == QFont::Bold);
}

TEST(KernelEditor, DiagnosticsMarkTheirLinesAndFollowEdits) {
  KernelEditor e;
  e.setPlainText(kKernel);
  std::vector<rl::CompileDiagnostic> diagnostics = failed_compile().diagnostics;
  diagnostics.push_back({0, 0, "error", "a message with no line"});
  e.set_diagnostics(diagnostics);
  EXPECT_EQ(e.mark_at_line(14), Mark::Error);
  EXPECT_EQ(e.mark_at_line(11), Mark::Warning);
  EXPECT_EQ(e.mark_at_line(12), Mark::None);
  EXPECT_EQ(e.mark_at_line(1), Mark::None);  // the line-less message marks no line
  EXPECT_EQ(e.messages_at_line(14), QStringList{"error: identifier \"total\" is undefined"});
  bool tinted = false;
  for (const QTextEdit::ExtraSelection& s : e.extraSelections())
    tinted |= s.cursor.blockNumber() == 13 &&
              s.format.background().color() == KernelEditor::line_background(Mark::Error);
  EXPECT_TRUE(tinted);

  // A line added above moves the marks with their code.
  QTextCursor top(e.document());
  top.insertText("// a new first line\n");
  EXPECT_EQ(e.diagnostic_line(0), 15);
  EXPECT_EQ(e.mark_at_line(15), Mark::Error);
  EXPECT_EQ(e.mark_at_line(14), Mark::None);
  e.clear_diagnostics();
  EXPECT_EQ(e.mark_at_line(15), Mark::None);
}

TEST(KernelEditor, HoveringAMarkedLineShowsTheCompilersMessage) {
  KernelEditor e;
  e.resize(700, 500);
  e.setPlainText(kKernel);
  e.show();
  e.set_diagnostics(failed_compile().diagnostics);
  const QPoint at(40, line_y(e, 11));
  QHelpEvent help(QEvent::ToolTip, at, e.viewport()->mapToGlobal(at));
  QApplication::sendEvent(e.viewport(), &help);
  EXPECT_TRUE(QToolTip::text().contains("variable &quot;unused&quot; was declared"))
      << QToolTip::text().toStdString();
  QToolTip::hideText();
  // The gutter's marker says the same.
  QWidget* gutter = e.childAt(QPoint(3, e.viewport()->y() + line_y(e, 14)));
  ASSERT_NE(gutter, nullptr);
  ASSERT_NE(gutter, e.viewport());
  const QPoint in_gutter = gutter->mapFrom(&e, QPoint(3, e.viewport()->y() + line_y(e, 14)));
  QHelpEvent gutter_help(QEvent::ToolTip, in_gutter, gutter->mapToGlobal(in_gutter));
  QApplication::sendEvent(gutter, &gutter_help);
  EXPECT_TRUE(QToolTip::text().contains("identifier &quot;total&quot; is undefined"))
      << QToolTip::text().toStdString();
  QToolTip::hideText();
}

TEST(KernelEditor, TabInsertsSpacesAndEnterKeepsTheIndent) {
  KernelEditor e;
  e.setPlainText("x");
  e.moveCursor(QTextCursor::Start);
  QTest::keyClick(&e, Qt::Key_Tab);
  EXPECT_EQ(e.toPlainText(), QString(KernelEditor::kIndentWidth, ' ') + "x");
  e.moveCursor(QTextCursor::End);
  QTest::keyClick(&e, Qt::Key_Return);
  QTest::keyClicks(&e, "y");
  EXPECT_EQ(e.toPlainText(), "  x\n  y");
  e.selectAll();
  QTest::keyClick(&e, Qt::Key_Backtab);
  EXPECT_EQ(e.toPlainText(), "x\ny");
  e.undo();
  EXPECT_EQ(e.toPlainText(), "  x\n  y");
}

TEST(KernelEditor, CodeFontFollowsTheAppsTextSize) {
  KernelEditorPanel panel;
  KernelEditor& e = *panel.editor();
  EXPECT_TRUE(QFontInfo(e.font()).fixedPitch());
  const QFont app_font = QApplication::font();
  QFont larger = app_font;
  larger.setPointSizeF(app_font.pointSizeF() + 4);
  QApplication::setFont(larger);  // what Ctrl+= does
  QApplication::processEvents();
  EXPECT_DOUBLE_EQ(e.font().pointSizeF(), app_font.pointSizeF() + 4);
  EXPECT_TRUE(QFontInfo(e.font()).fixedPitch());
  QApplication::setFont(app_font);
  QApplication::processEvents();
  EXPECT_DOUBLE_EQ(e.font().pointSizeF(), app_font.pointSizeF());
}

TEST(KernelEditorPanel, ClickingADiagnosticGoesToItsLine) {
  KernelEditorPanel panel;
  panel.resize(900, 700);
  panel.set_source({"reduceMine", kKernel, "", ""});
  panel.show();
  panel.show_compile_result(failed_compile(), {});
  QListWidget* list = panel.diagnostics_list();
  ASSERT_EQ(list->count(), 2);
  EXPECT_EQ(list->item(0)->text(), "line 14: error: identifier \"total\" is undefined");
  EXPECT_TRUE(panel.status_text().contains("Did not compile: 1 error, 1 warning"))
      << panel.status_text().toStdString();
  for (int row : {0, 1}) {
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                      list->visualItemRect(list->item(row)).center());
    EXPECT_EQ(panel.editor()->current_line(), row == 0 ? 14 : 11);
    // At the compiler's column: "total" on line 14, "unused" on line 11.
    EXPECT_EQ(panel.editor()->textCursor().positionInBlock(), row == 0 ? 14 : 6);
  }
}

TEST(KernelEditorPanel, StatusSaysWhatTheCallerGave) {
  KernelEditorPanel panel;
  rl::CompileResult ok;
  ok.ok = true;
  panel.show_compile_result(ok, "compiled for sm_90: numbers from the caller");
  EXPECT_EQ(panel.status_text(), "compiled for sm_90: numbers from the caller");
  EXPECT_EQ(panel.diagnostics_list()->count(), 0);
  rl::CompileResult none;
  none.unavailable = "libnvrtc.so.13 was not found";
  panel.show_compile_result(none, {});
  EXPECT_TRUE(panel.status_text().contains("libnvrtc.so.13 was not found"));
  panel.show_message("Running reduceMine");
  EXPECT_EQ(panel.status_text(), "Running reduceMine");
}

TEST(KernelEditorPanel, AnInvalidNameIsSaidAndStopsCompileAndRun) {
  KernelEditorPanel panel;
  panel.set_source({"reduceMine", kKernel, "", ""});
  EXPECT_TRUE(panel.compile_button()->isEnabled());
  EXPECT_TRUE(panel.name_message_text().isEmpty());
  const std::pair<const char*, const char*> bad[] = {
      {"3x", "Name \"3x\": a kernel name is a C identifier"},
      {"my kernel", "Name \"my kernel\": a kernel name is a C identifier"},
      {"int", "Name \"int\": a C++ keyword"},
      {"", "Name: required"}};
  for (const auto& [name, message] : bad) {
    panel.name_edit()->setText(name);
    EXPECT_TRUE(panel.name_message_text().startsWith(message))
        << name << ": " << panel.name_message_text().toStdString();
    EXPECT_FALSE(panel.compile_button()->isEnabled()) << name;
    EXPECT_FALSE(panel.run_button()->isEnabled()) << name;
  }
  panel.name_edit()->setText("_reduce2");
  EXPECT_TRUE(panel.name_message_text().isEmpty());
  EXPECT_TRUE(panel.run_button()->isEnabled());
  panel.set_busy(true);
  EXPECT_FALSE(panel.run_button()->isEnabled());
}

TEST(KernelEditorPanel, SignalsCarryTheEditedSourceAndName) {
  KernelEditorPanel panel;
  panel.set_source({"reduceMine", kKernel, "", "reduceUnrolling2"});
  panel.show();
  std::vector<rl::UserKernelSource> compiled, ran;
  QObject::connect(&panel, &KernelEditorPanel::compile_requested,
                   [&](const rl::UserKernelSource& k) { compiled.push_back(k); });
  QObject::connect(&panel, &KernelEditorPanel::run_requested,
                   [&](const rl::UserKernelSource& k) { ran.push_back(k); });
  panel.editor()->moveCursor(QTextCursor::End);
  QTest::keyClicks(panel.editor(), "// edited");
  panel.name_edit()->setText("reduceMine2");
  QTest::mouseClick(panel.compile_button(), Qt::LeftButton);
  QTest::mouseClick(panel.run_button(), Qt::LeftButton);
  ASSERT_EQ(compiled.size(), 1u);
  ASSERT_EQ(ran.size(), 1u);
  EXPECT_EQ(compiled[0].name, "reduceMine2");
  EXPECT_EQ(compiled[0].source, std::string(kKernel) + "// edited");
  EXPECT_EQ(compiled[0].started_from, "reduceUnrolling2");
  EXPECT_EQ(ran[0], compiled[0]);
  EXPECT_TRUE(panel.is_modified());
  EXPECT_TRUE(panel.title().endsWith("*"));
}

TEST(KernelEditorPanel, SaveAndOpenRoundTrip) {
  rl::testing::TempDir dir("rl-kernel-editor");
  const QString path = QString::fromStdString(dir.file("mine.cu"));
  KernelEditorPanel panel;
  QStringList questions, errors;
  bool discard = false;
  QString open_answer;
  panel.set_dialogs({[&] { return open_answer; }, [&](const QString&) { return path; },
                     [&](const QString& q) {
                       questions << q;
                       return discard;
                     },
                     [&](const QString& e) { errors << e; }});
  panel.set_source({"reduceMine", kKernel, "", ""});
  QTest::keyClicks(panel.editor(), "// mine");
  QTest::keyClick(panel.editor(), Qt::Key_Return);
  ASSERT_TRUE(panel.save());  // no file yet: Save as
  EXPECT_EQ(rl::testing::slurp(path.toStdString()), std::string("// mine\n") + kKernel);
  EXPECT_EQ(dir.names(), std::vector<std::string>{"mine.cu"});  // QSaveFile left nothing else
  EXPECT_FALSE(panel.is_modified());
  EXPECT_EQ(panel.title(), "mine.cu");
  EXPECT_EQ(panel.source().file, path.toStdString());

  // Another file, over unsaved edits: asked first, and "keep them" keeps them.
  const std::string other = dir.file("other.cu");
  rl::testing::spit(other,
                    "extern \"C\" __global__ void reduceOther(const RL_T* in, "
                    "RL_P* partials, unsigned long long n) {}\n");
  QTest::keyClicks(panel.editor(), "x");
  open_answer = QString::fromStdString(other);
  panel.open_kernel();
  ASSERT_EQ(questions.size(), 1);
  EXPECT_TRUE(questions[0].contains("mine.cu")) << questions[0].toStdString();
  EXPECT_EQ(panel.source().name, "reduceMine");
  discard = true;
  panel.open_kernel();
  EXPECT_EQ(panel.source().name, "reduceOther");  // the file's only kernel
  EXPECT_EQ(panel.source().source, rl::testing::slurp(other));
  EXPECT_FALSE(panel.is_modified());
  ASSERT_TRUE(panel.open_file(path));
  EXPECT_EQ(panel.source().source, std::string("// mine\n") + kKernel);
  EXPECT_TRUE(errors.isEmpty());
}

TEST(KernelEditorPanel, RefusesFilesTooLargeOrNotUtf8) {
  rl::testing::TempDir dir("rl-kernel-editor");
  KernelEditorPanel panel;
  QStringList errors;
  panel.set_dialogs({{}, {}, {}, [&](const QString& e) { errors << e; }});
  panel.set_source({"reduceMine", kKernel, "", ""});
  const std::string big = dir.file("big.cu"), latin1 = dir.file("latin1.cu");
  rl::testing::spit(big, std::string(rl::kMaxUserKernelBytes + 1, ' '));
  rl::testing::spit(latin1, "// caf\xe9\n");
  EXPECT_FALSE(panel.open_file(QString::fromStdString(big)));
  EXPECT_FALSE(panel.open_file(QString::fromStdString(latin1)));
  EXPECT_FALSE(panel.open_file(QString::fromStdString(dir.file("missing.cu"))));
  ASSERT_EQ(errors.size(), 3);
  EXPECT_TRUE(errors[0].contains("larger than 256 KB")) << errors[0].toStdString();
  EXPECT_TRUE(errors[1].contains("not UTF-8")) << errors[1].toStdString();
  EXPECT_TRUE(errors[2].contains("Cannot open")) << errors[2].toStdString();
  EXPECT_EQ(panel.source().source, kKernel);  // what was shown stays
  // Exactly the limit is accepted.
  rl::testing::spit(big, std::string(rl::kMaxUserKernelBytes, ' '));
  EXPECT_TRUE(panel.open_file(QString::fromStdString(big)));
}

TEST(KernelEditorScreenshots, PanelWithTwoDiagnostics) {
  const QString dir = qEnvironmentVariable("RL_GUI_SCREENSHOTS");
  if (dir.isEmpty()) GTEST_SKIP() << "set RL_GUI_SCREENSHOTS=DIR to take screenshots";
  QDir().mkpath(dir);
  const QFont app_font = QApplication::font();
  // The app's default text, then the larger text a lecturer picks (Ctrl+=).
  for (double pt : {app_font.pointSizeF(), 14.0}) {
    QFont f = app_font;
    f.setPointSizeF(pt);
    QApplication::setFont(f);
    KernelEditorPanel panel;
    panel.resize(1000, 640);  // what a tab gets of a 1024x768 screen
    panel.set_source({"reduceMine", kKernel, "", ""});
    panel.show();
    panel.show_compile_result(failed_compile(), {});
    panel.editor()->go_to_line(14);
    QCoreApplication::processEvents();
    panel.grab().save(QDir(dir).filePath(QString("kernel_editor_%1pt.png").arg(pt)));
    // The name field's message, with the panel as narrow as its layout allows.
    panel.name_edit()->setText("3x");
    panel.resize(panel.minimumSizeHint().width(), 640);
    QCoreApplication::processEvents();
    panel.grab().save(QDir(dir).filePath(QString("kernel_editor_bad_name_%1pt.png").arg(pt)));
  }
  QApplication::setFont(app_font);
}
