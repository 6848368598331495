// Puts the terms together: one pass per pipeline stage worth reporting, phases of the step,
// the peak and its phase, allocator slack and what lies outside the allocator.

#include "estimate.h"

#include "capabilities.h"
#include "estimate_context.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace vramplan {
namespace {

constexpr double MiB = 1024.0 * 1024.0;
constexpr double GiB = 1024.0 * MiB;

// CUDA context and kernel images as nvidia-smi shows them for a process that has touched the
// GPU. Volta: 1343 MiB measured by the transformers docs (perf_train_gpu_one, V100, eager
// module loading). Newer cards run CUDA >= 11.7 with lazy module loading, where torch 2.x
// shows about 500 MiB after the first kernels.
double cudaContextBytes(const std::string &architecture)
{
    if (architecture == "volta")
        return 1343 * MiB;
    return 500 * MiB;
}
// NCCL's communicator buffers (NCCL_BUFFSIZE 4 MiB per channel and peer, rings and trees,
// several communicators for DP/TP/PP) live outside the caching allocator.
constexpr double ncclBytes = 512 * MiB;
// The caching allocator's slack (reserved minus allocated): blocks freed by transient tensors
// of other sizes stay reserved. Modelled as a share of the transient bytes at the peak plus a
// share of everything, from the published reserved-vs-allocated pairs (0.2 to 2 GB,
// shared/validation README) and torchtune's logs (peak active vs reserved).
constexpr double slackOfTransient = 0.08;
constexpr double slackOfAll = 0.02;

constexpr double maxReportable = 4.0e18; // bytes; beyond this a number is clamped

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

// The inference KV cache of one micro-batch. Grouped heads are stored as they are. Sliding-
// window (and Llama 4's chunked) layers keep at most their window (transformers'
// DynamicSlidingWindowLayer / vLLM's sliding-window manager); the stage's share of them is the
// model's. Multi-head latent attention: engines that cache the latent (vLLM, SGLang,
// Megatron) keep kv_lora_rank + rope dim per token and layer (DeepSeek-V2 §2.1.2); transformers'
// DeepseekV3Attention caches the decompressed per-head keys (nope + rope) and values.
void addKvCache(const StageContext &c, ItemSink &out)
{
    const double tp = double(c.tp);
    const double s = double(c.t.sequenceLength) / double(c.cp);
    const double b = double(c.t.microBatchSize);
    const unsigned fwd = phaseBit(Phase::Forward);
    const double L = double(c.stageLayers);
    const double slidingShare =
        c.m.slidingWindow > 0 ? double(c.m.slidingLayers) / double(c.m.layers) : 0.0;
    const double windowTokens = std::min(s, double(c.m.slidingWindow));
    if (c.m.isMla()) {
        const auto &mla = c.m.mla;
        if (c.hfModelCode())
            out.add(Component::Activations, "KV cache (decompressed per-head keys and values)",
                    "b*s*a*(nope + rope + v)*c per layer (transformers DeepseekV3Attention)",
                    "transformers DynamicCache",
                    b * s * double(c.m.attentionHeads) / tp *
                        double(mla.qkHeadDim() + mla.vHeadDim) * c.act,
                    L, fwd);
        else
            out.add(Component::Activations, "KV cache (compressed latent and rope key)",
                    "b*s*(kv_lora_rank + rope)*c per layer", "DeepSeek-V2 §2.1.2",
                    b * s * double(mla.kvLoraRank + mla.qkRopeHeadDim) * c.act, L, fwd);
        return;
    }
    // K and V per layer, grouped heads kept as they are (the cache stores kv heads).
    const double kvWidth = std::max(double(c.m.kvHeads * c.m.headDim) / tp, double(c.m.headDim));
    const double perToken = 2 * b * kvWidth * c.act;
    out.add(Component::Activations, "KV cache", "2 * b * s * kv * d * c per layer",
            "Pope et al. 2022 §2", perToken * s, L * (1 - slidingShare), fwd);
    out.add(Component::Activations, "KV cache of sliding-window layers",
            "2 * b * min(s, window) * kv * d * c per layer", "transformers sliding-window cache",
            perToken * windowTokens, L * slidingShare, fwd);
}

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
            "blocks * block_size * kv bytes per token and layer * layers",
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

void addInference(const StageContext &c, ItemSink &out)
{
    const double tp = double(c.tp);
    double weights = 0;
    for (const auto &group : c.layerGroups())
        for (const auto &t : group.weights) {
            double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
            if (t.place == WeightPlace::Expert)
                n /= double(c.ep);
            const int64_t bits = c.t.finetune.baseWeightBits;
            const double bytes = !c.full && t.quantizable && bits < 16
                                     ? (bits == 4 ? 0.5 + 1.0 / 64 : 1.0)
                                     : (c.fp32 ? 4.0 : 2.0);
            weights += n * group.count * bytes;
        }
    for (const auto &t : c.globals) {
        const bool onStage = t.place == WeightPlace::Embedding ? c.hasEmbedding : c.hasHead;
        if (onStage)
            weights += double(t.elements()) / (t.tensorParallel ? tp : 1.0) * (c.fp32 ? 4.0 : 2.0);
    }
    const unsigned fwd = phaseBit(Phase::Forward);
    out.add(Component::Parameters, "weights", "elements * bytes per weight", "SPEC §2", weights, 1,
            fwd);
    addKvCache(c, out);
    const double ffn = double(c.m.isMoe() ? c.m.moe.expertFfnHiddenSize : c.m.ffnHiddenSize) / tp;
    double working = c.tokens * (4 * double(c.m.hiddenSize) + 3 * ffn) * c.act;
    if (c.t.attention == Attention::Eager)
        working += double(c.t.microBatchSize) * double(c.m.attentionHeads) / tp *
                   double(c.t.sequenceLength) * double(c.t.sequenceLength) / double(c.cp) *
                   (4 + c.act);
    out.add(Component::Temporary, "working activations of one layer (prefill)",
            "b*s*(4h + 3f)*c (+ b*a*s^2*(4+c) eager)", "forward pass", working, 1, fwd);
    if (c.hasHead && c.m.head == Head::LanguageModel)
        out.add(Component::LogitsAndLoss, "next-token logits", "b*V*(c + 4)", "generation",
                double(c.t.microBatchSize) * double(c.m.vocabSize) * (c.act + 4), 1, fwd);
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

void finish(Estimate &e, const Scenario &s, double fragmentedBytes)
{
    // Phase totals from what is alive in each phase (inside the caching allocator).
    for (int i = 0; i < phaseCount; ++i) {
        auto &ph = e.phases[i];
        ph = PhaseTotals{};
        ph.phase = static_cast<Phase>(i);
    }
    double outside = 0;
    // What a collective's own stream holds in each phase (Item::streamPooled).
    std::array<double, phaseCount> pooled{};
    for (const auto &item : e.items) {
        for (int i = 0; i < phaseCount; ++i) {
            if (!item.aliveIn(static_cast<Phase>(i)))
                continue;
            auto &ph = e.phases[i];
            // Validation and generation are moments of interest only where the framework has
            // them: an item of their own, not only the steady states that live everywhere.
            // The initialisation likewise, where an item lives in it alone.
            if (ph.phase == Phase::Initialisation) {
                if ((item.phases & allPhases) == 0)
                    ph.present = true;
            } else if (!(evaluationPhases & phaseBit(ph.phase)) ||
                       (item.phases & trainingPhases) == 0) {
                ph.present = true;
            }
            if (!item.outsideAllocator) {
                ph.allocated += item.bytes();
                ph.byComponent[static_cast<int>(item.component)] += item.bytes();
                if (item.streamPooled)
                    pooled[i] += item.bytes();
            }
        }
    }
    // Inference runs forward only: the training step's other moments do not happen.
    if (s.training.mode == Mode::Inference)
        for (auto &ph : e.phases)
            ph.present = ph.present && ph.phase == Phase::Forward;
    Phase peakPhase = Phase::Forward;
    double peakAllocated = -1;
    for (int i = 0; i < phaseCount; ++i) {
        const auto &ph = e.phases[i];
        if (ph.present && ph.allocated > peakAllocated) {
            peakAllocated = ph.allocated;
            peakPhase = ph.phase;
        }
    }
    e.peak.phase = peakPhase;
    e.peak.allocated = std::max(0.0, peakAllocated);

    e.perGpu.fill(0);
    for (const auto &item : e.items) {
        if (!item.aliveIn(peakPhase))
            continue;
        e.perGpu[static_cast<int>(item.component)] += item.bytes();
        if (item.outsideAllocator)
            outside += item.bytes();
    }

    // Blocks of a collective's stream stay reserved for it at the most it ever holds (from one
    // step to the next), whatever it holds in a phase.
    double pool = 0;
    for (const auto &ph : e.phases)
        if (ph.present)
            pool = std::max(pool, pooled[int(ph.phase)]);

    // Reserved never shrinks: its peak is the largest allocated-plus-slack over the phases,
    // and blocks freed by the loss stay cached from then on.
    double reserved = 0;
    for (const auto &ph : e.phases) {
        if (!ph.present)
            continue;
        const double idlePool = pool - pooled[int(ph.phase)];
        const double transient = ph.byComponent[int(Component::Activations)] +
                                 ph.byComponent[int(Component::LogitsAndLoss)] +
                                 ph.byComponent[int(Component::Temporary)];
        const bool afterLoss = ph.phase != Phase::Forward && ph.phase != Phase::Initialisation &&
                               !(evaluationPhases & phaseBit(ph.phase));
        reserved =
            std::max(reserved, ph.allocated + slackOfTransient * transient +
                                   slackOfAll * ph.allocated + (afterLoss ? fragmentedBytes : 0.0) +
                                   idlePool);
    }
    // A calibration's overhead moves the allocator slack (fitted to a reserved figure) or what
    // lies beside the allocator (fitted to nvidia-smi), never below zero.
    const Calibration &cal = s.calibration;
    const double slackOverhead =
        cal.present && cal.metric == MemoryMetric::Reserved ? cal.overheadBytes : 0.0;
    const double outsideOverhead =
        cal.present && cal.metric == MemoryMetric::Device ? cal.overheadBytes : 0.0;
    // A serving engine sizes its own pools (serving.h): no slack beyond them, and its NCCL
    // buffers are in its non-torch term.
    const bool engine = s.training.mode == Mode::Inference && s.serving.present;
    const double modelledSlack = engine ? 0.0 : std::max(0.0, reserved - e.peak.allocated);
    const double slack = std::max(0.0, modelledSlack + slackOverhead);
    const double context = cudaContextBytes(s.gpu.architecture);
    const double nccl = s.parallelism.gpus > 1 && !engine ? ncclBytes : 0.0;
    const double calibratedOutside = std::max(-(context + nccl), outsideOverhead);
    e.peak.reserved = e.peak.allocated + slack;
    e.peak.device = e.peak.reserved + context + nccl + calibratedOutside + outside;

    ItemSink sink(e);
    constexpr auto F = Component::Framework;
    sink.add(F, "caching allocator slack (reserved - allocated)",
             "8% of transient + 2% of allocated at the peak + freed 16-bit logits block",
             "measured pairs, see docs/accuracy.md", slack, 1, phaseBit(peakPhase));
    // A negative fit shrinks the modelled context (then NCCL); a positive one is its own item.
    const double contextShown = std::max(0.0, context + std::min(0.0, calibratedOutside));
    const double ncclShown = nccl + std::min(0.0, calibratedOutside) + (context - contextShown);
    sink.add(F, "CUDA context and kernels", "per architecture", "transformers perf docs; torch 2.x",
             contextShown, 1, allPhases, true);
    sink.add(F, "NCCL buffers", "communicators of a multi-GPU job", "NCCL_BUFFSIZE defaults",
             ncclShown, 1, allPhases, true);
    sink.add(F, "overhead fitted to your run (beside the allocator)",
             "measured nvidia-smi - modelled", "calibration", calibratedOutside, 1, allPhases, true);
    e.perGpu[static_cast<int>(F)] += slack + context + nccl + calibratedOutside;

    bool clamped = false;
    auto clamp = [&](double &v) {
        if (!std::isfinite(v) || v > maxReportable) {
            v = maxReportable;
            clamped = true;
        }
    };
    clamp(e.peak.allocated);
    clamp(e.peak.reserved);
    clamp(e.peak.device);
    for (auto &v : e.perGpu)
        clamp(v);

    e.calibrated = s.calibration.present;
    e.capacityBytes = std::max(0.0, s.gpu.memoryGiB) * GiB;
    e.headroomBytes = e.capacityBytes - e.peak.device;
    e.fits = e.headroomBytes >= 0;
    if (clamped)
        e.warnings.push_back({WarningCode::Clamped, maxReportable});
    if (!e.fits)
        e.warnings.push_back({WarningCode::DoesNotFit, -e.headroomBytes});
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
                   const WeightList &layer, const WeightList &dense, const WeightList &globals,
                   StageShared *shared)
{
    e.parameters = counts;
    e.pipelineStage = stage;
    const StageContext c = makeContext(s, stage, counts, layer, dense, globals, shared);
    ItemSink sink(e);
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
        c.full ? counts.total
               : loraParametersPerLayer(s.model, s.training.finetune, LayerKind::Moe) *
                         (s.model.isMoe() ? counts.moeLayers : 0) +
                     loraParametersPerLayer(s.model, s.training.finetune, LayerKind::Dense) *
                         (s.model.isMoe() ? counts.denseLayers : s.model.layers);
    finish(e, s, c.training ? freedLogitsBlockBytes(c) : 0.0);
}

} // namespace

std::string formulaWithNumbers(std::string_view formula, const FormulaSymbols &v)
{
    // Symbols are whole identifiers between operators: "b*s*h*c per layer" -> 1*4096*4096*2.
    auto value = [&](std::string_view name) -> std::optional<double> {
        static constexpr std::pair<std::string_view, double FormulaSymbols::*> table[] = {
            {"b", &FormulaSymbols::b}, {"s", &FormulaSymbols::s},   {"h", &FormulaSymbols::h},
            {"a", &FormulaSymbols::a}, {"kv", &FormulaSymbols::kv}, {"d", &FormulaSymbols::d},
            {"f", &FormulaSymbols::f}, {"V", &FormulaSymbols::V},   {"c", &FormulaSymbols::c},
            {"r", &FormulaSymbols::r}, {"E", &FormulaSymbols::E},   {"k", &FormulaSymbols::k}};
        for (const auto &[key, member] : table)
            if (key == name)
                return v.*member;
        return std::nullopt;
    };
    // Only the expression before any words ("per layer", "(HF ...)") is substituted.
    size_t end = 0;
    while (end < formula.size() &&
           (std::isalnum(static_cast<unsigned char>(formula[end])) ||
            std::string_view("*+-/^()._ ").find(formula[end]) != std::string_view::npos)) {
        // An operand followed by a space and then a word or a parenthesis starts the prose
        // ("c per layer", "c (HF repeats ...)"); within the expression a space sits next to an
        // operator ("2 * b * s * kv", "(1 + c)").
        if (formula[end] == ' ' && end > 0 && end + 1 < formula.size()) {
            size_t before = end;
            while (before > 0 && formula[before - 1] == ' ')
                --before;
            const char prev = before > 0 ? formula[before - 1] : '*';
            const char next = formula[end + 1];
            const bool operandBefore =
                std::isalnum(static_cast<unsigned char>(prev)) || prev == ')';
            if (operandBefore && (std::isalpha(static_cast<unsigned char>(next)) || next == '('))
                break;
        }
        ++end;
    }
    const std::string_view expression = formula.substr(0, end);
    std::string out;
    bool substituted = false;
    for (size_t i = 0; i < expression.size();) {
        if (std::isalpha(static_cast<unsigned char>(expression[i]))) {
            size_t j = i;
            while (j < expression.size() && std::isalnum(static_cast<unsigned char>(expression[j])))
                ++j;
            const auto name = expression.substr(i, j - i);
            if (const auto number = value(name)) {
                char text[32];
                std::snprintf(text, sizeof text, "%.10g", *number);
                out += text;
                substituted = true;
            } else {
                out += name;
            }
            i = j;
        } else {
            out += expression[i++];
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    if (!substituted)
        return std::string(formula);
    return std::string(formula) + " = " + out;
}

std::string_view componentKey(Component c)
{
    static constexpr std::string_view keys[] = {
        "parameters",      "gradients", "optimizer_states", "activations",
        "logits_and_loss", "temporary", "framework",        "kv_cache"};
    return keys[static_cast<int>(c)];
}

std::string_view componentLabel(Component c)
{
    static constexpr std::string_view labels[] = {
        "Parameters",      "Gradients", "Optimizer states", "Activations",
        "Logits and loss", "Temporary", "Framework",        "KV cache"};
    return labels[static_cast<int>(c)];
}

std::string_view phaseKey(Phase p)
{
    static constexpr std::string_view keys[] = {"forward",        "backward",   "backward",
                                                "backward",       "optimizer_step", "validation",
                                                "generation",     "initialisation"};
    return keys[static_cast<int>(p)];
}

std::string_view phaseLabel(Phase p)
{
    static constexpr std::string_view labels[] = {
        "end of forward",  "start of backward (loss)", "backward of the last layer",
        "end of backward", "optimizer step",           "validation pass",
        "text generation", "model load (initialisation)"};
    return labels[static_cast<int>(p)];
}

Estimate estimate(const Scenario &s)
{
    const WeightList layer = layerWeights(s.model);
    const WeightList globals = globalWeights(s.model);
    // A dense model's one layer kind serves as both lists; only MoE models build a second.
    const WeightList dense = s.model.isMoe() ? layerWeights(s.model, LayerKind::Dense) : layer;
    const ParameterCounts counts = countParameters(s.model, layer, dense, globals);
    Estimate best;
    StageShared shared;
    estimateStage(best, s, 0, counts, layer, dense, globals, &shared);
    best.firstStage = best.lastStage = best.peak;
    if (s.parallelism.pipelineParallel > 1) {
        // The first stage holds the most micro-batches in flight, the last the output layer
        // and the loss; report whichever peaks higher.
        Estimate last;
        estimateStage(last, s, int(s.parallelism.pipelineParallel - 1), counts, layer, dense,
                      globals, &shared);
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
