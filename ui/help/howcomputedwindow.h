#pragma once
// "How this is computed" (Help menu, Ctrl+I): the planner's current estimate item by item, in a
// window beside the planner that follows it. It reads the estimate the window draws
// (PlanController::estimate()) and sizes in the window's unit, so its component totals are the
// breakdown's figures. It is rebuilt when shown, when activated after the unit changed, and
// after updates while shown: those are gathered for a moment (a slider drag sends dozens a
// second, and laying out the page takes longer than estimating), so the page follows the drag's
// last value rather than every one.

#include "help/computedsheet.h"

#include <QTimer>
#include <QWidget>

class QLabel;
class QTextBrowser;

namespace vramplan::ui {

class MainWindow;

class HowComputedWindow : public QWidget
{
    Q_OBJECT

public:
    explicit HowComputedWindow(MainWindow *window);

    QTextBrowser *browser() const { return m_browser; }
    const ComputedSheet &sheet() const { return m_sheet; }
    // Rebuilds the page from the window's current estimate, keeping the reader's place.
    void refresh();
    // Whether an update is waiting to be shown (for tests: wait until it is not).
    bool isPending() const { return m_pending.isActive(); }

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    MainWindow *m_window;
    ComputedSheet m_sheet;
    Unit m_unit = Unit::GiB; // the unit the page was built in
    QTimer m_pending;
    QLabel *m_scenario;
    QTextBrowser *m_browser;
};

} // namespace vramplan::ui
