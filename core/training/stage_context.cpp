// The scenario's derived numbers for one pipeline stage (stage_context.h): its layers, its
// micro-batches in flight, its tokens, and the layout it runs under.

#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {

namespace {

// A classic model's kinds: its main kind first, and the dense kind of a MoE model.
LayerKinds kindsOf(const ModelConfig &m)
{
    if (m.hasLayerPlan())
        return layerKindsIn(m, 0, m.layers);
    LayerKinds kinds;
    kinds.push_back({{Mixer::Attention, m.isMoe() ? LayerMlp::Moe : LayerMlp::Dense}, 0, 0});
    if (m.isMoe())
        kinds.push_back({{Mixer::Attention, LayerMlp::Dense}, 0, 0});
    return kinds;
}

// A dense model's one kind serves as both groups' list; only a MoE model builds a second.
std::array<WeightList, 8> classicWeights(const ModelConfig &m)
{
    return {layerWeights(m), m.isMoe() ? layerWeights(m, LayerKind::Dense) : WeightList()};
}

std::array<WeightList, 8> kindWeights(const ModelConfig &m, const LayerKinds &kinds)
{
    std::array<WeightList, 8> weights;
    for (size_t k = 0; k < kinds.size(); ++k)
        weights[k] = layerWeights(m, kinds[k].spec);
    return weights;
}

} // namespace

ModelLayers::ModelLayers(const ModelConfig &m)
    : globals(globalWeights(m)), vision(visionWeights(m)), kinds(kindsOf(m)),
      weights(m.hasLayerPlan() ? kindWeights(m, kinds) : classicWeights(m))
{
}

int mtpGroup(const StageContext &c)
{
    const LayerSpec spec =
        c.m.hasLayerPlan()
            ? LayerSpec{Mixer::Attention, c.m.isMoe() ? LayerMlp::Moe : LayerMlp::Dense}
            : c.m.layerSpec(c.m.layers - 1);
    for (size_t g = 0; g < c.groups.size(); ++g)
        if (c.groups[g].spec == spec)
            return int(g);
    return 0;
}

StageContext makeContext(const Scenario &s, int stage, const ParameterCounts &counts,
                         const ModelLayers &layers, StageShared *shared)
{
    StageContext c{s, s.model, s.training, s.parallelism, counts, layers.globals, shared};
    if (stage == 0 && !layers.vision.empty())
        c.vision = &layers.vision;
    if (stage == 0 && s.model.family == Family::Generic && s.model.checkpointParameters > counts.total)
        c.extraParameters = double(s.model.checkpointParameters - counts.total);
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
    if (!s.model.hasLayerPlan()) {
        const LayerKind mainKind = s.model.isMoe() ? LayerKind::Moe : LayerKind::Dense;
        const WeightList &dense = layers.weights[layers.kinds.size() - 1];
        c.groups.push_back({&layers.weights[0], c.mainLayers, mainKind, layers.kinds[0].spec,
                            int(mainKind)});
        c.groups.push_back({&dense, c.denseLayers, LayerKind::Dense,
                            {Mixer::Attention, LayerMlp::Dense}, int(LayerKind::Dense)});
    } else {
        // Every kind of the model, with how many of its layers this stage holds.
        const LayerKinds here = layerKindsIn(s.model, from, from + c.stageLayers);
        c.mainLayers = c.denseLayers = 0;
        for (size_t k = 0; k < layers.kinds.size(); ++k) {
            const LayerSpec spec = layers.kinds[k].spec;
            double count = 0;
            for (const auto &h : here)
                if (h.spec == spec)
                    count = double(h.layers);
            const bool moe = spec.mlp == LayerMlp::Moe && s.model.isMoe();
            (moe ? c.mainLayers : c.denseLayers) += count;
            c.groups.push_back({&layers.weights[k], count, moe ? LayerKind::Moe : LayerKind::Dense,
                                spec, int(k)});
        }
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
