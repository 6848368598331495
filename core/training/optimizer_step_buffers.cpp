// The buffers the optimizer step allocates while it runs (torch.optim's foreach intermediates,
// HF Adafactor's fp32 copies), beside the states of state_rules.h.

#include "training/model_states.h"

#include <algorithm>

namespace vramplan {

void addOptimizerStepBuffers(const StageContext &c, const StatesSetup &k,
                             const StateTotals &totals, ItemSink &out)
{
    const double tp = k.tp;
    const double dp = k.dp;
    const bool z1 = k.z1;
    const bool offloadStates = k.offloadStates;
    const auto fw = k.fw;
    const double sb = k.sb.second; // the intermediate is exp_avg_sq's sqrt
    const double trainable = totals.trainable;
    constexpr auto T = Component::Temporary;
    if (!offloadStates && !c.optimizerInBackward && foreachTemporaries(c)) {
        const double shard = z1 ? dp : 1.0;
        out.add(T, "foreach optimizer intermediates", "trainable elements * state bytes / shards",
                "torch/optim/adamw.py _multi_tensor_adamw",
                trainable * (c.lora && fw == Framework::Transformers ? 4.0 : sb) / shard, 1,
                phaseBit(Phase::OptimizerStep));
    }
    if (c.t.optimizer == Optimizer::Adafactor && !offloadStates) {
        // HF Adafactor updates one tensor at a time through fp32 copies of the gradient, its
        // square and the update: about three fp32 copies of the largest tensor.
        double largest = 0;
        for (const auto &t : c.globals)
            largest = std::max(largest, double(t.elements()) / (t.tensorParallel ? tp : 1.0));
        for (const auto &group : c.layerGroups())
            for (const auto &t : *group.weights)
                largest = std::max(largest,
                                   double(t.rows) * double(t.cols) / (t.tensorParallel ? tp : 1.0));
        out.add(T, "Adafactor step buffers", "3 * largest tensor * 4",
                "transformers/optimization.py Adafactor.step", 3 * largest * 4, 1,
                phaseBit(Phase::OptimizerStep));
    }
}

} // namespace vramplan
