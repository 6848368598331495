#pragma once
// File > Open Measured Run...: the files of one run chosen (or handed over, e.g. dropped on the
// window: MainWindow::openMeasuredRunFiles), read on a thread of their own behind a progress
// dialog that can cancel, then shown in the Measured Run window. A bad file is a message that
// names it and the problem, and nothing else changes. "Calibrate from This Run" arrives here
// and becomes one undoable calibration of the scenario (MainWindow::setCalibration).

#include "runs/measuredrun.h"
#include "scenario.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QMenu;
class QProgressDialog;

namespace vramplan::ui {

class MainWindow;
class MeasuredRunLoader;
class MeasuredRunWindow;

class MeasuredRunActions : public QObject
{
    Q_OBJECT

public:
    explicit MeasuredRunActions(MainWindow *window);

    // "Open Measured Run...".
    void addTo(QMenu *file);
    // Starts reading the files of one run (several files of one run make one report); false
    // when there is nothing to read. The run appears when read; a problem is reported then.
    bool openFiles(const QStringList &paths);
    // Fits the scenario to a measured peak, as one undoable edit; false (and a message) when
    // the scenario cannot reach that number.
    bool calibrate(vramplan::MemoryMetric metric, double bytes);

    // For tests: the window of the run (null before one was read), the progress dialog of the
    // load under way (null when none), the loader, and the last problem reported.
    MeasuredRunWindow *view() const;
    QProgressDialog *progressDialog() const;
    MeasuredRunLoader *loader() const { return m_loader; }
    QString lastProblem() const { return m_lastProblem; }

private:
    void chooseFiles();
    void loaded(const MeasuredRun &run);
    void failed(const QString &error);
    void closeProgress();

    MainWindow *m_window;
    MeasuredRunLoader *m_loader;
    QPointer<QProgressDialog> m_progress;
    QPointer<MeasuredRunWindow> m_view;
    QString m_folder; // where the last run was opened from
    QString m_lastProblem;
};

} // namespace vramplan::ui
