#include "runs/measuredrunactions.h"

#include "advice/calibration.h"
#include "charts/units.h"
#include "document/dialogs.h"
#include "mainwindow.h"
#include "runs/measuredrunloader.h"
#include "runs/measuredrunwindow.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QProgressDialog>
#include <QStatusBar>

namespace vramplan::ui {

MeasuredRunActions::MeasuredRunActions(MainWindow *window)
    : QObject(window), m_window(window), m_loader(new MeasuredRunLoader(this))
{
    connect(m_loader, &MeasuredRunLoader::progress, this, [this](quint64 done, quint64 total) {
        if (!m_progress)
            return;
        // Per mille of the bytes: a QProgressDialog counts in int, a snapshot may pass 2 GiB.
        if (total == 0)
            m_progress->setRange(0, 0); // busy
        else
            m_progress->setValue(int(std::min<quint64>(done * 1000 / total, 1000)));
    });
    connect(m_loader, &MeasuredRunLoader::loaded, this, &MeasuredRunActions::loaded);
    connect(m_loader, &MeasuredRunLoader::failed, this, &MeasuredRunActions::failed);
    connect(m_loader, &MeasuredRunLoader::stopped, this, [this] {
        closeProgress();
        m_window->statusBar()->showMessage(tr("Reading the measured run was cancelled."), 8000);
    });
}

MeasuredRunWindow *MeasuredRunActions::view() const
{
    return m_view;
}

QProgressDialog *MeasuredRunActions::progressDialog() const
{
    return m_progress;
}

void MeasuredRunActions::addTo(QMenu *file)
{
    QAction *open = file->addAction(tr("Open &Measured Run..."), this,
                                    &MeasuredRunActions::chooseFiles);
    open->setObjectName(QStringLiteral("openMeasuredRun"));
    open->setStatusTip(tr("Read what a real run recorded (a torch memory snapshot, the JSON of "
                          "torch's mem_tracker or of torch.cuda.memory_stats(), an nvidia-smi "
                          "log) and lay it beside the plan"));
}

void MeasuredRunActions::chooseFiles()
{
    const QStringList paths = Dialogs::openFileNames(
        m_window, tr("Open Measured Run"), m_folder,
        tr("Measured runs (*.pickle *.pkl *.json *.csv);;All files (*)"));
    openFiles(paths);
}

bool MeasuredRunActions::openFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    m_folder = QFileInfo(paths.front()).absolutePath();
    closeProgress(); // a load under way gives way to this one (start() stops it)
    QStringList names;
    for (const QString &path : paths)
        names << QFileInfo(path).fileName();
    m_progress = new QProgressDialog(tr("Reading %1...").arg(names.join(QStringLiteral(", "))),
                                     tr("Cancel"), 0, 1000, m_window);
    m_progress->setObjectName(QStringLiteral("measuredRunProgress"));
    m_progress->setWindowTitle(tr("Open Measured Run"));
    // Not modal: the planner stays usable while a large snapshot is read. Shown only for a
    // load that lasts (a small file is read before it would appear).
    m_progress->setWindowModality(Qt::NonModal);
    m_progress->setMinimumDuration(500);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setValue(0);
    connect(m_progress, &QProgressDialog::canceled, m_loader, &MeasuredRunLoader::cancel);
    m_lastProblem.clear();
    m_loader->start(paths);
    return true;
}

void MeasuredRunActions::closeProgress()
{
    if (!m_progress)
        return;
    // Closing a QProgressDialog emits canceled(): let go of it first.
    m_progress->disconnect(this);
    m_progress->disconnect(m_loader);
    m_progress->hide();
    m_progress->deleteLater();
    m_progress = nullptr;
}

void MeasuredRunActions::loaded(const MeasuredRun &run)
{
    closeProgress();
    if (!m_view) {
        m_view = new MeasuredRunWindow(m_window);
        connect(m_view, &MeasuredRunWindow::calibrateRequested, this,
                &MeasuredRunActions::calibrate);
    }
    m_view->setRun(run);
    m_view->show();
    m_view->raise();
    m_view->activateWindow();
    m_window->statusBar()->showMessage(
        tr("Measured run read: %n file(s) beside the plan.", nullptr, int(run.paths.size())),
        8000);
}

void MeasuredRunActions::failed(const QString &error)
{
    closeProgress();
    m_lastProblem = error;
    Dialogs::problem(m_window, tr("Cannot Open Measured Run"), error);
}

bool MeasuredRunActions::calibrate(MemoryMetric metric, double bytes)
{
    const auto fitted = fitCalibration(m_window->scenario(), metric, bytes);
    if (!fitted) {
        m_lastProblem = tr("Cannot calibrate to this run: %1.")
                            .arg(QString::fromStdString(fitted.error));
        Dialogs::problem(m_window, tr("Cannot Calibrate"), m_lastProblem);
        return false;
    }
    m_window->setCalibration(*fitted.value);
    m_window->statusBar()->showMessage(
        tr("Calibrated to the measured run's peak, %1.").arg(formatSize(bytes, m_window->unit())),
        8000);
    return true;
}

} // namespace vramplan::ui
