#pragma once
// A measured run read off the UI thread: each load runs loadMeasuredRun() on a thread of its
// own and hands its result back through a queued call, so the window keeps drawing and taking
// input while a snapshot of gigabytes is read. One load at a time: a new one, or cancel(),
// tells the one under way to stop (the readers poll a flag every few MiB), and only the newest
// load's result is published.

#include "runs/measuredrun.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

class QThread;

namespace vramplan::ui {

class MeasuredRunLoader : public QObject
{
    Q_OBJECT

public:
    explicit MeasuredRunLoader(QObject *parent = nullptr);
    // Stops the load under way and waits for its thread: nothing runs behind a closed window.
    ~MeasuredRunLoader() override;

    void start(const QStringList &paths, int device = 0);
    void cancel();
    bool busy() const { return m_thread != nullptr; }

    // For tests: called on the loading thread at each progress report, before the cancel flag
    // is read (a test holds the reader there while it presses Cancel).
    static void setProgressHookForTests(std::function<void(std::uint64_t done)> hook);

signals:
    // Bytes read so far of all the files (every few MiB), on the UI thread.
    void progress(quint64 done, quint64 total);
    void loaded(const vramplan::ui::MeasuredRun &run);
    void failed(const QString &error);
    // A load that was cancelled has ended: its thread read no further than `bytesRead`.
    void stopped(quint64 bytesRead, quint64 bytesTotal);

private:
    void finished(const std::shared_ptr<RunLoadResult> &result,
                  const std::shared_ptr<std::atomic<bool>> &cancel, QThread *thread);

    QThread *m_thread = nullptr; // the newest load's, while it runs
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace vramplan::ui
