#include "app_setup.h"

#include <QApplication>
#include <QFont>
#include <QFontDatabase>
#include <QIcon>

#include "metatypes.h"
#include "wheel_guard.h"

namespace rl::gui {

QString setup_application(const QString& organization) {
  QCoreApplication::setOrganizationName(organization);
  QCoreApplication::setApplicationName("reductionlab");
  QApplication::setApplicationDisplayName("ReductionLab");
  register_metatypes();
  WheelGuard::install();  // the wheel scrolls forms instead of changing unfocused settings
  QString family;
  for (const char* file : {":/fonts/DejaVuSans.ttf", ":/fonts/DejaVuSans-Bold.ttf"}) {
    const int id = QFontDatabase::addApplicationFont(file);
    if (id >= 0 && family.isEmpty()) family = QFontDatabase::applicationFontFamilies(id).value(0);
  }
  // The Code view's monospaced font, for machines whose font configuration has none.
  QFontDatabase::addApplicationFont(":/fonts/DejaVuSansMono.ttf");
  if (!family.isEmpty()) {
    QFont font(family);
    font.setPointSizeF(9.5);
    QApplication::setFont(font);
  }
  QApplication::setWindowIcon(QIcon(":/icons/reductionlab.svg"));
  return family;
}

}  // namespace rl::gui
