#include "mainwindow.h"

#include "advisorworker.h"
#include "catalog.h"
#include "charts/breakdownchart.h"
#include "charts/curvechart.h"
#include "charts/timelinechart.h"
#include "chartspage.h"
#include "document/comparisonactions.h"
#include "document/dialogs.h"
#include "document/document.h"
#include "document/exportactions.h"
#include "document/fileactions.h"
#include "document/helpmenu.h"
#include "document/language.h"
#include "document/settings.h"
#include "document/undokeys.h"
#include "panels/calibrationdialog.h"
#include "panels/comparisonview.h"
#include "panels/controlspanel.h"
#include "panels/fitadvisorpanel.h"
#include "panels/presetpicker.h"
#include "panels/servinggroup.h"
#include "panels/statusline.h"
#include "plancontroller.h"
#include "imports/setupimportactions.h"
#include "runs/measuredrunactions.h"
#include "servingcharts.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QToolTip>
#include <QUndoStack>

namespace vramplan::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_document(new Document(this)), m_controls(new ControlsPanel),
      m_breakdown(new BreakdownChart), m_batchCurve(new CurveChart),
      m_sequenceCurve(new CurveChart), m_gpuCurve(new CurveChart), m_timeline(new TimelineChart),
      m_fit(new FitAdvisorPanel), m_advisor(new AdvisorWorker(this)), m_pages(new QTabWidget),
      m_comparison(new ComparisonView), m_status(new StatusLine)
{
    setAcceptDrops(true);
    setWindowTitle(tr("vramplan"));
    m_unit = Settings::unit();
    m_controls->setUnit(m_unit);
    m_comparison->setUnit(m_unit);
    m_fit->setUnit(m_unit);

    auto *scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the controls need: with no horizontal scroll bar, a narrower panel would cut
    // every row off at the right.
    scroll->setMinimumWidth(m_controls->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() +
                            2 * scroll->frameWidth());
    m_fit->setCollapsed(Settings::fitPanelCollapsed());
    m_chartsPage =
        new ChartsPage(m_breakdown, m_fit, m_batchCurve, m_sequenceCurve, m_gpuCurve, m_timeline);
    // An inference server's curves stand in for the training sweeps while an engine is chosen.
    m_servingCharts = new ServingCharts(m_chartsPage->curveTabs(),
                                        {m_batchCurve, m_sequenceCurve, m_gpuCurve}, this);
    m_pages->addTab(m_chartsPage, tr("Plan"));
    m_pages->addTab(m_comparison, tr("Compare"));
    m_pages->setDocumentMode(true);
    auto *splitter = new QSplitter;
    splitter->addWidget(scroll);
    splitter->addWidget(m_pages);
    // The charts are what the user came for; a smaller window takes a quarter of its loss from
    // the controls.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({390, 890});
    setCentralWidget(splitter);
    setStatusBar(m_status);

    m_fileActions = new FileActions(m_document, this);
    m_exportActions = new ExportActions(
        m_document,
        {m_breakdown, m_batchCurve, m_sequenceCurve, m_gpuCurve, m_timeline, m_comparison,
         [this] { return m_pages->currentWidget() == m_comparison; }},
        this);
    m_exportActions->setServingCharts(m_servingCharts); // a server's curves, in inference mode
    // The comparison's rows of inputs named as the controls name them (issue 21 #13).
    m_comparison->setFieldLabels([this](const QString &path) {
        const QWidget *control = m_controls->controlFor(path);
        return control ? ControlGroup::label(control) : QString();
    });
    m_comparisonActions =
        new ComparisonActions(m_document, m_comparison, this, [this] { showComparison(); });
    m_measuredRuns = new MeasuredRunActions(this);
    m_setupImports = new SetupImportActions(this);
    buildMenus();

    connect(m_controls, &ControlsPanel::edited, this,
            [this](const Scenario &s, bool dragging, const QString &what) {
                m_document->edit(s, what, dragging);
            });
    connect(m_controls, &ControlsPanel::refused, this, &MainWindow::showRefusal);
    connect(m_controls, &ControlsPanel::noted, this, &MainWindow::showRefusal);
    connect(m_document, &Document::applied, m_controls, &ControlsPanel::setScenario);
    connect(m_document, &Document::titleChanged, this, &MainWindow::updateTitle);
    connect(m_document->controller(), &PlanController::updated, this, &MainWindow::redraw);
    connect(m_comparison, &ComparisonView::loadRequested, this, &MainWindow::showPlan);
    // Every new scenario is searched off the UI thread; only the newest one's advice lands.
    connect(m_document->controller(), &PlanController::updated, this, &MainWindow::requestAdvice);
    connect(m_advisor, &AdvisorWorker::ready, m_fit, &FitAdvisorPanel::setResult);
    connect(m_fit, &FitAdvisorPanel::applyRequested, this, &MainWindow::applySuggestion);
    connect(m_fit, &FitAdvisorPanel::previewRequested, m_breakdown, &BreakdownChart::setPreview);
    connect(m_fit, &FitAdvisorPanel::previewCleared, m_breakdown, &BreakdownChart::clearPreview);
    connect(m_fit, &FitAdvisorPanel::collapsedChanged, this,
            [](bool collapsed) { Settings::setFitPanelCollapsed(collapsed); });

    const QByteArray geometry = Settings::windowGeometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(1280, 800);
    restoreState(Settings::windowState());
}

MainWindow::~MainWindow()
{
    // The document and its undo stack are children, destroyed in ~QWidget after this object's
    // part is gone: nothing of theirs may reach the window on the way out.
    m_document->disconnect(this);
    m_document->controller()->disconnect(this);
    // Nor the controls: ~QWidget hides the window, and the editor that loses the focus then
    // finishes its edit (found by UBSan, a window destroyed with the Name field focused).
    m_controls->disconnect(this);
    // The search under way, if any, is stopped and its thread joined before the panel it
    // would report to goes.
    delete m_advisor;
    m_advisor = nullptr;
}

void MainWindow::setScenario(const Scenario &scenario)
{
    m_document->reset(scenario);
}

bool MainWindow::openFile(const QString &path)
{
    return m_fileActions->openFile(path);
}

bool MainWindow::saveTo(const QString &path)
{
    return m_fileActions->saveTo(path);
}

bool MainWindow::importHfConfig(const QString &path)
{
    return m_fileActions->importHfConfig(path);
}

QString MainWindow::filePath() const
{
    return m_document->filePath();
}

QString MainWindow::exportChart(const QString &chart, const QString &path)
{
    return m_exportActions->exportChart(chart, path);
}

QString MainWindow::exportTable(const QString &path)
{
    return m_exportActions->exportTable(path);
}

QString MainWindow::exportComparisonTable(const QString &path)
{
    return m_exportActions->exportComparisonTable(path);
}

QString MainWindow::defaultAutosavePath()
{
    return FileActions::defaultAutosavePath();
}

void MainWindow::setAutosavePath(const QString &path)
{
    m_fileActions->setAutosavePath(path);
}

QString MainWindow::autosavePath() const
{
    return m_fileActions->autosavePath();
}

void MainWindow::autosaveNow()
{
    m_fileActions->autosaveNow();
}

bool MainWindow::recoverAutosave(const QString &path)
{
    return m_fileActions->recoverAutosave(path);
}

QUndoStack *MainWindow::undoStack() const
{
    return m_document->undoStack();
}

bool MainWindow::isModified() const
{
    return m_document->isModified();
}

const Scenario &MainWindow::scenario() const
{
    return m_document->scenario();
}

PlanController *MainWindow::controller() const
{
    return m_document->controller();
}

void MainWindow::showComparison()
{
    m_pages->setCurrentWidget(m_comparison);
}

void MainWindow::showPlan()
{
    m_pages->setCurrentIndex(0);
}

bool MainWindow::compareFiles(const QStringList &paths)
{
    return m_comparisonActions->compareFiles(paths);
}

bool MainWindow::openMeasuredRunFiles(const QStringList &paths)
{
    return m_measuredRuns->openFiles(paths);
}

void MainWindow::setCalibration(const Calibration &calibration)
{
    Scenario next = scenario();
    next.calibration = calibration;
    m_document->edit(next,
                     calibration.present ? tr("Calibrate from my run") : tr("Clear calibration"));
}

void MainWindow::showRefusal(const QString &reason, QWidget *control)
{
    statusBar()->showMessage(reason, 8000);
    // Said where the user is looking: at the control they just edited.
    if (control && control->isVisible())
        QToolTip::showText(control->mapToGlobal(QPoint(0, control->height())), reason, control);
}

void MainWindow::requestAdvice()
{
    m_fit->setPending(scenario());
    m_advisor->request(scenario());
}

void MainWindow::applySuggestion(const Scenario &suggestion, const QString &what)
{
    m_document->edit(suggestion, what);
}

void MainWindow::setUnit(Unit unit)
{
    m_unit = unit;
    m_controls->setUnit(unit);
    m_comparison->setUnit(unit);
    m_fit->setUnit(unit);
    Settings::setUnit(unit);
    redraw();
    emit unitChanged(unit);
}

void MainWindow::redraw()
{
    const PlanController *c = controller();
    const Estimate &e = c->estimate();
    const auto &balanced = c->balancedEstimate();
    m_breakdown->setEstimate(
        e, m_unit, balanced ? std::optional<double>(balanced->peak.device) : std::nullopt);
    m_timeline->setEstimate(e, m_unit);
    m_chartsPage->setEstimate(e, m_unit); // an RL plan: its phases in the breakdown's place
    m_batchCurve->setCurve(c->batchCurve(), m_unit);
    m_sequenceCurve->setCurve(c->sequenceCurve(), m_unit);
    m_gpuCurve->setCurve(c->gpuCurve(), m_unit);
    m_servingCharts->setCurves(c->servingCurves());
    m_controls->servingGroup()->setPlan(e.serving, m_unit);
    m_status->setEstimate(e, m_unit, scenario().training.mode);
    m_controls->showWarnings(e);
    m_clearCalibration->setEnabled(e.calibrated);
    updateTitle();
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] - vramplan", "the window title: the scenario's name")
                       .arg(m_document->displayName()));
    setWindowModified(isModified());
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

bool MainWindow::saveScreenshot(const QString &path, QSize size)
{
    resize(size);
    show();
    QApplication::processEvents();
    // The advice is searched on its own thread: wait for it (a few milliseconds; a bound in
    // case a search ever takes long) so the picture shows the panel filled in.
    QElapsedTimer waited;
    waited.start();
    while ((!m_advisor->idle() || m_fit->pending()) && waited.elapsed() < 10000)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    redraw();
    QApplication::processEvents();
    return grab().save(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    if (!event->mimeData()->hasUrls())
        return;
    // Training setups and measured runs go to their own actions; scenarios, config.json files
    // and checkpoint folders to the file actions.
    if (!m_setupImports->routeDropped(event->mimeData()->urls()))
        m_fileActions->openDropped(event->mimeData()->urls());
    event->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_fileActions->maybeSave()) {
        event->ignore();
        return;
    }
    m_fileActions->closedCleanly();
    Settings::setWindowGeometry(saveGeometry());
    Settings::setWindowState(saveState());
    event->accept();
}

} // namespace vramplan::ui
