// The variant picker: every catalog variant grouped by family (the classic ladder, past it, CUB
// references), checkable, with the classic ladder's named rungs (reduceUnroll2, 4, 8) as their
// own entries; each entry's idea, phases and classic name as tooltip and in a detail line.
#pragma once

#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rl::gui {

class VariantTree : public QWidget {
  Q_OBJECT
 public:
  explicit VariantTree(QWidget* parent = nullptr);
  // Ticks the entries naming these variants (an id or a classic name; "reduceInterleaved" ticks
  // the "interleaved" entry) and unticks the rest; unknown names are dropped.
  void set_checked(const std::vector<std::string>& names);
  QStringList checked() const;  // names as the spec takes them
  bool all_checked() const;     // every entry ticked: the spec's `all`

 signals:
  void changed();

 private:
  QTreeWidgetItem* add_item(QTreeWidgetItem* group, const QString& name);
  void explain(QTreeWidgetItem* item);
  QTreeWidget* tree_;
  QLabel* detail_;
};

}  // namespace rl::gui
