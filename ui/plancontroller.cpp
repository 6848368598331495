#include "plancontroller.h"

#include "advice/calibration.h"
#include "formats/numeric_fields.h"
#include "formats/scenario_json.h"
#include "advice/solvers.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <limits>

namespace vramplan::ui {

std::vector<double> logSamples(double from, double to, double current)
{
    std::vector<double> out;
    for (double octave = std::floor(std::log2(std::max(1.0, from))); std::exp2(octave) <= to;
         octave += 1) {
        for (double step : {0.0, 0.25, 0.5, 0.75}) {
            const double v = std::round(std::exp2(octave + step));
            if (v >= from && v <= to && (out.empty() || v > out.back()))
                out.push_back(v);
        }
    }
    if (current >= from && current <= to)
        out.push_back(std::round(current));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

// Whether the scenario's expert load imbalance is one that perfectly balanced routing could
// differ from: the balanced estimates are made only then (a dense model pays nothing).
bool imbalanced(const Scenario &s)
{
    return s.model.isMoe() && s.model.moe.imbalance > 1.0;
}

// The device total the charts draw: the stacked components.
double stackedBytes(const Estimate &e)
{
    double total = 0;
    for (double bytes : e.perGpu)
        total += std::isfinite(bytes) && bytes > 0 ? bytes : 0.0;
    return total;
}

bool differs(double a, double b)
{
    return std::abs(a - b) > 1e-9 * std::max(std::abs(a), std::abs(b));
}

// Memory at each sample of one numeric field; invalid points are kept as gaps. Under an expert
// load imbalance, also the total of each sample with balanced routing (kept only where some
// sample differs).
// Sets one sample's value on a copy of the scenario; false where the value is invalid there.
using Setter = std::function<bool(Scenario &, double)>;

Setter fieldSetter(const NumericField &field)
{
    return [&field](Scenario &s, double v) { return setNumericField(s, field, v).empty(); };
}

// The longest response (in tokens) with which an RL scenario fits; 0 when none does. Memory
// never falls as the response grows, so the search halves the interval.
int64_t longestResponse(const Scenario &base)
{
    const auto fits = [&](int64_t response) {
        Scenario s = base;
        s.rl.responseTokens = response;
        const Estimate e = vramplan::estimate(s);
        return e.fits && e.rl.engineStarts;
    };
    int64_t lo = 0, hi = (int64_t(1) << 24) - base.rl.promptTokens;
    while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void sweep(CurveData &curve, const Scenario &base, const Setter &set)
{
    curve.components.assign(curve.x.size(), {});
    curve.valid.assign(curve.x.size(), false);
    const bool balance = imbalanced(base);
    curve.imbalance = base.model.moe.imbalance;
    curve.balancedBytes.assign(balance ? curve.x.size() : 0,
                               std::numeric_limits<double>::quiet_NaN());
    bool anyDifference = false;
    Scenario s = base;
    for (size_t i = 0; i < curve.x.size(); ++i) {
        s = base;
        if (!set(s, curve.x[i]))
            continue;
        const Estimate e = vramplan::estimate(s);
        curve.components[i] = e.perGpu;
        curve.valid[i] = true;
        if (balance) {
            s.model.moe.imbalance = 1.0;
            curve.balancedBytes[i] = stackedBytes(vramplan::estimate(s));
            anyDifference = anyDifference || differs(curve.balancedBytes[i], stackedBytes(e));
        }
    }
    if (!anyDifference)
        curve.balancedBytes.clear();
    curve.capacityBytes = std::max(0.0, base.gpu.memoryGiB) * 1073741824.0;
    curve.bandLow = validationErrorBand.low;
    curve.bandHigh = validationErrorBand.high;
}

} // namespace

PlanController::PlanController(QObject *parent) : QObject(parent) {}

void PlanController::setScenario(const Scenario &scenario)
{
    m_scenario = scenario;
    recompute();
    emit updated();
}

void PlanController::recompute()
{
    const Scenario &s = m_scenario;
    m_estimate = vramplan::estimate(s);
    m_balanced.reset();
    if (imbalanced(s)) {
        Scenario balanced = s;
        balanced.model.moe.imbalance = 1.0;
        Estimate e = vramplan::estimate(balanced);
        if (differs(e.peak.device, m_estimate.peak.device))
            m_balanced = std::move(e);
    }

    const double batch = double(s.training.microBatchSize);
    const int64_t bestBatch = maxMicroBatchSize(s);
    m_batch.title = tr("Memory vs micro-batch");
    m_batch.xLabel = tr("Micro-batch size");
    m_batch.xName = tr("micro-batch");
    m_batch.x = logSamples(
        1, std::clamp(std::max({256.0, 2 * batch, 1.5 * double(bestBatch)}), 1.0, 65536.0), batch);
    m_batch.current = batch;
    m_batch.largestFitting = bestBatch > 0 ? double(bestBatch) : -1;
    sweep(m_batch, s, fieldSetter(*findNumericField("training.micro_batch_size")));

    if (s.rl.present()) {
        // An RL plan's sequence is prompt + response (docs/rl.md): the curve sweeps the
        // response, which the training sequence length does not move.
        const double response = double(s.rl.responseTokens);
        const int64_t bestResponse = longestResponse(s);
        m_sequence.title = tr("Memory vs response length");
        m_sequence.xLabel = tr("Response tokens");
        m_sequence.xName = tr("response tokens");
        m_sequence.x = logSamples(
            128,
            std::clamp(std::max({16384.0, 2 * response, 1.5 * double(bestResponse)}), 128.0,
                       double((int64_t(1) << 24) - s.rl.promptTokens)),
            response);
        m_sequence.current = response;
        m_sequence.largestFitting = bestResponse > 0 ? double(bestResponse) : -1;
        sweep(m_sequence, s, [](Scenario &t, double v) {
            t.rl.responseTokens = int64_t(v);
            return true;
        });
    } else {
        const double seq = double(s.training.sequenceLength);
        const int64_t bestSeq = maxSequenceLength(s, 128);
        m_sequence.title = tr("Memory vs sequence length");
        m_sequence.xLabel = tr("Sequence length (tokens)");
        m_sequence.xName = tr("sequence length");
        m_sequence.x = logSamples(
            128, std::clamp(std::max({32768.0, 2 * seq, 1.5 * double(bestSeq)}), 128.0, 4194304.0),
            seq);
        m_sequence.current = seq;
        m_sequence.largestFitting = bestSeq > 0 ? double(bestSeq) : -1;
        sweep(m_sequence, s, fieldSetter(*findNumericField("training.sequence_length")));
    }

    // GPU counts step in whole model-parallel groups.
    const auto &p = s.parallelism;
    const double unit = double(p.tensorParallel * p.pipelineParallel * p.contextParallel *
                               std::max<int64_t>(1, p.expertParallel));
    const double gpus = double(p.gpus);
    const int64_t fewest = minGpuCount(s);
    m_gpus.title = tr("Memory vs GPU count");
    m_gpus.xLabel = tr("GPUs");
    m_gpus.xName = tr("GPU count");
    m_gpus.x.clear();
    for (double g :
         logSamples(1, std::max({64.0, 2 * gpus / unit, 2 * double(fewest) / unit}), gpus / unit))
        m_gpus.x.push_back(g * unit);
    m_gpus.current = gpus;
    m_gpus.largestFitting = fewest > 0 ? double(fewest) : -1;
    m_gpus.fitLabel = tr("fewest that fit");
    sweep(m_gpus, s, fieldSetter(*findNumericField("parallelism.gpus")));

    m_serving = vramplan::ui::servingCurves(s);
}

} // namespace vramplan::ui
