#include "runs/measuredrunloader.h"

#include <QPointer>
#include <QThread>

namespace vramplan::ui {
namespace {

std::function<void(std::uint64_t)> &progressHook()
{
    static std::function<void(std::uint64_t)> hook;
    return hook;
}

} // namespace

void MeasuredRunLoader::setProgressHookForTests(std::function<void(std::uint64_t)> hook)
{
    progressHook() = std::move(hook);
}

MeasuredRunLoader::MeasuredRunLoader(QObject *parent) : QObject(parent) {}

MeasuredRunLoader::~MeasuredRunLoader()
{
    // Every thread still running belongs to this object (older loads too, told to stop when
    // the next began): stop and join them all.
    cancel();
    for (QThread *thread : findChildren<QThread *>(QString(), Qt::FindDirectChildrenOnly)) {
        thread->disconnect(this);
        thread->wait();
    }
}

void MeasuredRunLoader::start(const QStringList &paths, int device)
{
    cancel();
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    auto result = std::make_shared<RunLoadResult>();
    // The thread owns copies of everything it reads and writes only `result`, which the UI
    // thread reads after the thread has finished.
    QPointer<MeasuredRunLoader> self(this);
    QThread *thread = QThread::create([paths, device, cancelFlag, result, self] {
        *result = loadMeasuredRun(paths, device, [&](std::uint64_t done, std::uint64_t total) {
            if (const auto &hook = progressHook())
                hook(done);
            if (cancelFlag->load(std::memory_order_relaxed))
                return false;
            QMetaObject::invokeMethod(
                self.data(), [self, done, total] {
                    if (self)
                        emit self->progress(done, total);
                },
                Qt::QueuedConnection);
            return true;
        });
    });
    thread->setObjectName(QStringLiteral("vramplan measured run"));
    thread->setParent(this);
    connect(thread, &QThread::finished, this,
            [this, result, cancelFlag, thread] { finished(result, cancelFlag, thread); });
    m_thread = thread;
    m_cancel = cancelFlag;
    thread->start(QThread::LowPriority); // the window's work comes first
}

void MeasuredRunLoader::cancel()
{
    if (m_cancel)
        m_cancel->store(true, std::memory_order_relaxed);
}

void MeasuredRunLoader::finished(const std::shared_ptr<RunLoadResult> &result,
                                 const std::shared_ptr<std::atomic<bool>> &cancel,
                                 QThread *thread)
{
    thread->deleteLater();
    if (thread != m_thread)
        return; // an older load, replaced by a newer one: its result is stale
    m_thread = nullptr;
    m_cancel.reset();
    if (result->cancelled || cancel->load(std::memory_order_relaxed))
        emit stopped(result->bytesRead, result->bytesTotal);
    else if (result->run)
        emit loaded(*result->run);
    else
        emit failed(result->error);
}

} // namespace vramplan::ui
