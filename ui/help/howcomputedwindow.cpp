// The "How this is computed" window.

#include "help/howcomputedwindow.h"

#include "document/scenarioname.h"
#include "mainwindow.h"
#include "plancontroller.h"

#include <QEvent>
#include <QLabel>
#include <QScrollBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace vramplan::ui {

HowComputedWindow::HowComputedWindow(MainWindow *window)
    : QWidget(window, Qt::Window), m_window(window), m_scenario(new QLabel),
      m_browser(new QTextBrowser)
{
    setObjectName(QStringLiteral("howComputedWindow"));
    setWindowTitle(tr("How This Is Computed"));
    m_scenario->setObjectName(QStringLiteral("howComputedScenario"));
    m_scenario->setWordWrap(true);
    m_scenario->setTextFormat(Qt::PlainText);
    m_scenario->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_browser->setObjectName(QStringLiteral("howComputedText"));
    // A worked formula ("2*4096*14336*2*32") or a source path has no space to break at; breaking
    // inside it keeps the tables within the window instead of scrolling sideways.
    m_browser->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_scenario);
    layout->addWidget(m_browser, 1);
    // Hidden, an update does nothing: showEvent rebuilds from the estimate of the moment.
    m_pending.setSingleShot(true);
    m_pending.setInterval(120);
    connect(&m_pending, &QTimer::timeout, this, &HowComputedWindow::refresh);
    connect(window->controller(), &PlanController::updated, this, [this] {
        if (isVisible())
            m_pending.start();
    });
    resize(1100, 760);
}

void HowComputedWindow::refresh()
{
    m_pending.stop();
    const PlanController *controller = m_window->controller();
    m_sheet = computedSheet(controller->estimate());
    m_unit = m_window->unit();
    m_scenario->setText(tr("Scenario: %1").arg(shownName(controller->scenario())));
    QScrollBar *bar = m_browser->verticalScrollBar();
    const int place = bar->value();
    m_browser->setHtml(computedSheetHtml(m_sheet, m_window->unit()));
    bar->setValue(place);
}

void HowComputedWindow::showEvent(QShowEvent *event)
{
    refresh();
    QWidget::showEvent(event);
}

void HowComputedWindow::changeEvent(QEvent *event)
{
    // View > Sizes in GB changes the unit without a new estimate.
    if (event->type() == QEvent::ActivationChange && isActiveWindow() && m_window->unit() != m_unit)
        refresh();
    QWidget::changeEvent(event);
}

} // namespace vramplan::ui
