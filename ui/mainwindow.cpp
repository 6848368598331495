#include "mainwindow.h"

#include "breakdownchart.h"
#include "controlspanel.h"
#include "curvechart.h"
#include "estimate_json.h"
#include "plancontroller.h"
#include "settings.h"
#include "timelinechart.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QGridLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>

namespace vramplan::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_controller(new PlanController(this)), m_controls(new ControlsPanel),
      m_breakdown(new BreakdownChart), m_batchCurve(new CurveChart),
      m_sequenceCurve(new CurveChart), m_gpuCurve(new CurveChart), m_timeline(new TimelineChart),
      m_curveTabs(new QTabWidget), m_peakLabel(new QLabel), m_fitLabel(new QLabel),
      m_phaseLabel(new QLabel), m_paramsLabel(new QLabel)
{
    setWindowTitle(tr("vramplan"));
    m_unit = Settings::unit();

    auto *scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(300);

    m_curveTabs->addTab(m_batchCurve, tr("Micro-batch"));
    m_curveTabs->addTab(m_sequenceCurve, tr("Sequence length"));
    m_curveTabs->addTab(m_gpuCurve, tr("GPU count"));

    auto *charts = new QWidget;
    auto *grid = new QGridLayout(charts);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->addWidget(m_breakdown, 0, 0, 2, 1);
    grid->addWidget(m_curveTabs, 0, 1);
    grid->addWidget(m_timeline, 1, 1);
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 3);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);

    auto *splitter = new QSplitter;
    splitter->addWidget(scroll);
    splitter->addWidget(charts);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({370, 910}); // the charts are what the user came for
    setCentralWidget(splitter);

    statusBar()->addWidget(m_peakLabel);
    statusBar()->addWidget(m_fitLabel);
    statusBar()->addWidget(m_phaseLabel);
    statusBar()->addPermanentWidget(m_paramsLabel);

    buildMenus();
    connect(m_controls, &ControlsPanel::edited, this,
            [this](const Scenario &s, bool) { m_controller->setScenario(s); });
    connect(m_controls, &ControlsPanel::refused, this,
            [this](const QString &why) { statusBar()->showMessage(why, 6000); });
    connect(m_controller, &PlanController::updated, this, &MainWindow::redraw);

    const QByteArray geometry = Settings::windowGeometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(1280, 800);
    restoreState(Settings::windowState());
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *units = new QActionGroup(this);
    QAction *gib = view->addAction(tr("Sizes in &GiB (2^30 bytes)"));
    QAction *gb = view->addAction(tr("Sizes in G&B (10^9 bytes)"));
    for (QAction *a : {gib, gb}) {
        a->setCheckable(true);
        units->addAction(a);
    }
    (m_unit == Unit::GiB ? gib : gb)->setChecked(true);
    connect(gib, &QAction::triggered, this, [this] { setUnit(Unit::GiB); });
    connect(gb, &QAction::triggered, this, [this] { setUnit(Unit::GB); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About vramplan"), this, [this] {
        QMessageBox::about(this, tr("About vramplan"),
                           tr("<b>vramplan</b> %1<br>Will this training run fit on my GPUs, and "
                              "what do I change if it doesn't?<br><br>GPL-3.0-or-later.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::setScenario(const Scenario &scenario)
{
    m_controls->setScenario(scenario);
    m_controller->setScenario(scenario);
}

const Scenario &MainWindow::scenario() const
{
    return m_controller->scenario();
}

void MainWindow::setUnit(Unit unit)
{
    m_unit = unit;
    Settings::setUnit(unit);
    redraw();
}

void MainWindow::redraw()
{
    const Estimate &e = m_controller->estimate();
    m_breakdown->setEstimate(e, m_unit);
    m_timeline->setEstimate(e, m_unit);
    m_batchCurve->setCurve(m_controller->batchCurve(), m_unit);
    m_sequenceCurve->setCurve(m_controller->sequenceCurve(), m_unit);
    m_gpuCurve->setCurve(m_controller->gpuCurve(), m_unit);

    m_peakLabel->setText(tr("Peak %1 per GPU").arg(formatSize(e.peak.device, m_unit)));
    if (e.fits) {
        m_fitLabel->setText(tr("fits, %1 headroom").arg(formatSize(e.headroomBytes, m_unit)));
        m_fitLabel->setStyleSheet(QStringLiteral("color: #2e7d32; font-weight: bold"));
    } else {
        m_fitLabel->setText(
            tr("does not fit: over by %1").arg(formatSize(-e.headroomBytes, m_unit)));
        m_fitLabel->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold").arg(overflowColor().name()));
    }
    m_phaseLabel->setText(tr("peak at %1")
                              .arg(QString::fromUtf8(phaseLabel(e.peak.phase).data(),
                                                     int(phaseLabel(e.peak.phase).size()))));
    m_paramsLabel->setText(tr("%1 B parameters, %2 B trainable")
                               .arg(double(e.parameters.total) / 1e9, 0, 'f', 2)
                               .arg(double(e.trainableParameters) / 1e9, 0, 'f', 3));
    const QString name = QString::fromStdString(scenario().name);
    setWindowTitle(name.isEmpty() ? tr("vramplan") : tr("%1 - vramplan").arg(name));
}

QString MainWindow::statusText() const
{
    return QStringList{m_peakLabel->text(), m_fitLabel->text(), m_phaseLabel->text(),
                       m_paramsLabel->text()}
        .join(QStringLiteral(" | "));
}

bool MainWindow::saveScreenshot(const QString &path, QSize size)
{
    resize(size);
    show();
    QApplication::processEvents();
    redraw();
    QApplication::processEvents();
    return grab().save(path);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    Settings::setWindowGeometry(saveGeometry());
    Settings::setWindowState(saveState());
    event->accept();
}

} // namespace vramplan::ui
