// Activations as an inventory of the tensors one layer saves for backward, and the working set
// of backward (SPEC §2, "activations"): here the parts of a layer put together, the stage's
// layers under recomputation, and what a linear layer or LoRA adapter keeps; the parts are
// built in layer_inventory.cpp from norm_activations.cpp, attention_activations.cpp,
// mixer_activations.cpp and mlp_activations.cpp; logits and loss in logits_loss.cpp.
//
// Base inventory: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
// Transformer Models", §4.1 and Table 2: per layer 34sbh + 5as^2b bytes for a GPT layer in
// fp16 with dropout (attention 11sbh + 5as^2b, MLP 19sbh, two LayerNorms 4sbh). The eager
// PyTorch model code of transformers/LitGPT/torchtune/torchtitan differs in ways named where
// each part is counted.

#include "training/activation_dims.h"
#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {

bool hasResidualDropout(Family f)
{
    // Llama-family blocks have no dropout modules (attention_dropout only); these do.
    return f == Family::Gpt2 || f == Family::Bert || f == Family::Phi || f == Family::GptNeox ||
           f == Family::Falcon;
}

// Whether a linear layer keeps its input for backward: it needs it for its own weight's
// gradient, for a LoRA adapter without dropout, or because bitsandbytes' 4-bit matmul saves it
// (bitsandbytes/autograd/_functions.py MatMul4Bit). A frozen nn.Linear saves no input.
bool linearSavesInput(const StageContext &c, std::string_view loraName)
{
    if (c.full || c.qlora)
        return true;
    return isLoraTarget(c.t.finetune, loraName) && c.t.finetune.loraDropout == 0.0 &&
           !peftCastsInputToFp32(c);
}

// PEFT (>= 0.12) keeps adapters in fp32 on a 16-bit base and LoraLayer casts each input to
// their dtype (tuners_utils.py _cast_input_dtype): without dropout lora_A saves that fp32 copy
// rather than the 16-bit input (measured on an H200 with PEFT 0.21, tests/data/measured/gpu).
// Under autocast the copy is not what lora_A saves (it casts again), so that case is left alone.
bool peftCastsInputToFp32(const StageContext &c)
{
    // Only where the scenario says the adapters are fp32: the published PEFT runs this
    // estimator was calibrated on do not show the copy (their loops' autocast casts again).
    // Unsloth runs its own LoRA kernels (fast_lora), not PEFT's forward.
    return c.lora && c.t.finetune.loraAdapterDtype == LoraAdapterDtype::Fp32 &&
           c.hfModelCode() && c.s.framework != Framework::Unsloth && !c.amp && c.act < 4;
}

void addLora(const StageContext &c, const Dims &d, Inventory &inv, std::string_view target,
             double inWidth, bool outside, double perToken)
{
    if (!c.lora || !isLoraTarget(c.t.finetune, target))
        return;
    const double div = outside ? d.outsideDiv : 1.0;
    if (c.t.finetune.loraDropout > 0) {
        // PEFT applies a separate nn.Dropout per adapted module: mask and output per target.
        // Its adapters are fp32 (get_peft_model(autocast_adapter_dtype=True), PEFT >= 0.12) and
        // LoraLayer casts the input to their dtype first, so the dropout keeps an fp32 output.
        // Under autocast lora_A's matmul keeps its own 16-bit cast of that output instead.
        if (c.hfModelCode() && c.amp)
            inv.push_back({"LoRA dropout mask and 16-bit cast of its output (PEFT, autocast)",
                           "b*s*in*(1 + c) per target",
                           d.tokens * perToken * inWidth * (1 + d.c) / div});
        else if (c.hfModelCode())
            inv.push_back({"LoRA dropout mask and fp32 output (PEFT)", "b*s*in*(1 + 4) per target",
                           d.tokens * perToken * inWidth * (1 + 4) / div});
        else
            inv.push_back({"LoRA dropout mask and output", "b*s*in*(1 + c) per target",
                           d.tokens * perToken * inWidth * (1 + d.c) / div});
    }
    else if (peftCastsInputToFp32(c))
        inv.push_back({"LoRA fp32 input copy (PEFT, saved by A)", "b*s*in*4 per target",
                       d.tokens * perToken * inWidth * 4 / div});
    inv.push_back({"LoRA A output (saved by B)", "b*s*r*c per target",
                   d.tokens * perToken * double(c.t.finetune.loraRank) * d.c / d.tp});
}


void addActivations(const StageContext &c, ItemSink &out)
{
    const double b = c.microBatch;
    const double s = double(c.t.sequenceLength);
    const double tp = double(c.tp);
    Dims d{};
    d.tokens = c.tokens;
    d.scores = b * double(c.m.attentionHeads) / tp * (s / double(c.cp)) * s;
    d.tp = tp;
    d.outsideDiv = c.p.sequenceParallel ? tp : 1.0;
    d.h = double(c.m.hiddenSize);
    d.qWidth = double(c.m.attentionHeads * c.m.headDim) / tp;
    d.kvWidth = double(c.m.kvHeads * c.m.headDim) / tp;
    // HF, LitGPT, torchtune and torchtitan expand K and V to every query head before sdpa;
    // transformers' flash_attention_2 and Megatron's kernels take grouped heads.
    // Compiled, the repeat is an elementwise copy Inductor recomputes from the grouped K/V.
    const bool repeatKv =
        c.eagerModelCode() && !c.compiled &&
        !(c.t.attention == Attention::Flash &&
          (c.s.framework == Framework::Transformers || c.s.framework == Framework::Deepspeed)) &&
        !(sdpaWithGroupedHeads(c) && !sdpaMathPath(c));
    d.kvSavedWidth = repeatKv ? d.qWidth : std::max(d.kvWidth, double(c.m.headDim));
    d.ffn = double(c.m.isMoe() && c.m.moe.expertFfnHiddenSize > 0 ? c.m.moe.expertFfnHiddenSize
                                                                  : c.m.ffnHiddenSize) /
            tp;
    d.denseFfn = double(c.m.ffnHiddenSize) / tp;
    d.sharedFfn = double(std::max<int64_t>(1, c.m.moe.sharedExperts) *
                         (c.m.moe.sharedExpertFfnHiddenSize > 0 ? c.m.moe.sharedExpertFfnHiddenSize
                          : c.m.moe.expertFfnHiddenSize > 0  ? c.m.moe.expertFfnHiddenSize
                                                             : c.m.ffnHiddenSize)) /
                  tp;
    d.c = c.act;
    const bool upcastNorm = c.m.norm == NormType::RmsNorm && c.eagerModelCode() &&
                            !c.compiled && !c.fusedKernels;
    d.normIn = (upcastNorm || c.amp || c.fp32) ? 4.0 : c.act;

    constexpr auto A = Component::Activations;
    constexpr unsigned savedPhases =
        phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) | phaseBit(Phase::LayerBackward);
    constexpr unsigned backwardPhases =
        phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd);

    // The inventory by part: the mixer part of each mixer kind on this stage (norm, attention or
    // another mixer) and the MLP part of each MLP kind (a MoE model's dense layers differ only
    // there). The stages of one estimate build each part once (StageShared); each is emitted
    // once, with the stage's layers of its kind.
    const auto &groups = c.layerGroups();
    StageShared &cache = *c.shared;
    struct Part
    {
        const Inventory *inventory;
        double layers;
        std::string_view source;
        double total; // one layer's bytes of the part
        double kept;  // of those, what the stage keeps (without recomputed tensors)
    };
    StaticVector<Part, 16> parts;
    int mixerPartOf[8] = {}, mlpPartOf[8] = {};
    const auto partFor = [&](const Inventory *inventory, std::string_view source) {
        for (size_t i = 0; i < parts.size(); ++i)
            if (parts[i].inventory == inventory)
                return int(i);
        parts.push_back({inventory, 0, source, 0, 0});
        return int(parts.size() - 1);
    };
    static const Inventory none = Inventory(); // once per process
    for (int pass = 0; pass < 2; ++pass) {
        for (size_t g = 0; g < groups.size(); ++g) {
            const auto &group = groups[g];
            if (pass == 0) {
                const int mixer = int(group.spec.mixer);
                if (group.count > 0 && !cache.mixerReady[mixer]) {
                    layerInventory(c, d, group.spec, LayerPart::Mixer, cache.mixer[mixer]);
                    cache.mixerReady[mixer] = true;
                }
                mixerPartOf[g] = partFor(&cache.mixer[mixer], mixerSource(group.spec.mixer));
            } else {
                const int key = mlpPart(group.spec.mlp, group.spec.mixer);
                if (group.count > 0 && !cache.mlpReady[key]) {
                    layerInventory(c, d, group.spec, LayerPart::Mlp, cache.mlp[key]);
                    cache.mlpReady[key] = true;
                }
                const bool denseOfMoe = group.spec.mlp == LayerMlp::Dense && c.m.isMoe();
                mlpPartOf[g] =
                    group.count > 0
                        ? partFor(&cache.mlp[key],
                                  denseOfMoe ? "per-layer saved-tensor inventory (dense-MLP layers)"
                                             : "per-layer saved-tensor inventory")
                        : partFor(&none, "per-layer saved-tensor inventory");
            }
        }
    }
    for (size_t g = 0; g < groups.size(); ++g) {
        parts[size_t(mixerPartOf[g])].layers += groups[g].count;
        parts[size_t(mlpPartOf[g])].layers += groups[g].count;
    }
    for (auto &part : parts)
        for (const auto &e : *part.inventory)
            part.total += e.bytes;
    // One layer of each group: its mixer part and its MLP part.
    const auto layerTotalOf = [&](size_t g) {
        return parts[size_t(mixerPartOf[g])].total + parts[size_t(mlpPartOf[g])].total;
    };
    double layerTotal = 0;
    for (size_t g = 0; g < groups.size(); ++g)
        if (groups[g].count > 0)
            layerTotal = std::max(layerTotal, layerTotalOf(g));
    // The group of the stage's first layer: DeepSeek's first stage starts with dense layers.
    size_t firstKind = 0;
    if (!c.m.hasLayerPlan()) {
        firstKind = c.stage == 0 && groups[1].count > 0 ? 1 : (groups[0].count > 0 ? 0 : 1);
    } else {
        const int64_t from = std::min(int64_t(c.stage) * c.stageLayers, c.m.layers - c.stageLayers);
        const LayerSpec first = c.m.layerSpec(from);
        for (size_t g = groups.size(); g-- > 0;)
            if (groups[g].spec == first)
                firstKind = g;
    }

    // How many layers keep everything, and how many keep only their input (full recompute).
    // Recomputation of N layers takes each kind in proportion.
    const double L = double(c.stageLayers);
    double recomputed = 0;
    if (c.t.recompute == Recompute::Full)
        recomputed = c.t.recomputeLayers >= 0 ? std::min(L, double(c.t.recomputeLayers)) : L;
    const double keptShare = L > 0 ? (L - recomputed) / L : 0.0;
    const double kept = (L - recomputed) * c.inFlight;
    const bool selective = c.t.recompute == Recompute::Selective;
    const bool sac = selective && c.s.framework == Framework::Torchtitan;
    if (sac && kept > 0) {
        // torchtitan's per-op SAC (parallelize_llama.py _save_list): the block input, the
        // attention kernel's outputs and every other matmul output (wq, wv, w1, w2) are kept;
        // wk, wo, w3 and the elementwise ops are recomputed.
        const double sacBytes =
            d.tokens * d.c * (d.h / d.outsideDiv + d.kvWidth + d.h / d.outsideDiv);
        out.add(A, "SAC-kept block input, v and w2 outputs", "b*s*(2h + kv*d)*c",
                "torchtitan selective op AC", sacBytes, kept, savedPhases);
    }

    // Layers of each part's kind that keep their tensors on this stage.
    const auto keptByLayer = [&](const Saved &e) {
        // Megatron selective recompute drops the attention core; SAC recomputes what is not
        // kept from the kept matmul and attention outputs.
        return !(selective && !sac && e.score) && !(sac && !e.keptBySac);
    };
    for (auto &part : parts)
        if (part.layers * keptShare * c.inFlight > 0 && kept > 0)
            for (const auto &e : *part.inventory)
                part.kept += keptByLayer(e) ? e.bytes : 0.0;
    bool mambaHere = false;
    for (const auto &group : groups)
        mambaHere = mambaHere || (group.count > 0 && (group.spec.mixer == Mixer::Mamba ||
                                                      group.spec.mixer == Mixer::AttentionAndMamba));
    const bool mambaTorch = mambaHere && c.t.linearKernels == LinearKernels::Torch;
    // With the torch Mamba2 scan the backward peaks inside a Mamba2 layer (below): the layers
    // whose backward has run have freed what they saved, so the per-layer items live until
    // backward starts and one item holds what is left at that layer (mixer_activations.cpp).
    MambaScanMoment scan;
    if (mambaTorch) {
        std::array<double, 8> mixerSaved{}, mlpSaved{};
        for (size_t g = 0; g < groups.size(); ++g) {
            mixerSaved[g] = parts[size_t(mixerPartOf[g])].kept;
            mlpSaved[g] = parts[size_t(mlpPartOf[g])].kept;
        }
        scan = mambaScanMoment(c, mixerSaved, mlpSaved);
    }
    const bool scanPeak = mambaTorch && recomputed == 0 && kept > 0;
    const unsigned layerSavedPhases =
        scanPeak ? savedPhases & ~phaseBit(Phase::LayerBackward) : savedPhases;
    for (auto &part : parts) {
        const double count = part.layers * keptShare * c.inFlight;
        if (!(count > 0) || !(kept > 0))
            continue;
        for (const auto &e : *part.inventory)
            if (keptByLayer(e))
                out.add(A, e.name, e.formula, part.source, e.bytes, count, layerSavedPhases);
    }
    if (scanPeak) {
        // Other micro-batches in flight (pipeline schedules) keep all they saved.
        double all = 0;
        for (const auto &part : parts)
            all += part.kept * part.layers;
        out.add(A, "saved tensors left when a Mamba2 layer's scan runs its backward",
                "layers before it + its mixer (+ other micro-batches in flight: all)",
                "backward order; measured on an H200", scan.saved + all * (c.inFlight - 1), 1,
                phaseBit(Phase::LayerBackward));
    }
    // What one layer of the stage's first kind keeps: its mixer part's and its MLP part's.
    const double mixerFirst = parts[size_t(mixerPartOf[firstKind])].kept;
    const double keptFirst = mixerFirst + parts[size_t(mlpPartOf[firstKind])].kept;
    if (recomputed == 0 && kept > 0)
        // At the end of backward the first layer still holds what it saved, until its own
        // backward has consumed it (DeepSeek's first layers are dense), less the gradients not
        // made by then (layer_inventory.cpp).
        out.add(A, "first layer's saved tensors (consumed last)",
                "one layer's inventory less its and an untied embedding's gradients, not yet made",
                "autograd", firstLayerLeftAtEnd(c, firstKind, keptFirst, mixerFirst), 1,
                phaseBit(Phase::BackwardEnd));
    if (recomputed > 0) {
        // torch.utils.checkpoint / Megatron recompute keep each layer's input (Korthikanti
        // §4.2: 2sbh per layer) and rebuild one layer's activations inside its backward.
        // Under autocast the residual stream between layers stays fp32 (fp32 weights and
        // embeddings), so the checkpoint keeps an fp32 input.
        const double residualBytes = c.amp ? 4.0 : d.c;
        if (c.offloadedCheckpoints)
            // Unsloth copies each checkpointed input to pinned host memory in forward and back
            // one layer ahead in backward: two layers' inputs on the GPU at a time.
            out.add(A, "checkpointed layer inputs in flight (rest offloaded to the host)",
                    "2 * b*s*h*(residual bytes)",
                    "unsloth_zoo gradient_checkpointing.py (offloaded checkpointing)",
                    d.tokens * d.h * residualBytes / d.outsideDiv,
                    std::min(2.0, recomputed * c.inFlight), savedPhases);
        else
            out.add(A, "checkpointed layer inputs", "b*s*h*(residual bytes) per layer",
                    "Korthikanti et al. §4.2", d.tokens * d.h * residualBytes / d.outsideDiv,
                    recomputed * c.inFlight, savedPhases);
        // Partial recomputation checkpoints the first layers (Megatron's "block" method), whose
        // backward comes last, when the kept layers' activations are already gone. The last
        // layer recomputed is the stage's first (a dense one of DeepSeek's first stage).
        const double firstLayerTotal = layerTotalOf(firstKind);
        if (recomputed >= L)
            out.add(A, "one layer recomputed during its backward", "the layer's full inventory",
                    "torch.utils.checkpoint", layerTotal, 1, phaseBit(Phase::LayerBackward));
        out.add(A, "first layer recomputed during its backward",
                "the layer's full inventory less its and an untied embedding's gradients",
                "torch.utils.checkpoint",
                firstLayerLeftAtEnd(c, firstKind, firstLayerTotal,
                                    parts[size_t(mixerPartOf[firstKind])].total),
                1, phaseBit(Phase::BackwardEnd));
    }
    if (c.hasEmbedding && c.t.dropout > 0 && hasResidualDropout(c.m.family))
        out.add(A, "embedding dropout mask", "b*s*h*1", "nn.Dropout", d.tokens * d.h / d.outsideDiv,
                c.inFlight, savedPhases);
    if (c.t.attention == Attention::Eager && c.eagerModelCode() && c.m.family != Family::Gpt2 &&
        c.m.family != Family::Bert)
        // transformers builds one 4-D causal mask in the compute dtype for eager attention.
        out.add(A, "4-D causal mask (eager)", "b*s^2*c", "transformers modeling_attn_mask_utils",
                b * s * s / double(c.cp) * d.c, 1, savedPhases);
    if (c.t.attention == Attention::Sdpa && c.hfModelCode() && !sdpaMathPath(c) &&
        c.m.slidingWindow > 0 && s > double(c.m.slidingWindow) && c.m.layers > 0)
        // A sliding-window layer longer than its window cannot skip its mask: transformers hands
        // SDPA a boolean b x 1 x s x s mask (masking_utils sdpa_mask), torch converts it to an
        // additive mask in the query's dtype in every call (convert_boolean_attn_mask), and the
        // efficient and cuDNN kernels keep that bias for backward: one per sliding layer kept.
        out.add(A, "sliding-window mask kept by SDPA (one per sliding layer)", "b*s^2*c per layer",
                "torch scaled_dot_product_attention; transformers masking_utils",
                b * s * s / double(c.cp) * d.c,
                double(c.m.slidingLayers) * double(c.stageLayers) / double(c.m.layers) *
                    keptShare * c.inFlight,
                savedPhases);

    // The backward working set: gradients flowing through one layer (its intermediate and
    // hidden-size gradients), and for eager attention the s^2 gradient of the probabilities.
    double working = d.tokens *
                     (2 * d.ffn * (c.m.isMoe() ? double(c.m.moe.expertsPerToken) : 1.0) + 3 * d.h) *
                     d.c;
    if (c.t.attention == Attention::Eager)
        working += d.scores * (d.c + 4);
    else if (sdpaMathPath(c))
        working += d.scores * 2 * d.c; // gradients of the probabilities and of the scores
    out.add(Component::Temporary, "backward working set of one layer",
            "b*s*(2f + 3h)*c (+ b*a*s^2*(c+4) eager, 2c SDPA math path)", "autograd", working, 1,
            backwardPhases);
    if (c.m.isMoe() && c.ep > 1 && c.mainLayers > 0)
        // The all-to-all's send and receive buffers of one MoE layer: the permuted tokens out,
        // the tokens for this GPU's experts in (and the same on the way back, and for the
        // gradients in backward) (Megatron MoEAlltoAllTokenDispatcher; torchtitan
        // expert_parallel all_to_all_single).
        out.add(Component::Temporary, "expert-parallel all-to-all buffers",
                "b*s*k*h*c * (1 + imbalance)", "Megatron token_dispatcher.py",
                d.tokens * double(c.m.moe.expertsPerToken) * d.h * d.c *
                    (1 + routedTokenFactor(c)),
                1, savedPhases | backwardPhases);

    if (c.hasHead && c.t.mtpLayers > 0) {
        // Multi-token prediction: each module runs one more layer of the last layer's kind on
        // the concatenation of the normed hidden state and the normed next-token embedding
        // (eh_proj's input, 2h), under the same recomputation as the layers (DeepSeek-V3 §2.2).
        const double n = double(c.t.mtpLayers);
        const double layerBytes = recomputed > 0 ? d.tokens * d.h * (c.amp ? 4.0 : d.c)
                                                 : layerTotalOf(size_t(mtpGroup(c)));
        out.add(A, "multi-token prediction layers' saved tensors", "one layer's inventory",
                "DeepSeek-V3 §2.2; Megatron multi_token_prediction.py", layerBytes, n,
                savedPhases);
        out.add(A, "multi-token prediction: normed hidden and embedding (eh_proj input)",
                "b*s*2h*c per module", "Megatron MultiTokenPredictionLayer",
                d.tokens * 2 * d.h * d.c, n, savedPhases);
    }

    if (mambaTorch)
        out.add(Component::Temporary, "Mamba2 torch scan: largest summed product (fp32, one layer)",
                "b*s_chunked*heads*max(chunk*state, chunk*head_dim, head_dim*state)*4",
                "transformers Mamba2 mixers' torch_forward",
                mambaTorchTransientBytes(c, d), 1, phaseBit(Phase::Forward));
    if (mambaTorch)
        // In backward the summed product's gradient is expanded to the product's shape and
        // multiplied by the other factor: two such blocks at once (measured on an H200,
        // Nemotron 3 Nano, tests/data/measured/gpu: 2 x 8 GiB at 2048 tokens).
        out.add(Component::Temporary,
                "Mamba2 torch scan backward: the product's gradient and gradient x factor "
                "(fp32, one layer)",
                "2*b*s_chunked*heads*max(chunk*state, chunk*head_dim, head_dim*state)*4",
                "autograd of transformers Mamba2 mixers' torch_forward",
                2 * mambaTorchTransientBytes(c, d), 1, phaseBit(Phase::LayerBackward));
    if (mambaTorch)
        out.add(Component::Gradients,
                "gradients made before a Mamba2 layer's scan runs its backward",
                "trainable elements of the later layers, its MLP, final norm, head * bytes per "
                "gradient",
                "backward order; measured on an H200", scan.gradients, 1,
                phaseBit(Phase::LayerBackward));
    if (c.m.indexer.heads > 0 && c.hfModelCode())
        // The lightning indexer's scores of every query against every key, in fp32, before
        // its top-k (DeepseekV32Indexer.forward under no_grad): the product and its scaled copy,
        // then the scaled copy and its relu, are alive at once; one layer at a time.
        out.add(Component::Temporary, "sparse-attention indexer scores (fp32, one layer)",
                "2*b*s*index_heads*s*4", "transformers DeepseekV32Indexer",
                2 * d.tokens * double(c.m.indexer.heads) * s * 4, 1, phaseBit(Phase::Forward));
    addVisionTower(c, out);

    // --- final norm, logits and loss (last stage) -----------------------------------------
    if (c.hasHead)
        addLogitsAndLoss(c, d, out);
}

} // namespace vramplan
