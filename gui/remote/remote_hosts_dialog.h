// "Remote machines...": the machines the app reaches through a launcher (remote_host.h), each
// with its launcher and the path of reductionlab-cli there. Adding one lists its devices
// (what it answered is shown beside it); nothing here waits on the machine.
#pragma once

#include <QDialog>
#include <QHash>
#include <QList>

#include "remote/remote_host.h"

class QLabel;
class QLineEdit;
class QListWidget;

namespace rl::gui {

class RemoteHostsDialog : public QDialog {
  Q_OBJECT
 public:
  RemoteHostsDialog(const QList<RemoteHost>& hosts, QWidget* parent = nullptr);
  // What the machine answered ("gpu-box: 1 GPU(s)", or why not); "" while asking.
  void set_status(const QString& name, const QString& status);
  // Tests.
  QLineEdit* name_field() const { return name_; }
  QLineEdit* launcher_field() const { return launcher_; }
  QLineEdit* cli_field() const { return cli_; }
  QLabel* problem_label() const { return problem_; }
  bool add();  // the fields as a new machine; false (and the reason shown) when they cannot be

 signals:
  void host_added(const rl::gui::RemoteHost& host);
  void host_removed(const QString& name);

 private:
  void refresh();
  QList<RemoteHost> hosts_;
  QHash<QString, QString> status_;
  QListWidget* list_;
  QLineEdit *name_, *launcher_, *cli_;
  QLabel* problem_;
};

}  // namespace rl::gui
