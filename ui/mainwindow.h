#pragma once
// The planner: controls on the left, charts on the right, the verdict in the status bar. Holds
// one Document (the scenario, its history and its file); the File, Export and Compare menus
// are FileActions, ExportActions and ComparisonActions over it.

#include "charts/units.h"
#include "document/language.h"
#include "scenario.h"

#include <QMainWindow>

class QMenu;
class QTabWidget;
class QUndoStack;

namespace vramplan::ui {

class AdvisorWorker;
class BreakdownChart;
class ChartsPage;
class ComparisonActions;
class ComparisonView;
class ControlsPanel;
class CurveChart;
class Document;
class ExportActions;
class ServingCharts;
class MeasuredRunActions;
class SetupImportActions;
class FileActions;
class FitAdvisorPanel;
class PlanController;
class StatusLine;
class TimelineChart;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Replaces the document's scenario (a new document: history cleared, not modified).
    void setScenario(const Scenario &scenario);
    // File actions; each reports a problem (message box and status bar) and leaves the
    // document untouched.
    bool openFile(const QString &path);
    bool saveTo(const QString &path);
    bool importHfConfig(const QString &path);
    QString filePath() const;
    // Exports: a chart ("breakdown", "batch", "sequence", "gpus", "timeline", "comparison") to
    // PNG/SVG/PDF, the breakdown or the comparison table to CSV/JSON/Markdown, by the file's
    // extension; "" or why not.
    QString exportChart(const QString &chart, const QString &path);
    QString exportTable(const QString &path);
    QString exportComparisonTable(const QString &path);

    // Unsaved work is written every few seconds after an edit to autosavePath(), and removed
    // when the document is saved or closed cleanly; after a crash it is offered back.
    static QString defaultAutosavePath();
    void setAutosavePath(const QString &path);
    QString autosavePath() const;
    void autosaveNow();
    // Opens an autosaved scenario as unsaved work (modified, no file name); false if unusable.
    bool recoverAutosave(const QString &path);
    QUndoStack *undoStack() const;
    bool isModified() const;
    const Scenario &scenario() const;
    Unit unit() const { return m_unit; }
    void setUnit(Unit unit);

    // Renders the window at the given size into a PNG (works offscreen), once the "Make it fit"
    // panel shows the advice for the scenario; false on failure.
    bool saveScreenshot(const QString &path, QSize size = QSize(1280, 800));

    Document *document() const { return m_document; }
    ControlsPanel *controls() const { return m_controls; }
    BreakdownChart *breakdownChart() const { return m_breakdown; }
    CurveChart *batchChart() const { return m_batchCurve; }
    CurveChart *sequenceChart() const { return m_sequenceCurve; }
    CurveChart *gpuChart() const { return m_gpuCurve; }
    TimelineChart *timelineChart() const { return m_timeline; }
    PlanController *controller() const;
    ComparisonView *comparisonView() const { return m_comparison; }
    ComparisonActions *comparisonActions() const { return m_comparisonActions; }
    StatusLine *statusLine() const { return m_status; }
    ChartsPage *chartsPage() const { return m_chartsPage; }
    FitAdvisorPanel *fitAdvisor() const { return m_fit; }
    AdvisorWorker *advisorWorker() const { return m_advisor; }
    ServingCharts *servingCharts() const { return m_servingCharts; }
    void showComparison();
    void showPlan();
    // Scenario files opened side by side; false (and a message) if any cannot be read.
    bool compareFiles(const QStringList &paths);
    QString statusText() const; // what the status bar says, for tests
    // "Calibrate from My Run" as one undoable edit; a calibration without `present` clears it.
    void setCalibration(const vramplan::Calibration &calibration);
    // The files of one measured run (File > Open Measured Run..., or files dropped on the
    // window), read on a thread of their own and shown beside the plan; false when none are
    // given. A bad file is reported by a message when its reading ends (runs/).
    bool openMeasuredRunFiles(const QStringList &paths);
    MeasuredRunActions *measuredRuns() const { return m_measuredRuns; }
    // File > Import / Export Training Setup (ui/imports/).
    SetupImportActions *setupImports() const { return m_setupImports; }

signals:
    // View > Sizes in GiB / GB: for the windows beside the planner that show sizes.
    void unitChanged(vramplan::ui::Unit unit);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildMenus();
    void buildEditMenu();
    void buildViewMenu();
    void buildLanguageMenu(QMenu *view);
    void chooseLanguage(Language language);
    void redraw();
    void updateTitle();
    void showRefusal(const QString &reason, QWidget *control);
    void requestAdvice();
    void applySuggestion(const Scenario &suggestion, const QString &what);

    Document *m_document;
    ControlsPanel *m_controls;
    BreakdownChart *m_breakdown;
    CurveChart *m_batchCurve, *m_sequenceCurve, *m_gpuCurve;
    TimelineChart *m_timeline;
    FitAdvisorPanel *m_fit;
    AdvisorWorker *m_advisor;
    ChartsPage *m_chartsPage;
    QTabWidget *m_pages;
    ComparisonView *m_comparison;
    StatusLine *m_status;
    FileActions *m_fileActions = nullptr;
    ExportActions *m_exportActions = nullptr;
    ComparisonActions *m_comparisonActions = nullptr;
    ServingCharts *m_servingCharts = nullptr;
    QAction *m_clearCalibration = nullptr;
    MeasuredRunActions *m_measuredRuns = nullptr;
    SetupImportActions *m_setupImports = nullptr;
    Unit m_unit = Unit::GiB;
};

} // namespace vramplan::ui
