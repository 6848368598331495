// The per-thread memo of what an estimate derives from the model alone (model_derived.h).

#include "training/model_derived.h"

namespace vramplan {

namespace {

ParameterCounts countsOf(const ModelConfig &m, const ModelLayers &layers)
{
    if (m.hasLayerPlan())
        return countParameters(m, layers.kinds, layers.weights, layers.globals, layers.vision);
    if (m.vision.present())
        return countParameters(m);
    return countParameters(m, layers.weights[0], layers.weights[layers.kinds.size() - 1],
                           layers.globals);
}

} // namespace

ModelDerived::ModelDerived(const ModelConfig &m) : model(m), layers(m), counts(countsOf(m, layers))
{
}

std::shared_ptr<const ModelDerived> modelDerived(const ModelConfig &m)
{
    // One entry: the window and the advisor estimate one model many times in a row.
    thread_local std::shared_ptr<const ModelDerived> last;
    if (!last || !(last->model == m))
        last = std::make_shared<const ModelDerived>(m);
    return last;
}

} // namespace vramplan
