#pragma once
// The window's Help menu: "vramplan Guide" (F1, beside the platform's own help key), a window
// of its own that explains each memory component with a worked example computed by the
// estimator; "How This Is Computed" (Ctrl+I), the current estimate item by item; and About,
// which names the libraries and their versions.

#include <QString>

class QMenuBar;

namespace vramplan::ui {

class GuideWindow;
class HowComputedWindow;
class MainWindow;

void addHelpMenu(MainWindow *window, QMenuBar *menus);

// The window's guide and "How this is computed" view, made on first use (children of the
// window, closed with it), shown and raised.
GuideWindow *showGuide(MainWindow *window);
HowComputedWindow *showHowComputed(MainWindow *window);
// About's text: the version, Qt at build and at run time, QCustomPlot, nlohmann_json, licences.
QString aboutText();

} // namespace vramplan::ui
