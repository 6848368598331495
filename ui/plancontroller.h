#pragma once
// Holds the scenario being planned and everything drawn from it: the estimate and the three
// curves (memory against micro-batch, sequence length and GPU count). The only place in the UI
// that calls the estimator; widgets edit the scenario through it and draw what it publishes.

#include "charts/curvechart.h"
#include "charts/servingcurves.h"
#include "estimate.h"
#include "scenario.h"

#include <QObject>

#include <optional>

namespace vramplan::ui {

class PlanController : public QObject
{
    Q_OBJECT

public:
    explicit PlanController(QObject *parent = nullptr);

    const Scenario &scenario() const { return m_scenario; }
    const Estimate &estimate() const { return m_estimate; }
    const CurveData &batchCurve() const { return m_batch; }
    const CurveData &sequenceCurve() const { return m_sequence; }
    const CurveData &gpuCurve() const { return m_gpus; }
    // An inference server's curves (servingcurves.h); `present` only for a scenario with an
    // engine.
    const ServingCurves &servingCurves() const { return m_serving; }
    // The same scenario with perfectly balanced routing (moe.imbalance = 1): present only for a
    // mixture-of-experts scenario whose imbalance > 1 changes the device total. The curves carry
    // the balanced totals of their samples in CurveData::balancedBytes on the same terms.
    const std::optional<Estimate> &balancedEstimate() const { return m_balanced; }

    // Replaces the scenario, re-estimates and emits updated(). The scenario must be valid
    // (checkScenario() empty): editors check before they hand it over.
    void setScenario(const Scenario &scenario);

signals:
    void updated();

private:
    void recompute();

    Scenario m_scenario;
    Estimate m_estimate;
    std::optional<Estimate> m_balanced;
    CurveData m_batch, m_sequence, m_gpus;
    ServingCurves m_serving;
};

// The sample points of a log-scaled curve: every power of two and three points between each,
// from `from` to `to`, rounded to whole numbers, plus `current`.
std::vector<double> logSamples(double from, double to, double current);

} // namespace vramplan::ui
