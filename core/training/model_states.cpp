// Weights, gradients, optimizer states and the temporaries that belong to them (SPEC §2 rows
// "parameters", "gradients", "optimizer states" and the weight-related "temporary" buffers).
// The totals come from each tensor's bytes (state_rules.h); the
// framework's buffers beside them are added after them (model_states.h).

#include "training/model_states.h"

#include <algorithm>

namespace vramplan {
namespace {

// One layer's weight, gradient and optimizer bytes on this GPU (sharded as the layout says).
LayerStateSums layerStateSums(const StageContext &c, const StatesSetup &k,
                              const WeightList &weights)
{
    LayerStateSums sums;
    sums.ready = true;
    const double tp = k.tp;
    const double dp = k.dp;
    const double dpExpert = std::max(1.0, dp / double(c.ep));
    const bool z1 = k.z1, z2 = k.z2, z3 = k.z3;
    const double wb = k.wb, gb = k.gb, mb = k.masterBytes;
    const StateBytes sb = k.sb;
    const bool master = k.master;
    const int64_t bits = c.t.finetune.baseWeightBits;
    const bool gradlessIndexer =
        c.m.indexer.heads > 0 && c.hfModelCode() && dp <= 1 && tp <= 1 && !z1 && !z2 && !z3;
    for (const auto &t : weights) {
        double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
        if (t.place == WeightPlace::Expert)
            n /= double(c.ep);
        sums.oneLayer += n;
        if (t.quantizable)
            sums.oneLayerLinear += n;
        const double shard = t.place == WeightPlace::Expert ? dpExpert : dp;
        const double paramDiv = z3 ? shard : 1.0;
        // transformers runs DeepSeek's lightning indexer under no_grad (DeepseekV32Indexer):
        // in one process without ZeRO its weights never get a .grad, so no optimizer state.
        if (c.full && gradlessIndexer && t.name.starts_with("indexer.")) {
            sums.paramsTrainable += n * wb / paramDiv;
            sums.trainable += n;
        } else if (c.full) {
            sums.paramsTrainable += n * wb / paramDiv;
            sums.trainable += n;
            const double ob = optimizerBytes(c.t.optimizer, sb, n, t.rows, t.cols, true);
            sums.optimizer += ob;
            sums.optimizerSharded += ob / (z1 ? shard : 1.0);
            sums.grads += n * gb / (z2 ? shard : 1.0);
            if (master)
                sums.master += n * mb / (z1 ? shard : 1.0);
        } else {
            // The frozen base: QLoRA quantises the linear layers; norms and router stay 16-bit.
            double bytes = 2;
            if (t.quantizable && bits == 4)
                bytes = nf4BytesPerWeight;
            else if (t.quantizable && bits == 8)
                bytes = 1.0 + 4.0 / 4096; // LLM.int8: int8 codes and fp32 row scales
            else if (bits >= 16)
                // AMP keeps the base in fp32, except Unsloth's (base16BitUnderAutocast).
                bytes = std::max(double(bits) / 8.0, base16BitUnderAutocast(c) ? 2.0 : wb);
            (t.quantizable && bits < 16 ? sums.frozenQuant : sums.frozenOther) +=
                n * bytes / paramDiv;
            if (t.quantizable && bits == 4)
                sums.largestQuantised = std::max(sums.largestQuantised, n);
        }
    }
    return sums;
}

// The stage's tensors, summed: its layers (each kind's sums computed once per estimate), the
// multi-token prediction modules, embeddings and heads, and LoRA adapters.
StateTotals sumModelStates(const StageContext &c, const StatesSetup &k)
{
    const double tp = k.tp;
    const double dp = k.dp;
    const bool z1 = k.z1, z2 = k.z2, z3 = k.z3;
    const auto fw = k.fw;
    const bool headQuantised = k.headQuantised;
    const double wb = k.wb, gb = k.gb, mb = k.masterBytes;
    const StateBytes sb = k.sb;
    const bool master = k.master;

    StateTotals totals;
    LocalSizes &size = totals.size;
    double optimizerElementsBytes = 0; // optimizer bytes before sharding
    double &trainable = totals.trainable;

    // --- per-layer tensors --------------------------------------------------------------
    double &frozenQuantBytes = totals.frozenQuantBytes, &frozenOtherBytes = totals.frozenOtherBytes;
    double &largestQuantised = totals.largestQuantised;
    double &optimizerSharded = totals.optimizerSharded, &gradsSharded = totals.gradsSharded;
    double &masterSharded = totals.masterSharded, &paramsTrainable = totals.paramsTrainable;
    for (const auto &group : c.layerGroups()) {
        const double L = group.count;
        if (!(L > 0))
            continue;
        LayerStateSums &sums = c.shared->states[group.slot];
        if (!sums.ready)
            sums = layerStateSums(c, k, *group.weights);
        const double oneLayer = sums.oneLayer, oneLayerLinear = sums.oneLayerLinear;
        paramsTrainable += sums.paramsTrainable * L;
        trainable += sums.trainable * L;
        optimizerElementsBytes += sums.optimizer * L;
        optimizerSharded += sums.optimizerSharded * L;
        gradsSharded += sums.grads * L;
        masterSharded += sums.master * L;
        frozenQuantBytes += sums.frozenQuant * L;
        frozenOtherBytes += sums.frozenOther * L;
        largestQuantised = std::max(largestQuantised, sums.largestQuantised);
        // The largest layer decides what one gathered layer costs (a MoE layer in a MoE model).
        if (oneLayer > size.oneLayer) {
            size.oneLayer = oneLayer;
            size.oneLayerLinear = oneLayerLinear;
        }
        size.all += oneLayer * L;
        size.linear += oneLayerLinear * L;
    }

    // --- multi-token prediction modules (last stage) ------------------------------------
    // Each is one more decoder layer of the last layer's kind, plus enorm, hnorm, eh_proj
    // (2h -> h) and its output norm; it shares the embedding and the output head (DeepSeek-V3
    // §2.2; megatron/core/transformer/multi_token_prediction.py). Trained like the layers.
    if (c.hasHead && c.t.mtpLayers > 0 && c.full) {
        // The group of the module's layer kind holds its tensors and sums (mtpGroup).
        const StageContext::LayerGroup *group = &c.layerGroups()[size_t(mtpGroup(c))];
        const WeightList &weights = *group->weights;
        LayerStateSums &sums = c.shared->states[group->slot];
        if (!sums.ready)
            sums = layerStateSums(c, k, weights);
        const double h = double(c.m.hiddenSize);
        const double extra = (2 * h * h / tp + 4 * h); // eh_proj, enorm, hnorm, final norm
        const double n = double(c.t.mtpLayers);
        const double perElement = sums.trainable > 0 ? 1.0 / sums.trainable : 0.0;
        // The extras take the layer's average bytes per element (dense, not sharded by EP).
        const double scale = n * (1.0 + extra * perElement);
        paramsTrainable += sums.paramsTrainable * scale;
        trainable += (sums.trainable + extra) * n;
        optimizerElementsBytes += sums.optimizer * scale;
        optimizerSharded += sums.optimizerSharded * scale;
        gradsSharded += sums.grads * scale;
        masterSharded += sums.master * scale;
        size.all += (sums.oneLayer + extra) * n;
    }

    // A trained tensor outside the layers (embeddings and heads, a trained vision tower, a
    // generic model's extra tensors): its weight, gradient, optimizer states and master copy,
    // sharded over the data-parallel group as the ZeRO stage says.
    const auto addTrained = [&](double n, int64_t rows, int64_t cols) {
        paramsTrainable += n * wb / (z3 ? dp : 1.0);
        trainable += n;
        const double ob = optimizerBytes(c.t.optimizer, sb, n, rows, cols, false);
        optimizerElementsBytes += ob;
        optimizerSharded += ob / (z1 ? dp : 1.0);
        gradsSharded += n * gb / (z2 ? dp : 1.0);
        if (master)
            masterSharded += n * mb / (z1 ? dp : 1.0);
    };

    // --- embeddings, final norm, heads ----------------------------------------------------
    for (const auto &t : c.globals) {
        // The last stage keeps its own copy of the token embedding when it ties the head to it
        // or runs the multi-token prediction modules (which embed the shifted tokens).
        const bool embeddingCopy = c.hasHead && c.pp > 1 && t.name == "embed_tokens.weight" &&
                                   (c.m.tiedEmbeddings || c.t.mtpLayers > 0);
        const bool onStage = t.place == WeightPlace::Embedding ? (c.hasEmbedding || embeddingCopy)
                                                               : c.hasHead;
        if (!onStage)
            continue;
        const double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
        size.root += n;
        if (t.place == WeightPlace::Embedding)
            size.rootEmbedding += n;
        if (c.full) {
            addTrained(n, t.rows, t.cols);
        } else if (headQuantised && t.name == "lm_head.weight") {
            frozenQuantBytes += n * nf4BytesPerWeight / (z3 ? dp : 1.0);
            largestQuantised = std::max(largestQuantised, n);
        } else {
            const double frozen16 = base16BitUnderAutocast(c) ? 2.0 : wb;
            const double bytes = c.t.finetune.baseWeightBits >= 16
                                     ? std::max(double(c.t.finetune.baseWeightBits) / 8.0, frozen16)
                                     : (c.fp32 || (c.amp && frozen16 > 2) ? 4.0 : 2.0);
            frozenOtherBytes += n * bytes / (z3 ? dp : 1.0);
        }
    }
    size.all += size.root;

    // --- the vision tower (first stage) ---------------------------------------------------
    // Loaded with the checkpoint whatever is trained: frozen in the weights' dtype (no
    // gradients or states) unless training.vision.train_tower trains it with the model.
    if (c.vision) {
        const bool trained = c.full && c.t.vision.trainTower;
        for (const auto &t : *c.vision) {
            const double n = double(t.elements());
            size.all += n;
            if (trained) {
                addTrained(n, t.rows, t.cols);
            } else {
                totals.visionFrozenBytes += n * (c.fp32 || c.amp ? 4.0 : 2.0) / (z3 ? dp : 1.0);
            }
        }
    }

    // --- a generic model's checkpoint tensors beyond its modelled layers (first stage) ---
    // Trained like the layers in a full fine-tune, frozen in 16 bits under LoRA.
    if (c.extraParameters > 0) {
        const double n = c.extraParameters;
        size.all += n;
        if (c.full) {
            addTrained(n, 1, 1);
        } else {
            frozenOtherBytes += n * (c.fp32 || c.amp ? 4.0 : 2.0) / (z3 ? dp : 1.0);
        }
    }

    // --- LoRA adapters ----------------------------------------------------------------------
    double &adapterParamBytes = totals.adapterParamBytes;
    double &adapterGradBytes = totals.adapterGradBytes;
    double &adapterStateBytes = totals.adapterStateBytes;
    if (c.lora) {
        // PEFT upcasts adapters to fp32 (autocast_adapter_dtype=True); LitGPT and torchtune
        // keep them in the model's dtype.
        const bool peft =
            fw == Framework::Transformers || fw == Framework::Deepspeed || fw == Framework::Pytorch;
        const double ab = peft ? 4.0 : wb;
        const StateBytes asb = peft ? stateBytes(c, 4.0) : sb;
        double n = 0;
        for (const auto &group : c.layerGroups())
            if (group.count > 0)
                n += double(loraParametersPerLayer(c.m, c.t.finetune, group.spec)) / tp *
                     group.count;
        trainable = n;
        adapterParamBytes = n * ab / (z3 ? dp : 1.0);
        adapterGradBytes = n * ab / (z2 ? dp : 1.0);
        const int64_t r = c.t.finetune.loraRank;
        const double ob =
            optimizerBytes(c.t.optimizer, asb, n, r, std::max<int64_t>(2, c.m.hiddenSize), true);
        optimizerElementsBytes = ob;
        adapterStateBytes = ob / (z1 ? dp : 1.0);
        if (mixedMaster(c.t.precision) && !peft && fw != Framework::Torchtitan)
            adapterStateBytes += n * 4 / (z1 ? dp : 1.0);
    }
    (void)optimizerElementsBytes;
    return totals;
}

} // namespace

StatesSetup statesSetup(const StageContext &c)
{
    StatesSetup k;
    k.tp = double(c.tp);
    k.dp = c.shardGroup();
    k.z1 = c.p.zeroStage >= 1;
    k.z2 = c.p.zeroStage >= 2;
    k.z3 = c.p.zeroStage >= 3;
    k.offloadStates = c.p.offloadOptimizer != Offload::None;
    k.offloadParams = k.z3 && c.p.offloadParameters != Offload::None;
    k.fw = c.s.framework;
    k.headQuantised = c.qlora && k.fw == Framework::Litgpt;
    k.wb = weightBytes(c);
    k.gb = gradientBytes(c);
    k.sb = stateBytes(c);
    k.master = mixedMaster(c.t.precision) && !fsdpFp32Shards(c);
    // training.optimizer_precision.master_weights: Megatron's --main-params-dtype, DeepSpeed's
    // bf16_master_weights_and_grads; "none" steps the 16-bit weights themselves. Where the
    // weights are fp32 already (fp32, AMP, FSDP's fp32 shards) there is no copy to make.
    switch (c.t.optimizerPrecision.masterWeights) {
    case MasterDtype::Auto:
        break;
    case MasterDtype::Fp32:
        k.master = k.master || c.t.precision == Precision::Bf16;
        break;
    case MasterDtype::Bf16:
    case MasterDtype::Fp16:
        k.masterBytes = 2;
        break;
    case MasterDtype::None:
        k.master = false;
        break;
    }
    k.paged = pagedOptimizer(c.t.optimizer);
    k.computeWeightBytes = c.fp32 ? 4.0 : 2.0;
    k.fabricUnsharded = k.fw == Framework::Litgpt && k.z3 && c.dp > 1;
    k.ppUnsharded = k.fw == Framework::Torchtitan && k.z3 && c.pp > 1 && c.full;
    return k;
}

void addModelStates(const StageContext &c, ItemSink &out)
{
    const StatesSetup k = statesSetup(c);
    const StateTotals totals = sumModelStates(c, k);
    const double tp = k.tp;
    const bool z1 = k.z1, z3 = k.z3;
    const bool offloadStates = k.offloadStates, offloadParams = k.offloadParams;
    const auto fw = k.fw;
    const double gb = k.gb;
    const bool master = k.master, paged = k.paged;
    const double paramsTrainable = totals.paramsTrainable;
    const double frozenQuantBytes = totals.frozenQuantBytes;
    const double frozenOtherBytes = totals.frozenOtherBytes;
    const double adapterParamBytes = totals.adapterParamBytes;
    const double adapterGradBytes = totals.adapterGradBytes;
    const double adapterStateBytes = totals.adapterStateBytes;
    const double gradsSharded = totals.gradsSharded;
    const double optimizerSharded = totals.optimizerSharded;
    const double masterSharded = totals.masterSharded;

    // Gradients exist from backward to the optimizer step (zero_grad(set_to_none=True) frees
    // them); with accumulation they also live through the next micro-batches' forward.
    // DeepSpeed ZeRO-3 allocates its flat buffer of gradient partitions (model dtype x
    // parameters / data-parallel ranks) at initialisation and keeps it through every step
    // (deepspeed/runtime/zero/stage3.py, grad_partitions_flat_buffer), like Megatron's main_grad.
    const bool persistentGrads =
        fw == Framework::Megatron || (fw == Framework::Deepspeed && c.p.zeroStage >= 3);
    const unsigned gradLife = persistentGrads                     ? steadyPhases
                              : c.t.gradientAccumulationSteps > 1 ? trainingPhases
                                                                  : gradientPhases;

    // --- emit ---------------------------------------------------------------------------
    constexpr auto P = Component::Parameters;
    constexpr auto G = Component::Gradients;
    constexpr auto O = Component::OptimizerStates;
    const double paramScale = offloadParams ? 0.0 : 1.0;
    // The weights are on the GPU from the model load on (Phase::Initialisation).
    constexpr unsigned loaded = steadyPhases | initialisationPhase;
    out.add(P, "vision tower and projector (frozen)", "tower elements * bytes per weight / shards",
            "transformers vision towers (vision_config); training.vision.train_tower",
            totals.visionFrozenBytes * paramScale, 1, loaded);
    if (c.full) {
        out.add(P, "weights", "trainable elements * bytes per weight / shards", "SPEC §2 recipes",
                paramsTrainable * paramScale, 1, loaded);
    } else {
        out.add(P, "frozen base linear weights (quantised)",
                "elements * (0.5 + 1/64 + 4/16384) bytes (NF4, double quantisation)",
                "Dettmers et al. 2023, QLoRA §3", frozenQuantBytes * paramScale, 1, loaded);
        out.add(P, "frozen base weights", "elements * bytes per weight / shards", "SPEC §2 LoRA",
                frozenOtherBytes * paramScale, 1, loaded);
        out.add(P, "LoRA adapters", "rank * (in + out) per target matrix * bytes",
                "Hu et al. 2021 §4; PEFT LoraLayer", adapterParamBytes, 1, loaded);
    }

    const bool gradsOffloaded =
        offloadParams || (offloadStates && fw == Framework::Deepspeed && z1);
    double grads = (c.full ? gradsSharded : adapterGradBytes) * (gradsOffloaded ? 0.0 : 1.0);
    if (c.optimizerInBackward) {
        double largestTensor = 0; // elements of the largest local weight
        for (const auto &group : c.layerGroups())
            for (const auto &t : *group.weights)
                largestTensor = std::max(largestTensor, double(t.rows) * double(t.cols) /
                                                            (t.tensorParallel ? tp : 1.0));
        for (const auto &t : c.globals)
            largestTensor =
                std::max(largestTensor, double(t.elements()) / (t.tensorParallel ? tp : 1.0));
        // Each parameter is stepped, and its gradient freed, as soon as backward produces it
        // (torchtune optimizer_in_bwd): one tensor's gradient at a time.
        grads = std::min(grads, largestTensor * gb);
        out.add(G, "gradient of one tensor (optimizer in backward)", "largest tensor * bytes",
                "torchtune optimizer_in_bwd", grads, 1,
                phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
        grads = 0;
    }
    out.add(G,
            fw == Framework::Megatron && gb == 4 ? "main_grad buffer (fp32, persistent)"
            : fw == Framework::Deepspeed && c.p.zeroStage >= 3
                ? "gradient partitions (flat buffer, persistent)"
                : "gradients",
            "trainable elements * bytes per gradient / shards (from ZeRO-2)",
            fw == Framework::Megatron ? "Megatron distributed/param_and_grad_buffer.py"
                                      : "torch autograd .grad",
            grads, 1, gradLife);
    // DDP's reducer keeps flat buckets beside .grad unless gradient_as_bucket_view=True
    // (torch/nn/parallel/distributed.py).
    const bool ddp = c.dp > 1 && c.p.zeroStage == 0 &&
                     (fw == Framework::Transformers || fw == Framework::Pytorch ||
                      fw == Framework::Litgpt || fw == Framework::Torchtune);
    if (ddp)
        out.add(G, "DDP gradient buckets", "a second copy of the gradients",
                "torch DistributedDataParallel reducer", grads, 1, steadyPhases);

    if (!offloadStates) {
        const double states = c.full ? optimizerSharded : adapterStateBytes;
        out.add(O, paged ? "optimizer states (paged, unified memory)" : "optimizer states",
                "per trainable element: Adam 2 states, SGD+momentum/Lion/Muon 1, 8-bit ~2 B, "
                "Adafactor rows+cols / shards (from ZeRO-1)",
                "SPEC §2 optimizer states", states, 1, steadyPhases, paged);
        if (c.full && master)
            out.add(O, k.masterBytes == 4 ? "fp32 master weights" : "16-bit master weights",
                    k.masterBytes == 4 ? "trainable elements * 4 / shards (from ZeRO-1)"
                                       : "trainable elements * 2 / shards (from ZeRO-1)",
                    k.masterBytes == 4 ? "Micikevicius et al. 2018 §3.1"
                                       : "training.optimizer_precision.master_weights",
                    masterSharded, 1, steadyPhases);
    }

    // --- temporaries tied to the weights ----------------------------------------------------
    if (fw == Framework::Deepspeed && ((z3 && c.dp > 1) || offloadParams))
        addDeepspeedZero3Buffers(c, k, totals, out);
    else if (((z3 && c.dp > 1) || offloadParams) && !k.fabricUnsharded && !k.ppUnsharded)
        addFsdpBuffers(c, k, totals, out);
    addWeightCopies(c, k, totals, out);
    if (fw == Framework::Deepspeed && c.p.zeroStage >= 1 && c.p.zeroStage <= 2 && c.dp > 1)
        addDeepspeedReduceBucket(c, k, totals, out);
    addUnshardedCopies(c, k, totals, out);
    addOptimizerStepBuffers(c, k, totals, out);
    addProcessBuffers(c, out);
}

} // namespace vramplan
