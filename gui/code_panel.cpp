// The Code view's controls: which instantiation is shown, and the pages that show it
// (code_panel_pages.cpp fills them).
#include "code_panel.h"

#include <QPushButton>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QFontInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include "code_diff_view.h"
#include "code_highlighters.h"
#include "engine/core/error.h"

namespace rl::gui {

namespace {

QPlainTextEdit* code_page() {
  auto* t = new QPlainTextEdit;
  t->setReadOnly(true);
  t->setLineWrapMode(QPlainTextEdit::NoWrap);
  t->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  return t;
}

QLabel* note_label() {
  auto* l = new QLabel;
  l->setWordWrap(true);
  l->setTextFormat(Qt::RichText);
  return l;
}

// "Unrolled + last warp unrolled  [reduceUnrollWarp8]": the classic ladder's name of the kernel
// at the unroll factor shown, so the box never names a U the pages do not show.
QString variant_item_text(const VariantInfo& v, int unroll) {
  const QString name = QString::fromStdString(v.display_name);
  if (v.seed_name.empty()) return name;
  return name + "  [" + QString::fromStdString(v.seed_label(unroll)) + "]";
}

void select_data(QComboBox* c, const QVariant& value) {
  const int i = c->findData(value);
  if (i >= 0) c->setCurrentIndex(i);
}

}  // namespace

CodePanel::CodePanel(QWidget* parent) : QWidget(parent) {
  build_ui();
  apply_font();
  show_variant(QString::fromStdString(catalog().front().id));
}

void CodePanel::build_ui() {
  QLayout* top = build_pickers();
  build_pages();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(samples_);
  layout->addWidget(pages_, 1);

  connect(variant_, &QComboBox::currentIndexChanged, this, [this] {
    if (filling_) return;
    fill_shapes();
    refresh();
  });
  for (QComboBox* c : {block_, unroll_, type_, workspace_, arch_, compare_})
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      if (!filling_) refresh();
    });
}

QLayout* CodePanel::build_pickers() {
  variant_ = new QComboBox;
  variant_->setObjectName("code_variant");
  variant_->setMinimumContentsLength(24);  // the panel shares the window with the form
  for (const VariantInfo& v : catalog())
    variant_->addItem(variant_item_text(v, v.seed_unroll), QString::fromStdString(v.id));
  block_ = new QComboBox, unroll_ = new QComboBox, type_ = new QComboBox;
  workspace_ = new QComboBox, arch_ = new QComboBox, compare_ = new QComboBox;
  block_->setObjectName("code_block"), unroll_->setObjectName("code_unroll");
  arch_->setObjectName("code_arch"), compare_->setObjectName("code_compare");
  for (const std::string& a : code::sass_archs()) arch_->addItem(QString::fromStdString(a));
  if (const int i = arch_->findText("sm_90"); i >= 0) arch_->setCurrentIndex(i);
  compare_->addItem("previous rung", QString());
  for (const VariantInfo& v : catalog())
    compare_->addItem(QString::fromStdString(v.id), QString::fromStdString(v.id));

  auto* rows = new QVBoxLayout;
  auto* top = new QHBoxLayout;
  auto* shape = new QHBoxLayout;
  rows->addLayout(top);
  rows->addLayout(shape);
  auto add = [&](QHBoxLayout* row, const char* label, QComboBox* c) {
    row->addWidget(new QLabel(label));
    row->addWidget(c);
  };
  add(top, "Variant", variant_);
  top->addStretch(1);
  add(shape, "B", block_);
  add(shape, "U", unroll_);
  add(shape, "Type", type_);
  add(shape, "Workspace", workspace_);
  shape->addStretch(1);
  return rows;
}

namespace {

// A tab's page: the rows one under the other, `stretch` taking the height left.
QWidget* page(std::initializer_list<QWidget*> rows, QWidget* stretch) {
  auto* w = new QWidget;
  auto* l = new QVBoxLayout(w);
  l->setContentsMargins(4, 4, 4, 4);
  for (QWidget* r : rows) l->addWidget(r, r == stretch ? 1 : 0);
  return w;
}

// "label [picker] note" across a page's top.
QWidget* picker_bar(const char* label, QComboBox* picker, QLabel* note) {
  auto* bar = new QWidget;
  auto* l = new QHBoxLayout(bar);
  l->setContentsMargins(0, 0, 0, 0);
  l->addWidget(new QLabel(label));
  l->addWidget(picker);
  l->addWidget(note, 1);
  return bar;
}

}  // namespace

void CodePanel::build_pages() {
  source_ = code_page(), diff_ = code_page(), sass_ = code_page();
  source_->setObjectName("code_source"), diff_->setObjectName("code_diff");
  sass_->setObjectName("code_sass");
  new CudaHighlighter(source_->document());
  new DiffHighlighter(diff_->document());
  new SassHighlighter(sass_->document());
  phases_ = note_label(), counts_ = note_label(), resources_ = note_label();
  diff_note_ = note_label(), samples_ = note_label();
  samples_->setObjectName("code_samples");
  samples_->hide();
  resources_->setObjectName("code_resources");
  resources_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  resources_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  QWidget* diff_top = picker_bar("Changes from", compare_, diff_note_);
  side_by_side_ = new SideBySideDiff;
  side_toggle_ = new QCheckBox("Side by side");
  side_toggle_->setObjectName("code_side_by_side");
  diff_top->layout()->addWidget(side_toggle_);
  diff_views_ = new QStackedWidget;
  diff_views_->addWidget(diff_);
  diff_views_->addWidget(side_by_side_);
  connect(side_toggle_, &QCheckBox::toggled, diff_views_, [this](bool on) {
    diff_views_->setCurrentWidget(on ? static_cast<QWidget*>(side_by_side_) : diff_);
  });
  QWidget* sass_top = picker_bar("Architecture", arch_, counts_);
  pages_ = new QTabWidget;
  pages_->addTab(page({phases_, source_}, source_), "Source");
  pages_->addTab(page({diff_top, diff_views_}, diff_views_), "Changes");
  pages_->addTab(page({sass_top, sass_}, sass_), "SASS");
  pages_->addTab(page({resources_}, resources_), "Resources");
  // Beside the pages' tabs, not in the pickers' row: the row already fills a narrow window.
  new_rung_ = new QPushButton("New rung from this kernel");
  new_rung_->setObjectName("new_rung");
  new_rung_->setToolTip(
      "Copy this kernel, in the form a kernel you write takes, into the editor (Your kernel): "
      "change a line, compile, and run it beside the built-in rungs");
  connect(new_rung_, &QPushButton::clicked, this,
          [this] { emit new_rung_requested(variant_->currentData().toString()); });
  pages_->setCornerWidget(new_rung_, Qt::TopRightCorner);
}

void CodePanel::show_user_entry(const code::CodeEntry& entry, const QString& starter_name,
                                const QString& starter) {
  const QString id = QString::fromStdString(entry.query.variant);
  user_entries_[entry.query.variant] = entry;
  user_starters_[entry.query.variant] = {starter_name, starter};
  if (variant_->findData(id) < 0) variant_->addItem(id + " (your kernel)", id);
  show_variant(id, entry.query.block_size, entry.query.unroll, entry.query.type, Workspace::Global);
}

void CodePanel::fill_shapes() {
  const VariantInfo* v = find_variant_by_id(variant_->currentData().toString().toStdString());
  if (v == nullptr) return;
  filling_ = true;
  auto refill = [](QComboBox* c, const QList<QPair<QString, QVariant>>& items) {
    const QVariant keep = c->currentData();
    c->clear();
    for (const auto& [text, data] : items) c->addItem(text, data);
    c->setEnabled(c->count() > 1);
    return keep;
  };
  QList<QPair<QString, QVariant>> blocks, unrolls, types, workspaces;
  for (int b : v->block_sizes) blocks.append({QString::number(b), b});
  if (blocks.isEmpty()) blocks.append({"own", 0});
  for (int u : v->unroll_factors) unrolls.append({QString::number(u), u});
  for (DType t : v->types)
    types.append({QString::fromUtf8(rl::to_string(t).data()), static_cast<int>(t)});
  for (Workspace w : v->workspaces)
    workspaces.append({QString::fromUtf8(rl::to_string(w).data()), static_cast<int>(w)});
  const QVariant b = refill(block_, blocks), u = refill(unroll_, unrolls);
  const QVariant t = refill(type_, types), w = refill(workspace_, workspaces);
  // Keep the shape across variants where the new one takes it, else its defaults.
  select_data(block_, v->takes_block_size(256) ? 256 : block_->itemData(0));
  if (b.isValid()) select_data(block_, b);
  select_data(unroll_, v->default_unroll);
  if (u.isValid() && v->takes_unroll(u.toInt()) && v->unroll_factors.size() > 1)
    select_data(unroll_, u);
  if (t.isValid()) select_data(type_, t);
  if (w.isValid()) select_data(workspace_, w);
  filling_ = false;
}

void CodePanel::show_variant(const QString& id, int block_size, int unroll,
                             std::optional<DType> type, std::optional<Workspace> workspace) {
  const int i = variant_->findData(id);
  if (i < 0) return;
  filling_ = true;
  variant_->setCurrentIndex(i);
  filling_ = false;
  fill_shapes();
  filling_ = true;
  if (block_size > 0) select_data(block_, block_size);
  if (unroll > 0) select_data(unroll_, unroll);
  if (type) select_data(type_, static_cast<int>(*type));
  if (workspace) select_data(workspace_, static_cast<int>(*workspace));
  filling_ = false;
  refresh();
}

void CodePanel::refresh() {
  code::CodeQuery q;
  q.variant = variant_->currentData().toString().toStdString();
  q.block_size = block_->currentData().toInt();
  q.unroll = unroll_->currentData().toInt();
  q.type = static_cast<DType>(type_->currentData().toInt());
  q.workspace = static_cast<Workspace>(workspace_->currentData().toInt());
  if (const VariantInfo* v = find_variant_by_id(q.variant); v && q.unroll > 0) {
    const QSignalBlocker quiet(variant_);
    variant_->setItemText(variant_->currentIndex(), variant_item_text(*v, q.unroll));
  }
  if (const auto user = user_entries_.find(q.variant); user != user_entries_.end()) {
    const code::CodeQuery& built = user->second.query;
    entry_ = user->second;
    if (built.block_size != q.block_size || built.unroll != q.unroll || built.type != q.type) {
      entry_.sass.clear();
      entry_.resources.clear();
      entry_.lines.clear();
      const std::string shape = "B=" + std::to_string(q.block_size) +
                                " U=" + std::to_string(q.unroll) + " " +
                                std::string(to_string(q.type));
      const std::string asked = q.variant + " " + shape;
      entry_.missing = "compiling " + q.variant + " for " + shape +
                       " (it was compiled for B=" + std::to_string(built.block_size) +
                       " U=" + std::to_string(built.unroll) + " " +
                       std::string(to_string(built.type)) + ")";
      if (asked != user_shape_asked_) {
        user_shape_asked_ = asked;
        emit user_shape_wanted(QString::fromStdString(q.variant), q.block_size, q.unroll,
                               int(q.type));
      }
    }
  } else {
    try {
      entry_ = code::find_code(q);
    } catch (const Error& e) {
      entry_ = code::CodeEntry{};
      entry_.missing = e.what();
    }
  }
  new_rung_->setEnabled(find_variant_by_id(q.variant) != nullptr);
  compute_line_metrics();
  show_source();
  show_diff();
  show_sass();
  show_resources();
}

void CodePanel::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::ApplicationFontChange)
    apply_font();
}

void CodePanel::apply_font() {
  const QFont mono =
      code_font(font().pointSizeF() > 0 ? font().pointSizeF() : QApplication::font().pointSizeF());
  for (QPlainTextEdit* t : {source_, diff_, sass_}) t->setFont(mono);
  side_by_side_->set_code_font(mono);
}

QString CodePanel::source_text() const {
  return source_->toPlainText();
}
QString CodePanel::diff_text() const {
  return diff_->toPlainText();
}
QString CodePanel::sass_text() const {
  return sass_->toPlainText();
}
QString CodePanel::counts_text() const {
  return counts_->text();
}
QString CodePanel::resources_text() const {
  return resources_->text();
}

}  // namespace rl::gui
