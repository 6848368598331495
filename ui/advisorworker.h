#pragma once
// "Make it fit" off the UI thread: each request hands a copy of the scenario to one worker
// thread, which runs the advisor (core advisor.h; rl_advice.h for an RL plan) and sends the
// advice back by value through a queued signal. Requests are numbered; only the newest one's
// advice is published, so a slider dragged past a scenario never shows advice for it. While a search runs, newer requests
// coalesce into one waiting request and the running search is told to stop; the window never
// waits for a search.

#include "advice/advisor.h"
#include "estimate.h"
#include "scenario.h"

#include <QMetaType>
#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace vramplan::ui {

// One finished search, owned by whoever receives it: nothing in it is shared with the thread
// that made it.
struct AdviceResult
{
    quint64 generation = 0;
    Scenario scenario;        // the scenario searched: what the suggestions change
    double headroomBytes = 0; // of that scenario as it is (negative: over the capacity)
    Advice advice;
    // The estimate of each suggestion's scenario, in the advice's order, then the nearest's
    // when there is one (for previews on the breakdown bar).
    std::vector<Estimate> estimates;
};

// The search itself, as the worker thread runs it (also callable directly, e.g. in tests).
AdviceResult searchAdvice(const Scenario &scenario, quint64 generation,
                          const std::atomic<bool> *cancel = nullptr);

class AdvisorRunner;

class AdvisorWorker : public QObject
{
    Q_OBJECT

public:
    explicit AdvisorWorker(QObject *parent = nullptr);
    // Stops the search under way and waits for the thread: a window closed mid-search leaves
    // nothing running behind it.
    ~AdvisorWorker() override;

    // Asks for advice on `scenario`; returns the request's generation (1, 2, ...). The same
    // scenario as the newest request is not searched again: its generation is returned.
    quint64 request(const Scenario &scenario);
    quint64 generation() const { return m_generation; }
    // No search running and none waiting.
    bool idle() const { return !m_running && !m_waiting; }
    // For tests: searches begun, and finished ones whose advice was dropped as stale.
    int started() const { return m_started; }
    int dropped() const { return m_dropped; }

signals:
    // The advice for the newest request (result.generation == generation()).
    void ready(const vramplan::ui::AdviceResult &result);

private:
    void start(const Scenario &scenario, quint64 generation);
    void finished(const AdviceResult &result);

    QThread m_thread;
    AdvisorRunner *m_runner;
    // Everything below is touched by the UI thread only; the running search owns its copy of
    // the scenario and shares nothing with this object but its cancel flag (an atomic).
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<Scenario> m_waiting; // the newest request, while a search runs
    Scenario m_latest;                 // the newest request
    quint64 m_generation = 0;
    bool m_running = false;
    int m_started = 0;
    int m_dropped = 0;
};

} // namespace vramplan::ui

Q_DECLARE_METATYPE(vramplan::ui::AdviceResult)
