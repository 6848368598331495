#include "charts/servingcurves.h"

#include "estimate.h"
#include "plancontroller.h"
#include "formats/scenario_json.h"
#include "advice/serving_advice.h"

#include <QCoreApplication>

#include <algorithm>
#include <functional>

namespace vramplan::ui {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The context sweep: from a short chat turn to the longer of twice the setting and the model's
// own maximum, so that both the current point and where the model stops are on the curve.
constexpr double shortestContext = 512;
// gpu_memory_utilization: below half the engine mostly leaves the GPU idle; above 0.98 the
// CUDA graphs and the sampler's spikes have nowhere to go (vLLM's own advice).
constexpr double lowestUtilization = 0.5;
constexpr double highestUtilization = 0.98;
constexpr double utilizationStep = 0.02;

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ServingCurves)
};

// One estimate per sample of `set`, read by `value`; invalid scenarios are gaps.
void sweep(ServingCurve &curve, const Scenario &base,
           const std::function<void(Scenario &, double)> &set,
           const std::function<double(const ServingPlan &)> &value)
{
    curve.y.assign(curve.x.size(), nan);
    curve.starts.assign(curve.x.size(), false);
    for (size_t i = 0; i < curve.x.size(); ++i) {
        Scenario s = base;
        set(s, curve.x[i]);
        if (!checkScenario(s).empty())
            continue;
        const Estimate e = vramplan::estimate(s);
        if (!e.serving.present)
            continue;
        curve.y[i] = value(e.serving);
        curve.starts[i] = e.serving.status == ServingStatus::Ok;
    }
}

double concurrency(const ServingPlan &p)
{
    return p.maxConcurrency;
}

} // namespace

double ServingCurve::at(double value) const
{
    const auto it = std::find(x.begin(), x.end(), value);
    return it == x.end() || size_t(it - x.begin()) >= y.size() ? nan : y[size_t(it - x.begin())];
}

ServingCurves servingCurves(const Scenario &s)
{
    ServingCurves out;
    if (!isServingScenario(s))
        return out;
    out.present = true;
    const ResolvedServing resolved = resolveServing(s);

    ServingCurve &context = out.context;
    context.title = Words::tr("Concurrency vs context length");
    context.xLabel = Words::tr("max_model_len (tokens)");
    context.yLabel = Words::tr("Requests of max_model_len at once");
    context.xName = Words::tr("max_model_len");
    context.logX = true;
    context.shortPowers = true;
    const double len = double(resolved.maxModelLen);
    context.x = logSamples(shortestContext,
                           std::max({2 * len, double(s.model.maxPositions), shortestContext}), len);
    context.current = len;
    sweep(
        context, s, [](Scenario &c, double v) { c.serving.maxModelLen = int64_t(v); }, concurrency);

    ServingCurve &utilization = out.utilization;
    utilization.title = Words::tr("KV-cache tokens vs gpu_memory_utilization");
    utilization.xLabel = Words::tr("gpu_memory_utilization (share of the GPU's CUDA total)");
    utilization.yLabel = Words::tr("KV-cache tokens");
    utilization.xName = Words::tr("gpu_memory_utilization");
    utilization.measure = ServingCurve::Measure::Tokens;
    // Whole steps counted, not added, so that 0.9 is exactly 0.9 and finds the current point.
    const int steps = int(std::lround((highestUtilization - lowestUtilization) / utilizationStep));
    for (int i = 0; i <= steps; ++i)
        utilization.x.push_back(std::round((lowestUtilization + i * utilizationStep) * 100) / 100);
    utilization.current = resolved.utilization;
    if (resolved.engine != ServingEngine::Transformers)
        utilization.x.push_back(resolved.utilization);
    std::sort(utilization.x.begin(), utilization.x.end());
    utilization.x.erase(std::unique(utilization.x.begin(), utilization.x.end()),
                        utilization.x.end());
    sweep(
        utilization, s, [](Scenario &c, double v) { c.serving.gpuMemoryUtilization = v; },
        [](const ServingPlan &p) { return double(p.kvCacheTokens); });

    // Tensor parallelism changes the GPUs of one engine; data-parallel replicas stay as many.
    ServingCurve &tp = out.tensorParallel;
    tp.title = Words::tr("Concurrency vs tensor parallelism");
    tp.xLabel = Words::tr("Tensor-parallel size (GPUs per engine)");
    tp.yLabel = Words::tr("Requests of max_model_len at once");
    tp.xName = Words::tr("tensor parallel");
    tp.logX = true;
    const auto &p = s.parallelism;
    const int64_t replicas = std::max<int64_t>(1, p.dataParallel());
    for (int64_t size : searchedTensorParallel(s))
        tp.x.push_back(double(size));
    if (std::find(tp.x.begin(), tp.x.end(), double(p.tensorParallel)) == tp.x.end()) {
        tp.x.push_back(double(p.tensorParallel));
        std::sort(tp.x.begin(), tp.x.end());
    }
    tp.current = double(p.tensorParallel);
    sweep(
        tp, s,
        [replicas](Scenario &c, double v) {
            auto &q = c.parallelism;
            q.tensorParallel = int64_t(v);
            q.gpus = q.tensorParallel * q.pipelineParallel * q.contextParallel * replicas;
        },
        concurrency);
    return out;
}

} // namespace vramplan::ui
