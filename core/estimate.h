#pragma once
// Memory per GPU for one scenario: named terms, the peak through one training step and its
// phase, and the three numbers measured in the wild (SPEC §2).
//
// Example: Llama-2-7B, full fine-tune, bf16_mixed, AdamW, 8 GPUs with ZeRO-3 holds
// 6.74e9 * (2 + 2 + 12) / 8 bytes of model states per GPU (12.6 GiB), plus activations that grow
// with micro-batch and sequence, plus temporaries and the CUDA context:
//
//     Scenario s = ...;               // or scenarioFromText(...)
//     Estimate e = estimate(s);
//     e.peak.allocated;               // bytes torch.cuda.max_memory_allocated() would report
//     e.fits;                         // device bytes within the GPU's capacity

#include "estimate_terms.h"
#include "model/model_weights.h"
#include "rl_plan.h"
#include "scenario.h"
#include "serving/serving.h"
#include "static_vector.h"

#include <array>
#include <cstdint>

namespace vramplan {

struct Estimate
{
    ParameterCounts parameters;
    int64_t trainableParameters = 0;
    int pipelineStage = 0; // the stage reported (the one with the largest peak)

    std::array<double, componentCount> perGpu{}; // at the peak; sums to peak.device
    Peak peak;
    // The first and the last pipeline stage (equal to peak without pipeline parallelism): the
    // first holds the most micro-batches in flight, the last the output layer and loss, and
    // Megatron logs the last rank's numbers.
    Peak firstStage, lastStage;
    std::array<PhaseTotals, phaseCount> phases{};
    double capacityBytes = 0;
    bool fits = false;
    bool calibrated = false; // the scenario carries a calibration to a measured run
    double headroomBytes = 0; // negative: overflow

    FormulaSymbols symbols;
    ItemList items;
    StaticVector<Warning, 12> warnings;
    ServingPlan serving; // present when training.mode is inference with a `serving` section
    RlPlan rl;           // present when the scenario has an `rl` section (docs/rl.md)

    double componentBytes(Component c) const { return perGpu[static_cast<int>(c)]; }
};

Estimate estimate(const Scenario &scenario);

// A scenario with an `rl` section, phase by phase (defined in rl/rl_estimate.cpp, which calls
// estimate() for the training phase on a scenario without the section; estimate() hands such
// scenarios to it).
Estimate estimateRl(const Scenario &scenario);

} // namespace vramplan
