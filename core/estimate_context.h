#pragma once
// What the parts of the estimator share: the scenario's derived numbers for one pipeline
// stage, and the list the terms are added to. Internal to core/.

#include "estimate.h"
#include "model_weights.h"

#include <algorithm>

namespace vramplan {

struct StageContext
{
    const Scenario &s;
    const ModelConfig &m;
    const TrainingConfig &t;
    const ParallelConfig &p;
    ParameterCounts counts;
    WeightList layer;    // one layer's tensors
    WeightList globals;  // embeddings, final norm, heads

    bool training = true;
    bool full = true;    // full fine-tune (every weight trainable)
    bool lora = false;   // lora or qlora
    bool qlora = false;
    bool amp = false;    // fp32 weights under autocast
    bool fp32 = false;
    double act = 2;      // bytes of one activation element (compute dtype)

    int64_t dp = 1, tp = 1, pp = 1, cp = 1, ep = 1;
    int stage = 0;              // 0 .. pp-1
    int64_t stageLayers = 1;    // layers on this stage
    bool hasEmbedding = true;   // first stage
    bool hasHead = true;        // last stage
    double inFlight = 1;        // micro-batches whose activations this stage holds at once

    double tokens = 1;  // tokens of one micro-batch on this GPU (b * s / cp)

    // Whether a framework's model code is the eager PyTorch kind (fp32-upcast norms, K/V
    // repeated for GQA) rather than Megatron's fused kernels.
    bool eagerModelCode() const { return s.framework != Framework::Megatron; }
    bool zero3() const { return p.zeroStage >= 3; }
};

class ItemSink
{
public:
    explicit ItemSink(Estimate &e) : m_e(e) {}
    void add(Component c, std::string_view name, std::string_view formula, std::string_view source,
             double perUnit, double count, unsigned phases = allPhases, bool outside = false)
    {
        if (!(perUnit > 0) || !(count > 0))
            return;
        m_e.items.push_back({c, name, formula, source, perUnit, count, phases, outside});
    }

private:
    Estimate &m_e;
};

// Weights, gradients and optimizer states (states.cpp).
void addModelStates(const StageContext &ctx, ItemSink &out);
// Saved activations, logits and loss, and the backward working set (activations.cpp).
void addActivations(const StageContext &ctx, ItemSink &out);

}  // namespace vramplan
