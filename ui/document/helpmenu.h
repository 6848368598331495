#pragma once
// The window's Help menu: "vramplan Help" (F1, beside the platform's own help key), a short
// guide in a dialog, and About.

class QMenuBar;
class QWidget;

namespace vramplan::ui {

void addHelpMenu(QWidget *window, QMenuBar *menus);

} // namespace vramplan::ui
