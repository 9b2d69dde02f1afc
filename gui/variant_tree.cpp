#include "variant_tree.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/catalog/catalog.h"

namespace rl::gui {

namespace {

constexpr int kNameRole = Qt::UserRole;

QString variant_tooltip(const VariantInfo& v, const QString& name) {
  QString html = QString("<b>%1</b><br>id <code>%2</code>")
                     .arg(QString::fromStdString(v.display_name).toHtmlEscaped(),
                          QString::fromStdString(v.id));
  if (!v.seed_name.empty())
    html += QString(" · the classic ladder's <code>%1</code>")
                .arg(name.startsWith("reduce") ? name
                                               : QString::fromStdString(v.seed_name) +
                                                     (v.seed_name_has_unroll ? "U" : ""));
  html += "<p>" + QString::fromStdString(v.explanation).toHtmlEscaped() + "</p><ol>";
  for (const auto& phase : v.phases)
    html += "<li>" + QString::fromStdString(phase).toHtmlEscaped() + "</li>";
  html += "</ol>";
  if (v.min_compute_capability > 75)
    html += QString("<p>Needs compute capability %1.%2 or newer.</p>")
                .arg(v.min_compute_capability / 10)
                .arg(v.min_compute_capability % 10);
  return html;
}

}  // namespace

VariantTree::VariantTree(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* box = new QGroupBox("Variants");
  outer->addWidget(box);
  auto* layout = new QVBoxLayout(box);
  tree_ = new QTreeWidget;
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({"kernel", "idea"});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  tree_->setMinimumHeight(220);
  for (const auto& [family, heading] : family_headings()) {
    // The user's kernels are listed by the kernel dock, which compiles and registers them.
    if (family == VariantFamily::User) continue;
    auto* group =
        new QTreeWidgetItem(tree_, {QString::fromUtf8(heading.data(), int(heading.size()))});
    group->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
    group->setCheckState(0, Qt::Unchecked);
    QFont bold = group->font(0);
    bold.setBold(true);
    group->setFont(0, bold);
    for (const VariantInfo& v : catalog()) {
      if (v.family != family) continue;
      add_item(group, QString::fromStdString(v.id));
      // The classic ladder's named rungs (reduceUnroll2, 4, 8) as their own entries.
      if (v.seed_name_has_unroll)
        for (int u : v.unroll_factors)
          if (u > 1 && u <= v.seed_unroll) add_item(group, QString::fromStdString(v.seed_label(u)));
    }
    if (group->childCount() == 0)
      delete group;
    else  // the labs start folded: the ladder is what most runs are about
      group->setExpanded(!is_lab(family));
  }
  detail_ = new QLabel("Hover or select a variant to read what it demonstrates.");
  detail_->setWordWrap(true);
  detail_->setMinimumHeight(detail_->fontMetrics().height() * 4);
  detail_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  detail_->setStyleSheet("color: #333;");
  tree_->setMouseTracking(true);
  connect(tree_, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem* item) { explain(item); });
  connect(tree_, &QTreeWidget::itemEntered, this, [this](QTreeWidgetItem* item) { explain(item); });
  connect(tree_, &QTreeWidget::itemChanged, this, &VariantTree::changed);
  layout->addWidget(tree_, 1);
  layout->addWidget(detail_);
}

QTreeWidgetItem* VariantTree::add_item(QTreeWidgetItem* group, const QString& name) {
  const auto ref = resolve_variant(name.toStdString());
  if (!ref) return nullptr;
  const VariantInfo& v = *ref->variant;
  QString label = name, idea = QString::fromStdString(v.display_name);
  if (!ref->unroll && !v.seed_name.empty())
    label = QString::fromStdString(v.seed_name) + (v.seed_name_has_unroll ? "{U}" : "");
  if (ref->unroll) idea = QString("U=%1: %2").arg(*ref->unroll).arg(idea);
  if (v.id.ends_with("_sync") && v.seed_name.empty()) label = QString::fromStdString(v.id);
  auto* item = new QTreeWidgetItem(group, {label, idea});
  item->setData(0, kNameRole, name);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
  item->setCheckState(0, Qt::Unchecked);
  const QString tip = variant_tooltip(v, name);
  item->setToolTip(0, tip);
  item->setToolTip(1, tip);
  if (v.volatile_last_warp) item->setForeground(1, QColor("#8a5a00"));
  return item;
}

void VariantTree::explain(QTreeWidgetItem* item) {
  if (!item || item->data(0, kNameRole).isNull()) return;
  const auto ref = resolve_variant(item->data(0, kNameRole).toString().toStdString());
  if (!ref) return;
  QString text = QString::fromStdString(ref->variant->explanation);
  if (!ref->variant->seed_name.empty())
    text = QString("<b>%1</b>: %2")
               .arg(QString::fromStdString(
                        ref->variant->seed_label(ref->unroll.value_or(ref->variant->seed_unroll))),
                    text.toHtmlEscaped());
  detail_->setText(text);
}

QStringList VariantTree::checked() const {
  QStringList names;
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = tree_->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i)
      if (group->child(i)->checkState(0) == Qt::Checked)
        names << group->child(i)->data(0, kNameRole).toString();
  }
  return names;
}

bool VariantTree::all_checked() const {
  int entries = 0;
  for (int g = 0; g < tree_->topLevelItemCount(); ++g)
    entries += tree_->topLevelItem(g)->childCount();
  return entries > 0 && checked().size() == entries;
}

void VariantTree::set_checked(const std::vector<std::string>& names) {
  const QSignalBlocker quiet(tree_);  // one changed() at the end, not one per entry
  // An entry matches a name that resolves to the same variant and unroll factor: the spec may
  // say "reduceInterleaved" where the tree lists "interleaved".
  auto key = [](const QString& name) {
    const auto ref = resolve_variant(name.toStdString());
    return ref ? QString::fromStdString(ref->variant->id) + "/" +
                     QString::number(ref->unroll.value_or(0))
               : name;
  };
  QStringList wanted;
  for (const auto& v : names) wanted << QString::fromStdString(v);
  QStringList wanted_keys;
  for (const QString& name : wanted) wanted_keys << key(name);
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = tree_->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i) {
      QTreeWidgetItem* item = group->child(i);
      const int at = wanted_keys.indexOf(key(item->data(0, kNameRole).toString()));
      if (at >= 0) wanted.removeAt(at), wanted_keys.removeAt(at);
      item->setCheckState(0, at >= 0 ? Qt::Checked : Qt::Unchecked);
    }
  }
  // Names the tree does not list yet (e.g. reduceUnroll16) get an entry in their family.
  for (const QString& name : wanted) {
    const auto ref = resolve_variant(name.toStdString());
    if (!ref) continue;  // unknown names are dropped: the saved spec came from another build
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
      QTreeWidgetItem* group = tree_->topLevelItem(g);
      bool family = false;
      for (int i = 0; i < group->childCount() && !family; ++i) {
        const auto other =
            resolve_variant(group->child(i)->data(0, kNameRole).toString().toStdString());
        family = other && other->variant->family == ref->variant->family;
      }
      if (!family) continue;
      if (auto* item = add_item(group, name)) item->setCheckState(0, Qt::Checked);
      break;
    }
  }
  emit changed();
}

}  // namespace rl::gui
