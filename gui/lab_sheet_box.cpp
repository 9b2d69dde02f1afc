#include "lab_sheet_box.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "engine/core/error.h"

namespace rl::gui {

namespace {

constexpr const char* kShipped = ":/labs";

QLabel* wrapped(const char* name) {
  auto* l = new QLabel;
  l->setObjectName(name);
  l->setWordWrap(true);
  l->setTextFormat(Qt::RichText);
  return l;
}

}  // namespace

LabSheetBox::LabSheetBox(QWidget* parent) : QWidget(parent) {
  picker_ = new QComboBox;
  picker_->setObjectName("lab_sheet");
  picker_->addItem("No lab sheet", QString());
  for (const QString& f : QDir(kShipped).entryList({"*.json"}, QDir::Files, QDir::Name))
    picker_->addItem(f.chopped(5), QString(kShipped) + "/" + f);
  task_ = wrapped("lab_task"), hints_ = wrapped("lab_hints"), goals_ = wrapped("lab_goals");
  start_ = new QPushButton("Start from its kernel");
  hint_ = new QPushButton("Next hint");
  hint_->setObjectName("lab_next_hint");
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(hint_);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(picker_);
  layout->addWidget(task_);
  layout->addLayout(buttons);
  layout->addWidget(hints_);
  layout->addWidget(goals_);
  connect(picker_, &QComboBox::currentIndexChanged, this, &LabSheetBox::choose);
  connect(hint_, &QPushButton::clicked, this, [this] {
    if (sheet_ && hints_shown_ < int(sheet_->hints.size())) ++hints_shown_;
    show_sheet();
  });
  connect(start_, &QPushButton::clicked, this, [this] {
    if (sheet_)
      emit start_requested(QString::fromStdString(sheet_->starter),
                           QString::fromStdString(sheet_->rung),
                           QString::fromStdString(sheet_->start));
  });
  show_sheet();
}

void LabSheetBox::choose(int index) {
  const QString path = picker_->itemData(index).toString();
  sheet_.reset();
  hints_shown_ = 0;
  if (path.startsWith(kShipped)) {
    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
      try {
        sheet_ = parse_lab_sheet(f.readAll().toStdString(), path.mid(2).toStdString());
      } catch (const Error& e) {
        task_->setText(QString::fromStdString(e.what()).toHtmlEscaped());
      }
    }
  } else if (!path.isEmpty()) {
    const int i = path.toInt();
    if (i >= 0 && i < int(opened_.size())) sheet_ = opened_[std::size_t(i)];
  }
  show_sheet();
}

bool LabSheetBox::open_sheet(const QString& path, QString* why) {
  try {
    opened_.push_back(read_lab_sheet_file(path.toStdString()));
  } catch (const Error& e) {
    *why = QString::fromStdString(e.what());
    return false;
  }
  picker_->addItem(QString::fromStdString(opened_.back().title),
                   QString::number(opened_.size() - 1));
  picker_->setCurrentIndex(picker_->count() - 1);
  return true;
}

void LabSheetBox::show_sheet() {
  const bool on = sheet_.has_value();
  for (QWidget* w :
       {static_cast<QWidget*>(task_), static_cast<QWidget*>(hints_), static_cast<QWidget*>(goals_),
        static_cast<QWidget*>(start_), static_cast<QWidget*>(hint_)})
    w->setVisible(on);
  if (!on) return;
  task_->setText("<b>" + QString::fromStdString(sheet_->title).toHtmlEscaped() + "</b><br>" +
                 QString::fromStdString(sheet_->task).toHtmlEscaped());
  start_->setEnabled(!sheet_->starter.empty());
  hint_->setEnabled(hints_shown_ < int(sheet_->hints.size()));
  hint_->setText(QString("Next hint (%1 of %2)")
                     .arg(std::min<int>(hints_shown_ + 1, int(sheet_->hints.size())))
                     .arg(sheet_->hints.size()));
  QString hints;
  for (int i = 0; i < hints_shown_; ++i)
    hints += QString("Hint %1: %2<br>")
                 .arg(i + 1)
                 .arg(QString::fromStdString(sheet_->hints[std::size_t(i)]).toHtmlEscaped());
  hints_->setText(hints);
  if (goals_->text().isEmpty() || !goals_->property("judged").toBool()) {
    QString goals = "<b>Goals</b> (judged on the shown session after a run)<br>";
    for (const LabGoal& g : sheet_->goals)
      goals += "&bull; " + QString::fromStdString(describe_goal(g)).toHtmlEscaped() + "<br>";
    goals_->setText(goals);
  }
}

void LabSheetBox::judge(const Session& session, const QString& rung) {
  if (!sheet_) return;
  const std::vector<GoalJudgement> verdicts = judge_lab_sheet(*sheet_, session, rung.toStdString());
  QString text = QString("<b>Goals for %1: %2</b><br>")
                     .arg(rung.toHtmlEscaped(), lab_sheet_met(verdicts) ? "all met" : "not yet");
  for (const GoalJudgement& j : verdicts) {
    const char* mark = j.verdict == GoalVerdict::Met      ? "&#10004;"
                       : j.verdict == GoalVerdict::NotMet ? "&#10008;"
                                                          : "&ndash;";
    text += QString("%1 %2<br>").arg(mark, QString::fromStdString(j.sentence).toHtmlEscaped());
  }
  goals_->setProperty("judged", true);
  goals_->setText(text);
}

QString LabSheetBox::goals_text() const {
  return goals_->text();
}
QString LabSheetBox::hints_text() const {
  return hints_->text();
}

}  // namespace rl::gui
