#include "model/model_scaling.h"

#include "model/model_weights.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

ModelConfig scaled(const ModelConfig &base, double k)
{
    ModelConfig m = base;
    const int64_t headDim = std::max<int64_t>(1, base.headDim);
    // Width moves in whole heads; depth and FFN follow the same factor.
    const int64_t heads = std::max<int64_t>(1, std::llround(double(base.attentionHeads) * k));
    const int64_t group =
        std::max<int64_t>(1, base.attentionHeads / std::max<int64_t>(1, base.kvHeads));
    m.attentionHeads = std::max<int64_t>(group, heads / group * group);
    m.kvHeads = std::max<int64_t>(1, m.attentionHeads / group);
    m.headDim = headDim;
    m.hiddenSize = std::max<int64_t>(1, base.hiddenSize * m.attentionHeads /
                                            std::max<int64_t>(1, base.attentionHeads));
    resizeLayers(m, std::clamp<int64_t>(std::llround(double(base.layers) * k), 1, 2048));
    const double widthRatio = double(m.hiddenSize) / double(std::max<int64_t>(1, base.hiddenSize));
    m.ffnHiddenSize = std::clamp<int64_t>(
        std::llround(double(base.ffnHiddenSize) * widthRatio / 64) * 64, 64, int64_t(1) << 20);
    if (m.isMoe() && base.moe.expertFfnHiddenSize > 0)
        m.moe.expertFfnHiddenSize = std::clamp<int64_t>(
            std::llround(double(base.moe.expertFfnHiddenSize) * widthRatio / 64) * 64, 64,
            int64_t(1) << 20);
    m.preset.clear();
    return m;
}

} // namespace

ModelConfig scaleModel(const ModelConfig &base, double target)
{
    const double baseCount = double(countParameters(base).total);
    if (!(target > 0) || !(baseCount > 0))
        return base;
    // Parameters grow about as layers * width^2, both scaled by k: k^3. Refine by bisection on
    // the exact count, since embeddings do not follow the cube.
    double lo = 1e-3, hi = 1e3;
    for (int i = 0; i < 60; ++i) {
        const double mid = std::sqrt(lo * hi);
        (double(countParameters(scaled(base, mid)).total) < target ? lo : hi) = mid;
    }
    // Width moves in whole heads, so finish by choosing the depth that lands nearest the
    // target for the widths either side of the bisected one.
    ModelConfig best = scaled(base, hi);
    double bestError = INFINITY;
    for (double k : {lo * 0.9, lo, hi, hi * 1.1}) {
        ModelConfig m = scaled(base, k);
        const ParameterCounts c = countParameters(m);
        const double perLayer = double(c.perLayer);
        const double rest = double(c.total - c.layers);
        if (perLayer <= 0)
            continue;
        resizeLayers(m, std::clamp<int64_t>(std::llround((target - rest) / perLayer), 1, 2048));
        const double error = std::fabs(double(countParameters(m).total) - target);
        if (error < bestError) {
            bestError = error;
            best = m;
        }
    }
    return best;
}

void resizeLayers(ModelConfig &m, int64_t layers)
{
    const auto repeat = [layers](std::string &plan) {
        if (plan.empty() || int64_t(plan.size()) == layers)
            return;
        const std::string pattern = plan;
        plan.resize(size_t(std::max<int64_t>(0, layers)));
        for (size_t i = 0; i < plan.size(); ++i)
            plan[i] = pattern[i % pattern.size()];
    };
    const int64_t slidingBefore = int64_t(std::count(m.layerMixers.begin(), m.layerMixers.end(), 's'));
    repeat(m.layerMixers);
    repeat(m.layerMlps);
    if (slidingBefore > 0)
        m.slidingLayers = int64_t(std::count(m.layerMixers.begin(), m.layerMixers.end(), 's'));
    m.layers = layers;
}

} // namespace vramplan
