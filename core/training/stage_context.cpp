// The scenario's derived numbers for one pipeline stage (stage_context.h): its layers, its
// micro-batches in flight, its tokens, and the layout it runs under.

#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {

StageContext makeContext(const Scenario &s, int stage, const ParameterCounts &counts,
                         const WeightList &layer, const WeightList &dense,
                         const WeightList &globals, StageShared *shared)
{
    StageContext c{s, s.model, s.training, s.parallelism, counts, layer, globals, dense, shared};
    const auto &t = s.training;
    const auto &p = s.parallelism;
    c.training = t.mode == Mode::Train;
    c.full = t.finetune.method == FinetuneMethod::Full;
    c.lora = !c.full;
    c.qlora =
        t.finetune.method == FinetuneMethod::Qlora || (c.lora && t.finetune.baseWeightBits == 4);
    c.amp = t.precision == Precision::AmpFp16 || t.precision == Precision::AmpBf16;
    c.fp32 = t.precision == Precision::Fp32;
    c.act = c.fp32 ? 4.0 : 2.0;
    c.compiled = t.compile;
    c.fusedKernels = t.kernels == Kernels::Liger || s.framework == Framework::Unsloth;
    c.offloadedCheckpoints = s.framework == Framework::Unsloth && t.recompute == Recompute::Full;
    c.tp = p.tensorParallel;
    c.pp = p.pipelineParallel;
    c.cp = p.contextParallel;
    c.ep = p.expertParallel;
    c.dp = std::max<int64_t>(1, p.dataParallel());
    c.stage = stage;
    c.stageLayers = (s.model.layers + c.pp - 1) / c.pp;
    // The stage's layers [from, from + stageLayers), the last stage ending at the last layer:
    // how many of them route through experts.
    const int64_t from = std::min(int64_t(stage) * c.stageLayers, s.model.layers - c.stageLayers);
    if (s.model.isMoe()) {
        c.mainLayers = double(s.model.moeLayersIn(from, from + c.stageLayers));
        c.denseLayers = double(c.stageLayers) - c.mainLayers;
    } else {
        c.mainLayers = double(c.stageLayers);
        c.denseLayers = 0;
    }
    c.hasEmbedding = stage == 0;
    c.hasHead = stage == c.pp - 1;
    c.microBatch = double(t.microBatchSize);
    double gas = double(t.gradientAccumulationSteps);
    // torchtitan's pipeline schedules split each local batch into pipeline_parallel_microbatches
    // micro-batches, by default as many as there are stages (torchtitan/parallelisms/pipelining).
    if (s.framework == Framework::Torchtitan && c.pp > 1 && t.microBatchSize % c.pp == 0) {
        c.microBatch = double(t.microBatchSize / c.pp);
        gas *= double(c.pp);
    }
    c.tokens = c.microBatch * double(t.sequenceLength) / double(c.cp);
    c.optimizerInBackward =
        s.framework == Framework::Torchtune && p.gpus == 1 &&
        (t.optimizer == Optimizer::PagedAdamw || t.optimizer == Optimizer::PagedAdamw8bit);

    // Micro-batches (in units of a whole stage's layers) whose activations a stage holds under
    // 1F1B: pp - stage warm-up micro-batches; interleaved schedules hold (pp - r - 1) * 2 +
    // (v - 1) * pp + 1 chunks of L / (pp * v) layers (Narayanan et al. 2021 §2.2; Megatron
    // schedules.py get_num_warmup_microbatches).
    if (c.pp > 1 && c.training) {
        const double v = double(p.virtualPipelineParallel);
        const double r = double(stage);
        const double pp = double(c.pp);
        if (v > 1)
            c.inFlight = std::min(gas * v, (pp - r - 1) * 2 + (v - 1) * pp + 1) / v;
        else
            c.inFlight = std::min(gas, pp - r);
    }
    return c;
}

} // namespace vramplan
