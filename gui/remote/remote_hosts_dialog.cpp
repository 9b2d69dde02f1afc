#include "remote/remote_hosts_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace rl::gui {

RemoteHostsDialog::RemoteHostsDialog(const QList<RemoteHost>& hosts, QWidget* parent)
    : QDialog(parent),
      hosts_(hosts),
      list_(new QListWidget),
      name_(new QLineEdit),
      launcher_(new QLineEdit),
      cli_(new QLineEdit("reductionlab-cli")),
      problem_(new QLabel) {
  setWindowTitle("Remote machines");
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      "A machine is a launcher, the command that reaches it, and the path of reductionlab-cli "
      "there. The app runs <tt>LAUNCHER reductionlab-cli devices --json</tt> and <tt>... run "
      "--stream jsonl --spec -</tt>; your ssh config and agent authenticate (no password is "
      "stored). See docs/remote.md.");
  intro->setWordWrap(true);
  layout->addWidget(intro);
  layout->addWidget(list_, 1);
  auto* remove = new QPushButton("Remove");
  connect(remove, &QPushButton::clicked, this, [this] {
    const int row = list_->currentRow();
    if (row < 0 || row >= hosts_.size()) return;
    const QString name = hosts_.takeAt(row).name;
    refresh();
    emit host_removed(name);
  });
  layout->addWidget(remove, 0, Qt::AlignRight);
  auto* form = new QFormLayout;
  name_->setPlaceholderText("gpu-box");
  launcher_->setPlaceholderText("ssh gpu-box   |   srun -p gpu --gres=gpu:1   |   docker exec lab");
  form->addRow("Name", name_);
  form->addRow("Launcher", launcher_);
  form->addRow("reductionlab-cli there", cli_);
  layout->addLayout(form);
  problem_->setWordWrap(true);
  problem_->setStyleSheet("color: #b00");
  layout->addWidget(problem_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  auto* add_button = buttons->addButton("Add and list its devices", QDialogButtonBox::ActionRole);
  connect(add_button, &QPushButton::clicked, this, [this] { add(); });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(640, 420);
  refresh();
}

bool RemoteHostsDialog::add() {
  RemoteHost h{name_->text().trimmed(), launcher_->text().trimmed(), cli_->text().trimmed()};
  QList<RemoteHost> others = hosts_;
  const QString problem = remote_host_problem(h, others);
  problem_->setText(problem);
  if (!problem.isEmpty()) return false;
  hosts_ << h;
  status_[h.name] = "asking for its devices...";
  refresh();
  name_->clear();
  launcher_->clear();
  emit host_added(h);
  return true;
}

void RemoteHostsDialog::set_status(const QString& name, const QString& status) {
  status_[name] = status;
  refresh();
}

void RemoteHostsDialog::refresh() {
  list_->clear();
  for (const RemoteHost& h : hosts_) {
    QString text = QString("%1   %2 %3").arg(h.name, h.launcher, h.cli);
    if (const QString s = status_.value(h.name); !s.isEmpty()) text += "\n    " + s;
    list_->addItem(text);
  }
}

}  // namespace rl::gui
