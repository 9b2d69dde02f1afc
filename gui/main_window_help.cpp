// The window's Help menu: Getting started (F1), Keyboard shortcuts, About. Each page is a window
// of its own beside the main one (not modal), shown again, not opened twice, when asked again.
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontMetrics>
#include <QMenu>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "help_pages.h"
#include "main_window.h"

namespace rl::gui {

void MainWindow::build_help_menu() {
  QMenu* help = menuBar()->addMenu("&Help");
  auto add = [&](const QString& text, const QKeySequence& key, HelpPage page) {
    QAction* a = help->addAction(text);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::triggered, this, [this, page] { show_help(page); });
  };
  add("&Getting started", QKeySequence(Qt::Key_F1), HelpPage::GettingStarted);
  add("&Keyboard shortcuts", QKeySequence("Ctrl+/"), HelpPage::Keys);
  help->addSeparator();
  add("&About ReductionLab", QKeySequence(), HelpPage::About);
}

QString MainWindow::help_html(HelpPage page) const {
  switch (page) {
    case HelpPage::GettingStarted: {
      QString here;
      if (discovery_) {
        QStringList gpus;
        for (const DeviceInfo& d : discovery_->gpus) gpus << QString::fromStdString(d.label());
        here = gpus.isEmpty()
                   ? "no CUDA GPU found (" + QString::fromStdString(discovery_->no_gpu_reason) +
                         "); runs use the host backend, on the CPU."
                   : "GPU: " + gpus.join(", ") + ".";
      }
      return getting_started_html(here);
    }
    case HelpPage::Keys:
      return "<h2>Keyboard shortcuts</h2>" + keyboard_shortcuts_html(keyboard_shortcuts(*this));
    case HelpPage::About:
      return about_html();
  }
  return {};
}

QDialog* MainWindow::show_help(HelpPage page) {
  static const char* const names[] = {"help_getting_started", "help_keys", "help_about"};
  static const char* const titles[] = {"Getting started", "Keyboard shortcuts",
                                       "About ReductionLab"};
  const int i = int(page);
  auto* dialog = findChild<QDialog*>(names[i], Qt::FindDirectChildrenOnly);
  if (!dialog) {
    dialog = new QDialog(this);
    dialog->setObjectName(names[i]);
    dialog->setWindowTitle(titles[i]);
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser;
    text->setOpenExternalLinks(true);
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    // Readable without filling a small screen: about 60 characters wide, 30 lines high.
    const QFontMetrics fm(font());
    dialog->resize(fm.averageCharWidth() * 70,
                   fm.lineSpacing() * (page == HelpPage::About ? 14 : 32));
  }
  dialog->findChild<QTextBrowser*>()->setHtml(help_html(page));
  dialog->show();
  dialog->raise();
  return dialog;
}

}  // namespace rl::gui
