// Fitting a scenario's overhead terms to one measured number (calibration.h).

#include "advice/calibration.h"

#include "formats/estimate_json.h"

#include <cmath>

namespace vramplan {
namespace {

// The activation scale is searched within these bounds. The published runs sit within 0.96-1.20
// of the estimate and the CPU measurements within a few percent of the inventory: a run whose
// activations, logits and temporaries are under a quarter of the inventory's, or 20x above, is
// a different scenario (another batch, sequence, recomputation or precision), not an overhead.
constexpr double minScale = 0.25;
constexpr double maxScale = 20.0;

double valueAt(Scenario s, MemoryMetric metric, double scale, double overhead)
{
    s.calibration = {true, metric, 1.0, scale, overhead};
    return measuredValue(estimate(s).peak, metric);
}

// The scale at which `metric` reaches `target` with `overhead` fixed (memory never falls as the
// scale grows, so bisection finds it).
double solveScale(const Scenario &s, MemoryMetric metric, double overhead, double target)
{
    double lo = minScale, hi = maxScale;
    for (int i = 0; i < 60 && hi - lo > 1e-9; ++i) {
        const double mid = 0.5 * (lo + hi);
        (valueAt(s, metric, mid, overhead) < target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

} // namespace

double measuredValue(const Peak &peak, MemoryMetric metric)
{
    switch (metric) {
    case MemoryMetric::Allocated:
        return peak.allocated;
    case MemoryMetric::Reserved:
        return peak.reserved;
    case MemoryMetric::Device:
        break;
    }
    return peak.device;
}

Parsed<Calibration> fitCalibration(const Scenario &scenario, MemoryMetric metric,
                                   double measuredBytes)
{
    if (!std::isfinite(measuredBytes) || measuredBytes <= 0)
        return Parsed<Calibration>::fail("the measured value must be a positive number of bytes");
    Scenario s = scenario;
    s.calibration = {};
    const Estimate base = estimate(s);

    // The overhead the metric has beside the allocated bytes, and how far it may shrink.
    double overheadFloor = 0;
    if (metric == MemoryMetric::Reserved)
        overheadFloor = -(base.peak.reserved - base.peak.allocated);
    else if (metric == MemoryMetric::Device)
        for (const auto &item : base.items) // the CUDA context and NCCL, not paged states
            if (item.component == Component::Framework && item.outsideAllocator)
                overheadFloor -= item.bytes();
    const double residual = measuredBytes - measuredValue(base.peak, metric);

    Calibration c{true, metric, measuredBytes, 1.0, 0.0};
    if (metric != MemoryMetric::Allocated && residual >= overheadFloor) {
        c.overheadBytes = residual;
        return Parsed<Calibration>::ok(c);
    }
    c.overheadBytes = metric == MemoryMetric::Allocated ? 0.0 : overheadFloor;
    const double lowest = valueAt(s, metric, minScale, c.overheadBytes);
    const double highest = valueAt(s, metric, maxScale, c.overheadBytes);
    if (measuredBytes < lowest) {
        // Name what the floor is made of, so the user sees which part of the scenario the
        // number contradicts.
        const auto &byComponent = base.phases[int(base.peak.phase)].byComponent;
        const double states = byComponent[int(Component::Parameters)] +
                              byComponent[int(Component::Gradients)] +
                              byComponent[int(Component::OptimizerStates)];
        if (measuredBytes < states)
            return Parsed<Calibration>::fail(
                "the measured " + formatBytes(measuredBytes, SizeUnit::GiB) +
                " is below what this scenario's weights and states alone take (" +
                formatBytes(states, SizeUnit::GiB) +
                " of weights, gradients and optimizer states): check the scenario against the "
                "run (model, precision, sharding, GPU count)");
        return Parsed<Calibration>::fail(
            "the measured " + formatBytes(measuredBytes, SizeUnit::GiB) +
            " is below the least this scenario can take (" + formatBytes(lowest, SizeUnit::GiB) +
            ": its weights and states with a quarter of its activations): check the scenario "
            "against the run (batch, sequence, recomputation)");
    }
    if (measuredBytes > highest)
        return Parsed<Calibration>::fail(
            "the measured " + formatBytes(measuredBytes, SizeUnit::GiB) +
            " is more than 20 times this scenario's activations can explain: check the scenario "
            "against the run");
    c.activationScale = solveScale(s, metric, c.overheadBytes, measuredBytes);
    return Parsed<Calibration>::ok(c);
}

} // namespace vramplan
