#pragma once
// The planner: controls on the left, charts on the right, the verdict in the status bar.
// Holds one PlanController (the scenario and what is drawn from it).

#include "componentstyle.h"
#include "scenario.h"

#include <QMainWindow>

class QLabel;
class QMenu;
class QTabWidget;
class QUndoStack;

namespace vramplan::ui {

class BreakdownChart;
class ComparisonView;
class ControlsPanel;
class CurveChart;
class PlanController;
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
    QString filePath() const { return m_path; }
    // Exports: a chart ("breakdown", "batch", "sequence", "gpus", "timeline") to PNG/SVG/PDF,
    // the breakdown table to CSV/JSON/Markdown, by the file's extension; "" or why not.
    QString exportChart(const QString &chart, const QString &path);
    QString exportTable(const QString &path);
    QString exportComparisonTable(const QString &path);

    // Unsaved work is written every few seconds after an edit to autosavePath(), and removed
    // when the document is saved or closed cleanly; after a crash it is offered back.
    static QString defaultAutosavePath();
    void setAutosavePath(const QString &path) { m_autosavePath = path; }
    QString autosavePath() const { return m_autosavePath; }
    void autosaveNow();
    // Opens an autosaved scenario as unsaved work (modified, no file name); false if unusable.
    bool recoverAutosave(const QString &path);
    QUndoStack *undoStack() const { return m_undo; }
    bool isModified() const;
    const Scenario &scenario() const;
    Unit unit() const { return m_unit; }
    void setUnit(Unit unit);

    // Renders the window at the given size into a PNG (works offscreen); false on failure.
    bool saveScreenshot(const QString &path, QSize size = QSize(1280, 800));

    ControlsPanel *controls() const { return m_controls; }
    BreakdownChart *breakdownChart() const { return m_breakdown; }
    CurveChart *batchChart() const { return m_batchCurve; }
    CurveChart *sequenceChart() const { return m_sequenceCurve; }
    CurveChart *gpuChart() const { return m_gpuCurve; }
    TimelineChart *timelineChart() const { return m_timeline; }
    PlanController *controller() const { return m_controller; }
    ComparisonView *comparisonView() const { return m_comparison; }
    void showComparison();
    // Scenario files opened side by side; false (and a message) if any cannot be read.
    bool compareFiles(const QStringList &paths);
    QString statusText() const; // what the status bar says, for tests
    // "Calibrate from My Run" as one undoable edit; a calibration without `present` clears it.
    void setCalibration(const vramplan::Calibration &calibration);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    QAction *m_clearCalibration = nullptr;
    void buildMenus();
    void redraw();
    void apply(const Scenario &scenario); // what an undo step does
    void pushEdit(const Scenario &after, bool dragging);
    bool maybeSave(); // false when the user cancels
    bool save();
    bool saveAs();
    void updateTitle();
    void refreshRecentMenu();
    void showProblem(const QString &title, const QString &problem);

    PlanController *m_controller;
    ControlsPanel *m_controls;
    BreakdownChart *m_breakdown;
    CurveChart *m_batchCurve, *m_sequenceCurve, *m_gpuCurve;
    TimelineChart *m_timeline;
    QTabWidget *m_curveTabs;
    QTabWidget *m_pages;
    ComparisonView *m_comparison;
    QLabel *m_peakLabel, *m_fitLabel, *m_phaseLabel, *m_paramsLabel;
    Unit m_unit = Unit::GiB;
    QUndoStack *m_undo;
    QMenu *m_recentMenu = nullptr;
    QString m_path;
    QString m_autosavePath;
    class QTimer *m_autosaveTimer;
};

} // namespace vramplan::ui
