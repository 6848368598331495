#include "advisorworker.h"

#include "document/editcommand.h"
#include "advice/rl_advice.h"
#include "advice/serving_advice.h"

namespace vramplan::ui {

namespace {

Suggestion asSuggestion(const ServingSuggestion &s)
{
    Suggestion out;
    out.scenario = s.scenario;
    out.changes = s.changes;
    out.peakDeviceBytes = s.peakDeviceBytes;
    out.headroomBytes = s.headroomBytes;
    out.kind = s.kind;
    out.relativeStepTime = s.relativeStepTime;
    out.costBasis = s.basis;
    return out;
}

// An inference server's advice (serving_advice.h: the cheapest GPU, TP and quantisation that
// serve the scenario's own requests at its max_model_len), in the shape the panel shows.
Advice servingAdvice(const Scenario &scenario)
{
    const ServingAdvice a = adviseServing(scenario, {});
    Advice out;
    out.fitsNow = a.servesNow;
    out.searched = a.searched;
    out.estimated = a.estimated;
    for (const ServingSuggestion &s : a.suggestions)
        out.suggestions.push_back(asSuggestion(s));
    if (a.hasNearest) {
        out.hasNearest = true;
        out.nearest = asSuggestion(a.nearest);
    }
    return out;
}

} // namespace

AdviceResult searchAdvice(const Scenario &scenario, quint64 generation,
                          const std::atomic<bool> *cancel)
{
    AdviceResult out;
    out.generation = generation;
    out.scenario = scenario;
    AdviceOptions options;
    options.cancel = cancel;
    out.headroomBytes = estimate(scenario).headroomBytes;
    // An RL plan takes the knobs of its framework (rl_advice.h); a server its own search.
    out.advice = isServingScenario(scenario) ? servingAdvice(scenario)
                 : scenario.rl.present()     ? adviseRl(scenario, options)
                                             : advise(scenario, options);
    if (out.advice.cancelled)
        return out;
    for (const Suggestion &s : out.advice.suggestions)
        out.estimates.push_back(estimate(s.scenario));
    if (out.advice.hasNearest)
        out.estimates.push_back(estimate(out.advice.nearest.scenario));
    return out;
}

// Lives in the worker thread. Each job carries its own scenario and cancel flag by value; the
// result leaves by a queued signal, copied into the UI thread's event.
class AdvisorRunner : public QObject
{
    Q_OBJECT

public:
    void run(const Scenario &scenario, quint64 generation,
             const std::shared_ptr<std::atomic<bool>> &cancel)
    {
        emit done(searchAdvice(scenario, generation, cancel.get()));
    }

signals:
    void done(const vramplan::ui::AdviceResult &result);
};

// One dedicated QThread rather than QtConcurrent::run on the global pool: a single long-lived
// thread runs at most one search at a time by construction, the pool stays free for whatever
// else uses it, and the destructor joins exactly the work this object started.
AdvisorWorker::AdvisorWorker(QObject *parent) : QObject(parent), m_runner(new AdvisorRunner)
{
    m_thread.setObjectName(QStringLiteral("vramplan advisor"));
    m_runner->moveToThread(&m_thread);
    connect(m_runner, &AdvisorRunner::done, this, &AdvisorWorker::finished, Qt::QueuedConnection);
    m_thread.start(QThread::LowPriority); // the UI thread's work comes first
}

AdvisorWorker::~AdvisorWorker()
{
    if (m_cancel)
        m_cancel->store(true, std::memory_order_relaxed);
    m_thread.quit();
    m_thread.wait();
    // The thread has ended: nothing can reach the runner any more. An advice it sent on the
    // way out is a posted event to this object, which ~QObject discards.
    delete m_runner;
}

quint64 AdvisorWorker::request(const Scenario &scenario)
{
    // The scenario asked for last, again (an edit that changed nothing, a slider held at its
    // end): its search stands.
    if (m_generation > 0 && sameScenario(scenario, m_latest))
        return m_generation;
    m_latest = scenario;
    ++m_generation;
    if (m_running) {
        // The running search is for an older scenario: stop it, and keep only the newest
        // request to start when it returns.
        m_waiting = scenario;
        m_cancel->store(true, std::memory_order_relaxed);
    } else {
        start(scenario, m_generation);
    }
    return m_generation;
}

void AdvisorWorker::start(const Scenario &scenario, quint64 generation)
{
    m_running = true;
    ++m_started;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    QMetaObject::invokeMethod(
        m_runner,
        [runner = m_runner, scenario, generation, cancel = m_cancel] {
            runner->run(scenario, generation, cancel);
        },
        Qt::QueuedConnection);
}

void AdvisorWorker::finished(const AdviceResult &result)
{
    m_running = false;
    m_cancel.reset();
    if (result.generation == m_generation && !result.advice.cancelled)
        emit ready(result);
    else
        ++m_dropped;
    // (A receiver of ready() may have asked again already: then that search picks up the
    // waiting request when it returns.)
    if (m_waiting && !m_running) {
        const Scenario next = std::move(*m_waiting);
        m_waiting.reset();
        start(next, m_generation);
    }
}

} // namespace vramplan::ui

#include "advisorworker.moc"
