#pragma once
// The weight lists and parameter counts an estimate derives from the model alone, kept for the
// model estimated last on this thread. A slider that moves the batch, the sequence, the layout
// or the GPU re-estimates without rebuilding them: for a hybrid MoE (Qwen3.5-397B-A17B) they
// were a fifth of an estimate (issue 20). Internal to core/.

#include "training/stage_context.h"

#include <memory>

namespace vramplan {

struct ModelDerived
{
    explicit ModelDerived(const ModelConfig &m);
    ModelConfig model; // what the rest was derived from
    ModelLayers layers;
    ParameterCounts counts;
};

// The derived lists of `m`: the ones kept when `m` equals the model of the last call on this
// thread, built and kept otherwise. Shared ownership lets a nested estimate (an RL plan's
// phases) replace the kept model while an outer estimate still holds its own.
std::shared_ptr<const ModelDerived> modelDerived(const ModelConfig &m);

} // namespace vramplan
