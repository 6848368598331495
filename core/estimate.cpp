// Puts the terms together: one pass per pipeline stage worth reporting, phases of the step,
// the peak and its phase, allocator slack and what lies outside the allocator.

#include "estimate.h"

#include "estimate_peak.h"
#include "training/capabilities.h"
#include "training/model_derived.h"
#include "training/stage_context.h"

namespace vramplan {
namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

// Inference under a serving engine (serving.h, docs/serving.md): the engine's allocation
// replaces the single forward pass. One plan covers the pipeline stages (the engine sizes every
// worker's cache to the smallest), so it is added once, on the stage estimated first.
void addServing(Estimate &e, const Scenario &s, ItemSink &out)
{
    e.serving = planServing(s);
    const ServingPlan &p = e.serving;
    const unsigned fwd = phaseBit(Phase::Forward);
    out.add(Component::Parameters, "weights as the engine loads them",
            "elements * bytes per weight (+ scales, zeros, padding) + rotary cache",
            "serving.cpp: vLLM weight loading, quantization/*.py", p.weightsBytes, 1, fwd);
    out.add(Component::KvCache, "KV cache (whole blocks)",
            "blocks * block_size * layers * KV bytes per token and layer",
            "vLLM v1/core/kv_cache_utils.py; SGLang mem_cache/memory_pool.py",
            std::max(0.0, p.kvCacheBytes), 1, fwd);
    out.add(Component::Temporary, "activation peak of the profiling run",
            "max(tokens * (3h + 3f/t) * c, sampler rows * V * (c + 24))",
            "vLLM gpu_model_runner.py profile_run", p.activationBytes, 1, fwd);
    out.add(Component::Framework, "memory outside PyTorch (cuBLAS workspaces, NCCL)",
            "per GPU, + NCCL and custom all-reduce with TP/PP", "vLLM non_torch_memory logs",
            p.nonTorchBytes, 1, allPhases, true);
    out.add(Component::Framework, "CUDA graphs",
            "largest batch's pool + per-graph nodes", "vLLM compilation config; capture logs",
            p.cudaGraphBytes, 1, allPhases, true);
}

// A calibration's activation scale: what the user's run showed against the inventory, applied
// to every batch- and sequence-dependent term (activations, logits, temporaries).
void scaleToCalibration(Estimate &e, double scale)
{
    for (auto &item : e.items)
        if (item.component == Component::Activations ||
            item.component == Component::LogitsAndLoss || item.component == Component::Temporary)
            item.perUnit *= scale;
}

void scenarioWarnings(Estimate &e, const Scenario &s)
{
    const auto &p = s.parallelism;
    const auto &t = s.training;
    if (t.attention == Attention::Eager) {
        // Bytes of the s^2 softmax output alone (fp32 in the eager PyTorch code), per layer.
        const double scores = double(t.microBatchSize) * double(s.model.attentionHeads) /
                              double(p.tensorParallel) * double(t.sequenceLength) *
                              double(t.sequenceLength) / double(p.contextParallel) * 4.0;
        if (scores >= GiB)
            e.warnings.push_back({WarningCode::EagerScoresLarge, scores, double(t.sequenceLength)});
    }
    if (p.zeroStage > 0 && p.dataParallel() <= 1)
        e.warnings.push_back({WarningCode::ZeroWithoutDataParallel, double(p.zeroStage)});
    if (p.offloadParameters != Offload::None && p.zeroStage < 3)
        e.warnings.push_back({WarningCode::OffloadParametersNeedsZero3});
    if (p.fsdpFloat8AllGather && !fsdpFloat8AllGatherApplies(s))
        e.warnings.push_back({WarningCode::Float8AllGatherIgnored});
    if (s.model.family == Family::Generic)
        e.warnings.push_back({WarningCode::GenericModel});
    if (s.model.checkpointParameters > 0 && s.model.family != Family::Generic) {
        const double modelled = double(e.parameters.total);
        const double extras = double(checkpointExtras(s.model).total());
        // An fp8 checkpoint also holds its weight_scale_inv tensors; the scenario keeps no
        // block size, so the 128 x 128 blocks of DeepSeek-V3/V3.2, Kimi-K2 and Qwen's FP8
        // releases are accepted too.
        const double withScales = double(checkpointExtras(s.model, 128).total());
        const double held = double(s.model.checkpointParameters);
        if (held != modelled && held != modelled + extras && held != modelled + withScales)
            e.warnings.push_back({WarningCode::CheckpointDiffers, held, modelled});
    }
    if (t.vision.present()) {
        const ImagePatches image = imagePatches(s.model, t.vision);
        const double tokens = image.tokens * double(t.vision.imagesPerSample);
        if (!s.model.vision.present())
            e.warnings.push_back({WarningCode::VisionInputsWithoutTower});
        else if (tokens > double(t.sequenceLength))
            e.warnings.push_back({WarningCode::ImageTokensBeyondSequence, tokens,
                                  double(t.sequenceLength)});
    }
    if (t.sequenceLength > s.model.maxPositions)
        e.warnings.push_back({WarningCode::SequenceBeyondPositions, double(s.model.maxPositions),
                              double(t.sequenceLength)});
    if (t.mode == Mode::Train &&
        (t.optimizer == Optimizer::PagedAdamw || t.optimizer == Optimizer::PagedAdamw8bit))
        e.warnings.push_back({WarningCode::PagedStatesOutsideAllocator});
    Knob missing[knobCount];
    const int lacking = missingCapabilities(s, missing);
    for (int i = 0; i < lacking; ++i)
        e.warnings.push_back(
            {WarningCode::FrameworkLacks, double(int(missing[i])), double(int(s.framework))});
    if (p.pipelineParallel > 1 && s.model.layers % p.pipelineParallel != 0)
        e.warnings.push_back({WarningCode::PipelineStagesUneven, double(s.model.layers),
                              double(p.pipelineParallel)});
}

void estimateStage(Estimate &e, const Scenario &s, int stage, const ParameterCounts &counts,
                   const ModelLayers &layers,
                   StageShared *shared)
{
    e.parameters = counts;
    e.pipelineStage = stage;
    const StageContext c = makeContext(s, stage, counts, layers, shared);
    ItemSink sink(e.items);
    if (c.training) {
        addModelStates(c, sink);
        if (c.training)
            addInitialisation(c, sink);
        addActivations(c, sink);
    } else if (s.serving.present) {
        if (stage == 0)
            addServing(e, s, sink);
    } else {
        addInference(c, sink);
    }
    if (s.calibration.present)
        scaleToCalibration(e, s.calibration.activationScale);
    const double tp = double(c.tp);
    e.symbols = {c.microBatch,
                 double(s.training.sequenceLength) / double(c.cp),
                 double(s.model.hiddenSize),
                 double(s.model.attentionHeads) / tp,
                 std::max(1.0, double(s.model.kvHeads) / tp),
                 double(s.model.headDim),
                 double(s.model.isMoe() && s.model.moe.expertFfnHiddenSize > 0
                            ? s.model.moe.expertFfnHiddenSize
                            : s.model.ffnHiddenSize) /
                     tp,
                 double(s.model.vocabSize),
                 c.act,
                 double(s.training.finetune.loraRank),
                 double(s.model.moe.experts),
                 double(s.model.moe.expertsPerToken)};
    e.trainableParameters =
        c.full                     ? counts.total
        : s.model.hasLayerPlan() ? loraParameters(s.model, s.training.finetune)
                                 : loraParametersPerLayer(s.model, s.training.finetune, LayerKind::Moe) *
                                           (s.model.isMoe() ? counts.moeLayers : 0) +
                                       loraParametersPerLayer(s.model, s.training.finetune,
                                                              LayerKind::Dense) *
                                           (s.model.isMoe() ? counts.denseLayers : s.model.layers);
    finishEstimate(e, s, c.training ? freedLogitsBlockBytes(c) : 0.0);
}

} // namespace

Estimate estimate(const Scenario &s)
{
    if (s.rl.present() && s.training.mode == Mode::Train)
        return estimateRl(s);
    // The model's weight lists and counts, kept while only the rest of the scenario changes.
    const std::shared_ptr<const ModelDerived> derived = modelDerived(s.model);
    const ModelLayers &layers = derived->layers;
    const ParameterCounts &counts = derived->counts;
    Estimate best;
    StageShared shared;
    estimateStage(best, s, 0, counts, layers, &shared);
    best.firstStage = best.lastStage = best.peak;
    if (s.parallelism.pipelineParallel > 1) {
        // The first stage holds the most micro-batches in flight, the last the output layer
        // and the loss; report whichever peaks higher.
        Estimate last;
        estimateStage(last, s, int(s.parallelism.pipelineParallel - 1), counts, layers,
                      &shared);
        last.firstStage = best.peak;
        last.lastStage = last.peak;
        best.lastStage = last.peak;
        if (last.peak.device > best.peak.device)
            best = last;
    }
    scenarioWarnings(best, s);
    if (best.serving.present && best.serving.status != ServingStatus::Ok)
        best.warnings.push_back({WarningCode::ServingFails, double(int(best.serving.status))});
    return best;
}

} // namespace vramplan
