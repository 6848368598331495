#include "mainwindow.h"

#include "breakdown_table.h"
#include "breakdownchart.h"
#include "calibrationdialog.h"
#include "catalog.h"
#include "chartexport.h"
#include "comparisonview.h"
#include "controlspanel.h"
#include "curvechart.h"
#include "editcommand.h"
#include "estimate_json.h"
#include "plancontroller.h"
#include "presetpicker.h"
#include "scenario_json.h"
#include "scenariofile.h"
#include "settings.h"
#include "timelinechart.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <qcustomplot.h>

namespace vramplan::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_controller(new PlanController(this)), m_controls(new ControlsPanel),
      m_breakdown(new BreakdownChart), m_batchCurve(new CurveChart),
      m_sequenceCurve(new CurveChart), m_gpuCurve(new CurveChart), m_timeline(new TimelineChart),
      m_curveTabs(new QTabWidget), m_pages(new QTabWidget), m_comparison(new ComparisonView),
      m_peakLabel(new QLabel), m_fitLabel(new QLabel), m_phaseLabel(new QLabel),
      m_paramsLabel(new QLabel), m_undo(new QUndoStack(this)),
      m_autosavePath(defaultAutosavePath()), m_autosaveTimer(new QTimer(this))
{
    // A few seconds after the last edit, not on every slider step.
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(5000);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
    connect(m_undo, &QUndoStack::indexChanged, m_autosaveTimer, qOverload<>(&QTimer::start));
    setAcceptDrops(true);
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
    m_comparison->setUnit(m_unit);

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

    m_pages->addTab(charts, tr("Plan"));
    m_pages->addTab(m_comparison, tr("Compare"));
    m_pages->setDocumentMode(true);
    auto *splitter = new QSplitter;
    splitter->addWidget(scroll);
    splitter->addWidget(m_pages);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({370, 910}); // the charts are what the user came for
    setCentralWidget(splitter);

    statusBar()->addWidget(m_peakLabel);
    statusBar()->addWidget(m_fitLabel);
    statusBar()->addWidget(m_phaseLabel);
    statusBar()->addPermanentWidget(m_paramsLabel);

    buildMenus();
    connect(m_controls, &ControlsPanel::edited, this, &MainWindow::pushEdit);
    connect(m_undo, &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_controls, &ControlsPanel::refused, this,
            [this](const QString &why) { statusBar()->showMessage(why, 6000); });
    connect(m_controller, &PlanController::updated, this, &MainWindow::redraw);

    const QByteArray geometry = Settings::windowGeometry();
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(1280, 800);
    restoreState(Settings::windowState());
}

MainWindow::~MainWindow()
{
    // The undo stack is a child, destroyed in ~QWidget after this object's part is gone; its
    // clear() on the way out must not reach updateTitle() or the autosave timer.
    m_undo->disconnect();
    m_autosaveTimer->stop();
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (!maybeSave())
            return;
        auto parsed = scenarioFromText(Catalog::builtin().defaultScenarioText());
        setScenario(parsed ? *parsed.value : Scenario{});
    });
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open scenario"), QFileInfo(m_path).absolutePath(),
            tr("vramplan scenarios (*.vramplan.json *.json);;All files (*)"));
        if (!path.isEmpty())
            openFile(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    file->addAction(tr("&Import Hugging Face config.json..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import a Hugging Face config.json"), QString(), tr("config.json (*.json)"));
        if (!path.isEmpty())
            importHfConfig(path);
    });
    QMenu *exports = file->addMenu(tr("&Export"));
    const std::pair<QString, QString> charts[] = {
        {QStringLiteral("breakdown"), tr("Breakdown chart...")},
        {QStringLiteral("batch"), tr("Micro-batch curve...")},
        {QStringLiteral("sequence"), tr("Sequence curve...")},
        {QStringLiteral("gpus"), tr("GPU-count curve...")},
        {QStringLiteral("timeline"), tr("Step timeline...")},
        {QStringLiteral("comparison"), tr("Comparison chart...")}};
    for (const auto &[chart, label] : charts)
        exports->addAction(label, this, [this, chart] {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export chart"), chart + QStringLiteral(".png"),
                tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
            if (!path.isEmpty())
                if (const QString problem = exportChart(chart, path); !problem.isEmpty())
                    showProblem(tr("Cannot export"), problem);
        });
    exports->addAction(tr("Breakdown table..."), this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export table"), QStringLiteral("breakdown.csv"),
                                         tr("CSV (*.csv);;JSON (*.json);;Markdown (*.md)"));
        if (!path.isEmpty())
            if (const QString problem = exportTable(path); !problem.isEmpty())
                showProblem(tr("Cannot export"), problem);
    });
    exports->addAction(tr("Comparison table..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export comparison table"), QStringLiteral("comparison.csv"),
            tr("CSV (*.csv);;JSON (*.json);;Markdown (*.md)"));
        if (!path.isEmpty())
            if (const QString problem = exportComparisonTable(path); !problem.isEmpty())
                showProblem(tr("Cannot export"), problem);
    });
    file->addAction(tr("&Copy Table"), QKeySequence::Copy, this, [this] {
        QApplication::clipboard()->setText(QString::fromStdString(
            breakdownTable(m_controller->estimate(), scenario(), TableFormat::Markdown)));
        statusBar()->showMessage(tr("Breakdown table copied as Markdown"), 4000);
    });
    file->addAction(
        tr("Copy C&hart"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this, [this] {
            QCustomPlot *plot = m_pages->currentWidget() == m_comparison ? m_comparison->plot()
                                                                         : m_breakdown->plot();
            QApplication::clipboard()->setPixmap(
                plot->toPixmap(plot->width(), plot->height(), 2.0));
            statusBar()->showMessage(tr("Chart copied as an image"), 4000);
        });
    file->addSeparator();
    refreshRecentMenu();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    // From anywhere in the window: type part of a preset's name.
    QAction *findPreset =
        edit->addAction(tr("&Find Model Preset"), QKeySequence::Find, this, [this] {
            auto *viewport = m_controls->parentWidget();
            if (auto *scroll =
                    qobject_cast<QScrollArea *>(viewport ? viewport->parentWidget() : nullptr))
                scroll->ensureWidgetVisible(m_controls->presetPicker());
            m_controls->presetPicker()->startSearch();
        });
    findPreset->setObjectName(QStringLiteral("findPreset"));
    edit->addAction(tr("&Calibrate from My Run..."), QKeySequence(tr("Ctrl+K")), this, [this] {
        CalibrationDialog dialog(m_controller->scenario(), m_unit, this);
        if (dialog.exec() == QDialog::Accepted)
            setCalibration(dialog.calibration());
    });
    m_clearCalibration =
        edit->addAction(tr("Clear Calibration"), this, [this] { setCalibration({}); });

    QMenu *compare = menuBar()->addMenu(tr("&Compare"));
    compare->addAction(
        tr("&Add Current Scenario"), QKeySequence(Qt::CTRL | Qt::Key_D), this, [this] {
            const std::string label = scenario().name.empty()
                                          ? "Scenario " + std::to_string(m_comparison->count() + 1)
                                          : scenario().name;
            m_comparison->addScenario(label, scenario());
            showComparison();
        });
    compare->addAction(tr("&Open Scenarios to Compare..."), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Scenarios to compare"), QFileInfo(m_path).absolutePath(),
            tr("vramplan scenarios (*.vramplan.json *.json)"));
        if (!paths.isEmpty())
            compareFiles(paths);
    });
    compare->addAction(tr("Open &Comparison..."), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open comparison"), QString(),
                                         tr("vramplan comparisons (*.vramplan-comparison.json)"));
        if (path.isEmpty())
            return;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return showProblem(tr("Cannot open the comparison"), QFileInfo(path).fileName() +
                                                                     QStringLiteral(": ") +
                                                                     file.errorString());
        auto parsed = comparisonFromText(file.read(64 << 20).toStdString());
        if (!parsed)
            return showProblem(tr("Cannot open the comparison"),
                               QFileInfo(path).fileName() + QStringLiteral(": ") +
                                   QString::fromStdString(parsed.error));
        m_comparison->setComparison(*parsed.value);
        showComparison();
    });
    compare->addAction(tr("&Save Comparison As..."), this, [this] {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Save comparison"), QStringLiteral("comparison.vramplan-comparison.json"),
            tr("vramplan comparisons (*.vramplan-comparison.json)"));
        if (path.isEmpty())
            return;
        const QString problem = writeTextFile(
            path,
            QByteArray::fromStdString(comparisonToJson(m_comparison->comparison()).dump(2) + "\n"));
        if (!problem.isEmpty())
            showProblem(tr("Cannot save the comparison"), problem);
    });

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
    apply(scenario);
    m_undo->clear();
    m_undo->setClean();
    m_path.clear();
    updateTitle();
}

void MainWindow::apply(const Scenario &scenario)
{
    m_controls->setScenario(scenario);
    m_controller->setScenario(scenario);
}

void MainWindow::pushEdit(const Scenario &after, bool dragging)
{
    m_undo->push(new EditCommand(m_controller->scenario(), after, dragging,
                                 [this](const Scenario &s) { apply(s); }));
}

bool MainWindow::isModified() const
{
    return !m_undo->isClean();
}

bool MainWindow::openFile(const QString &path)
{
    auto parsed = readScenarioFile(path);
    if (!parsed) {
        showProblem(tr("Cannot open the scenario"), QString::fromStdString(parsed.error));
        return false;
    }
    setScenario(*parsed.value);
    m_path = path;
    Settings::addRecentFile(QFileInfo(path).absoluteFilePath());
    refreshRecentMenu();
    updateTitle();
    return true;
}

bool MainWindow::saveTo(const QString &path)
{
    const QString problem = writeScenarioFile(path, scenario());
    if (!problem.isEmpty()) {
        showProblem(tr("Cannot save the scenario"), problem);
        return false;
    }
    m_path = path;
    m_undo->setClean();
    if (!m_autosavePath.isEmpty())
        QFile::remove(m_autosavePath);
    Settings::addRecentFile(QFileInfo(path).absoluteFilePath());
    refreshRecentMenu();
    updateTitle();
    return true;
}

bool MainWindow::save()
{
    return m_path.isEmpty() ? saveAs() : saveTo(m_path);
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save scenario"),
        m_path.isEmpty() ? QStringLiteral("scenario.vramplan.json") : m_path,
        tr("vramplan scenarios (*.vramplan.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".vramplan.json");
    return saveTo(path);
}

bool MainWindow::importHfConfig(const QString &path)
{
    auto model = readHfConfigFile(path);
    if (!model) {
        showProblem(tr("Cannot import the config"), QString::fromStdString(model.error));
        return false;
    }
    Scenario next = scenario();
    next.model = *model.value;
    if (const std::string problem = checkScenario(next); !problem.empty()) {
        showProblem(tr("Cannot import the config"), QFileInfo(path).fileName() +
                                                        QStringLiteral(": ") +
                                                        QString::fromStdString(problem));
        return false;
    }
    pushEdit(next, false);
    return true;
}

QString MainWindow::exportChart(const QString &chart, const QString &path)
{
    QCustomPlot *plot = nullptr;
    QString title;
    if (chart == QLatin1String("breakdown")) {
        plot = m_breakdown->plot();
        title = tr("Memory per GPU");
    } else if (chart == QLatin1String("batch")) {
        plot = m_batchCurve->plot();
        title = tr("Memory vs micro-batch");
    } else if (chart == QLatin1String("sequence")) {
        plot = m_sequenceCurve->plot();
        title = tr("Memory vs sequence length");
    } else if (chart == QLatin1String("gpus")) {
        plot = m_gpuCurve->plot();
        title = tr("Memory vs GPU count");
    } else if (chart == QLatin1String("comparison")) {
        plot = m_comparison->plot();
        title = tr("Scenarios compared: memory per GPU");
    } else if (chart == QLatin1String("timeline")) {
        plot = m_timeline->plot();
        title = tr("Memory through one training step");
    } else {
        return tr("%1: unknown chart (breakdown, batch, sequence, gpus, timeline or comparison)")
            .arg(chart);
    }
    if (chart == QLatin1String("comparison")) {
        QStringList labels;
        for (const auto &e : m_comparison->comparison().entries)
            labels << QString::fromStdString(e.label);
        return exportPlot(plot, path, title, labels.join(QStringLiteral(" | ")), QSize(1000, 600));
    }
    const QString name = QString::fromStdString(scenario().name);
    return exportPlot(plot, path, name.isEmpty() ? title : name + QStringLiteral(": ") + title,
                      QString::fromStdString(scenarioSummary(m_controller->estimate(), scenario())),
                      chart == QLatin1String("breakdown") ? QSize(640, 700) : QSize(1000, 600));
}

void MainWindow::showComparison()
{
    m_pages->setCurrentWidget(m_comparison);
}

bool MainWindow::compareFiles(const QStringList &paths)
{
    Comparison comparison;
    for (const QString &path : paths) {
        auto parsed = readScenarioFile(path);
        if (!parsed) {
            showProblem(tr("Cannot compare"), QString::fromStdString(parsed.error));
            return false;
        }
        QString label = QFileInfo(path).fileName();
        label.remove(QStringLiteral(".vramplan.json"));
        comparison.entries.push_back({label.toStdString(), *parsed.value});
    }
    m_comparison->setComparison(comparison);
    showComparison();
    return true;
}

QString MainWindow::exportComparisonTable(const QString &path)
{
    const auto format = tableFormatFromExtension(QFileInfo(path).suffix().toLower().toStdString());
    if (!format)
        return QFileInfo(path).fileName() + tr(": unknown table format (csv, json or md)");
    return writeTextFile(
        path, QByteArray::fromStdString(comparisonTable(m_comparison->comparison(), *format)));
}

QString MainWindow::exportTable(const QString &path)
{
    const auto format = tableFormatFromExtension(QFileInfo(path).suffix().toLower().toStdString());
    if (!format)
        return QFileInfo(path).fileName() + tr(": unknown table format (csv, json or md)");
    return writeTextFile(path, QByteArray::fromStdString(
                                   breakdownTable(m_controller->estimate(), scenario(), *format)));
}

QString MainWindow::defaultAutosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave.vramplan.json");
}

void MainWindow::autosaveNow()
{
    if (m_autosavePath.isEmpty())
        return;
    if (!isModified()) {
        QFile::remove(m_autosavePath);
        return;
    }
    QDir().mkpath(QFileInfo(m_autosavePath).absolutePath());
    if (const QString problem = writeScenarioFile(m_autosavePath, scenario()); !problem.isEmpty())
        statusBar()->showMessage(tr("Autosave failed: %1").arg(problem), 6000);
}

bool MainWindow::recoverAutosave(const QString &path)
{
    auto parsed = readScenarioFile(path);
    if (!parsed)
        return false;
    // The recovered scenario is unsaved work on top of a new document: one undo step away.
    const auto blank = scenarioFromText(Catalog::builtin().defaultScenarioText());
    setScenario(blank ? *blank.value : Scenario{});
    pushEdit(*parsed.value, false);
    if (!isModified()) // identical to the default: nothing to recover
        return false;
    updateTitle();
    return true;
}

bool MainWindow::maybeSave()
{
    if (!isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::showProblem(const QString &title, const QString &problem)
{
    statusBar()->showMessage(problem, 10000);
    if (QApplication::platformName() != QLatin1String("offscreen"))
        QMessageBox::critical(this, title, problem);
}

void MainWindow::updateTitle()
{
    const QString name =
        m_path.isEmpty() ? QString::fromStdString(scenario().name) : QFileInfo(m_path).fileName();
    setWindowTitle((name.isEmpty() ? tr("untitled") : name) + QStringLiteral("[*] - vramplan"));
    setWindowModified(isModified());
}

void MainWindow::refreshRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString &path : Settings::recentFiles())
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave())
                                openFile(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    // A scenario file opens; any other JSON is taken for a Hugging Face config.json.
    for (const QUrl &url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (path.isEmpty())
            continue;
        if (readScenarioFile(path)) {
            if (maybeSave())
                openFile(path);
        } else {
            importHfConfig(path);
        }
        event->acceptProposedAction();
        return;
    }
}

const Scenario &MainWindow::scenario() const
{
    return m_controller->scenario();
}

void MainWindow::setUnit(Unit unit)
{
    m_unit = unit;
    m_comparison->setUnit(unit);
    Settings::setUnit(unit);
    redraw();
}

void MainWindow::redraw()
{
    const Estimate &e = m_controller->estimate();
    const auto &balanced = m_controller->balancedEstimate();
    m_breakdown->setEstimate(
        e, m_unit, balanced ? std::optional<double>(balanced->peak.device) : std::nullopt);
    m_timeline->setEstimate(e, m_unit);
    m_batchCurve->setCurve(m_controller->batchCurve(), m_unit);
    m_sequenceCurve->setCurve(m_controller->sequenceCurve(), m_unit);
    m_gpuCurve->setCurve(m_controller->gpuCurve(), m_unit);

    m_peakLabel->setText(e.calibrated
                             ? tr("Peak %1 per GPU (calibrated to your run)")
                                   .arg(formatSize(e.peak.device, m_unit))
                             : tr("Peak %1 per GPU").arg(formatSize(e.peak.device, m_unit)));
    m_clearCalibration->setEnabled(e.calibrated);
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
    updateTitle();
}

void MainWindow::setCalibration(const Calibration &calibration)
{
    Scenario next = m_controller->scenario();
    next.calibration = calibration;
    pushEdit(next, false);
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
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    // Saved or discarded on purpose: nothing left to recover.
    if (!m_autosavePath.isEmpty())
        QFile::remove(m_autosavePath);
    Settings::setWindowGeometry(saveGeometry());
    Settings::setWindowState(saveState());
    event->accept();
}

} // namespace vramplan::ui
