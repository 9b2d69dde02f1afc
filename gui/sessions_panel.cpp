#include "sessions_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>

#include "engine/report/compare.h"
#include "engine/views/session_names.h"
#include "session_store.h"

namespace rl::gui {

SessionsModel::SessionsModel(SessionStore* store, QObject* parent)
    : QAbstractTableModel(parent), store_(store), rows_(int(store->open().size())) {
  auto refresh = [this] {
    beginResetModel();
    rows_ = int(store_->open().size());
    endResetModel();
  };
  connect(store_, &SessionStore::reset, this, refresh);
  connect(store_, &SessionStore::overlays_changed, this, refresh);
  connect(store_, &SessionStore::metadata_changed, this, refresh);
  connect(store_, &SessionStore::appended, this, [this] {
    if (rows_ > 0) emit dataChanged(index(0, Points), index(0, Points));
  });
}

int SessionsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : rows_;
}

int SessionsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : Columns;
}

namespace {
// Where a session came from, in a word or a file name.
QString origin_text(const OpenSession& o) {
  return o.live                                                       ? QString("running")
         : o.source.startsWith(":/") || o.source == "bundled session" ? QString("bundled")
         : o.source.isEmpty()                                         ? QString("overlay")
                              : QFileInfo(o.source).fileName();
}
}  // namespace

QVariant SessionsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(store_->open().size())) return {};
  const OpenSession& o = store_->open()[size_t(index.row())];
  const int row = index.row();
  if (index.column() == Name && role == Qt::CheckStateRole)
    return o.hidden ? Qt::Unchecked : Qt::Checked;
  if (index.column() == Name && role == Qt::EditRole) return store_->names().value(row);
  if (role == Qt::ToolTipRole && index.column() == Name)
    return QString("Checked: drawn in the charts. Double-click to rename.%1\nFrom: %2")
        .arg(row == 0 ? "\nThe primary session: the Results table and the banner show it." : "",
             origin_text(o));
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Name:
      return store_->names().value(row) + (row == 0 ? "  (table)" : "");
    case Compared:
      return row == store_->compared_a() ? "A" : row == store_->compared_b() ? "B" : "";
    case Points:
      return qulonglong(o.session->results.size());
    case Origin:
      return origin_text(o);
  }
  return {};
}

bool SessionsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.column() != Name) return false;
  if (role == Qt::CheckStateRole) {
    store_->set_hidden(index.row(), value.toInt() != Qt::Checked);
    return true;
  }
  if (role == Qt::EditRole) {
    // The engine's name typed back is no name of the person's: it keeps following the rule.
    const QString name = value.toString().trimmed();
    store_->rename(index.row(), name == store_->names().value(index.row()) ? QString() : name);
    return true;
  }
  return false;
}

Qt::ItemFlags SessionsModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == Name) f |= Qt::ItemIsEditable | Qt::ItemIsUserCheckable;
  return f;
}

QVariant SessionsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  // The dock is narrow (a fifth of a 1366-pixel window): short titles, the rest in tooltips.
  if (role == Qt::ToolTipRole && section == Name)
    return "The sessions open; a checked one is drawn in the charts. Double-click a name to "
           "rename it.";
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Name:
      return "Session";
    case Compared:
      return "A/B";
    case Points:
      return "Points";
    case Origin:
      return "From";
  }
  return {};
}

SessionsPanel::SessionsPanel(SessionStore* store, QWidget* parent)
    : QWidget(parent),
      store_(store),
      model_(new SessionsModel(store, this)),
      view_(new QTableView),
      a_(new QComboBox),
      b_(new QComboBox),
      close_(new QPushButton("Close session")),
      summary_(new QLabel),
      unmatched_(new QPlainTextEdit) {
  view_->setModel(model_);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view_->horizontalHeader()->setSectionResizeMode(SessionsModel::Name, QHeaderView::Stretch);
  // The dock is narrow: where a session came from is in its name's tooltip instead.
  view_->setColumnHidden(SessionsModel::Origin, true);
  view_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  close_->setToolTip("Closes the selected session (not while a run adds points)");
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  unmatched_->setReadOnly(true);
  unmatched_->setMaximumBlockCount(2000);
  unmatched_->setPlaceholderText("Every point of A was measured in B and the other way round.");
  // Session names are long ("CPU (host emulation), 2026-..."): the boxes elide them rather than
  // widen the dock, and with it the window, past the screen.
  for (QComboBox* box : {a_, b_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
  }
  auto* pick = new QGridLayout;
  pick->addWidget(new QLabel("A (before)"), 0, 0);
  pick->addWidget(a_, 0, 1);
  pick->addWidget(new QLabel("B (against A)"), 1, 0);
  pick->addWidget(b_, 1, 1);
  pick->setColumnStretch(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(view_, 2);
  layout->addWidget(close_);
  layout->addLayout(pick);
  layout->addWidget(summary_);
  layout->addWidget(unmatched_, 1);
  connect(close_, &QPushButton::clicked, this, &SessionsPanel::close_selected);
  // Choosing for A the session that is B (or the other way round) swaps the two; where none
  // was compared (no two of one kind of time), the other side takes another open session.
  auto other_than = [](int i) { return i == 0 ? 1 : 0; };
  connect(a_, &QComboBox::activated, this, [this, other_than](int a) {
    const int b = b_->currentIndex();
    store_->set_compared(a, b < 0 ? other_than(a) : a == b ? store_->compared_a() : b);
  });
  connect(b_, &QComboBox::activated, this, [this, other_than](int b) {
    const int a = a_->currentIndex();
    store_->set_compared(a < 0 ? other_than(b) : a == b ? store_->compared_b() : a, b);
  });
  connect(store_, &SessionStore::overlays_changed, this, &SessionsPanel::reload);
  connect(store_, &SessionStore::reset, this, &SessionsPanel::reload);
  connect(store_, &SessionStore::metadata_changed, this, &SessionsPanel::reload);
  connect(store_, &SessionStore::time_basis_changed, this, &SessionsPanel::reload);
  reload();
}

void SessionsPanel::close_selected() {
  const QModelIndexList rows = view_->selectionModel()->selectedRows();
  if (!rows.isEmpty()) store_->close(rows.front().row());
}

void SessionsPanel::reload() {
  const QStringList names = store_->names();
  for (QComboBox* box : {a_, b_}) {
    const QSignalBlocker quiet(box);
    box->clear();
    box->addItems(names);
    box->setEnabled(names.size() > 1);
  }
  a_->setCurrentIndex(store_->compared_a());
  b_->setCurrentIndex(store_->compared_b());
  const std::vector<ShownSession> pair = store_->compared();
  if (pair.size() != 2) {
    summary_->setText(store_->only_other_kinds_to_compare()
                          ? "The open sessions hold different kinds of time (the host "
                            "emulation's CPU times, a GPU's times): none is compared by "
                            "default. Choose A and B to compare two anyway."
                          : "Open a second session (run an experiment, or File > Open / "
                            "Overlay) to compare two point by point.");
    unmatched_->clear();
    return;
  }
  // The whole sessions, every setting (the charts draw the ladder's setting only).
  const SessionComparison cmp =
      compare_sessions(*pair[0].session, *pair[1].session, store_->time_basis());
  QString text = QString("<b>B = %1 against A = %2</b>, all points: %3")
                     .arg(pair[1].label.toHtmlEscaped(), pair[0].label.toHtmlEscaped(),
                          QString::fromStdString(cmp.summary()).toHtmlEscaped());
  if (!cmp.kinds_of_time.empty())
    text += QString("<br><span style=\"color:#b3001b\">%1</span>")
                .arg(QString::fromStdString(cmp.kinds_of_time).toHtmlEscaped());
  summary_->setText(text);
  QStringList lines;
  for (const PointComparison& p : cmp.points)
    if (p.verdict == Verdict::NotComparable)
      lines << QString("not comparable: %1 (%2)")
                   .arg(QString::fromStdString(compared_point_label(p.point)),
                        QString::fromStdString(p.why));
  for (const PointSpec& p : cmp.only_a)
    lines << "only in A: " + QString::fromStdString(compared_point_label(p));
  for (const PointSpec& p : cmp.only_b)
    lines << "only in B: " + QString::fromStdString(compared_point_label(p));
  unmatched_->setPlainText(lines.join('\n'));
}

QString SessionsPanel::comparison_text() const {
  return summary_->text() + "\n" + unmatched_->toPlainText();
}

}  // namespace rl::gui
