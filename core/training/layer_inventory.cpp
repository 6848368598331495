// One layer's saved-tensor inventory in two parts: the mixer part (the first norm, attention or
// another mixer, what follows them) and the MLP part (the second norm and the MLP), for a layer
// of the given kind (activations.cpp puts the parts of the stage's layers together).

#include "training/activation_dims.h"
#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {
namespace {

bool mixerInputSaved(const StageContext &c, Mixer mixer)
{
    switch (mixer) {
    case Mixer::LinearAttention:
        if (c.m.linear.perChannelGate) // Kimi Delta Attention's six readers of the norm
            return linearSavesInput(c, "q_proj") || linearSavesInput(c, "k_proj") ||
                   linearSavesInput(c, "v_proj") || linearSavesInput(c, "f_a_proj") ||
                   linearSavesInput(c, "b_proj") || linearSavesInput(c, "g_a_proj");
        return linearSavesInput(c, "in_proj_qkvz") || linearSavesInput(c, "in_proj_qkv") ||
               linearSavesInput(c, "in_proj_z") || linearSavesInput(c, "in_proj_b");
    case Mixer::Mamba:
    case Mixer::ShortConv:
        return linearSavesInput(c, "in_proj");
    default:
        return c.m.isMla() ? linearSavesInput(c, c.m.mla.qLoraRank > 0 ? "q_a_proj" : "q_proj") ||
                                 linearSavesInput(c, "kv_a_proj_with_mqa")
                           : linearSavesInput(c, "q_proj") || linearSavesInput(c, "k_proj") ||
                                 linearSavesInput(c, "v_proj") ||
                                 (mixer == Mixer::AttentionAndMamba &&
                                  linearSavesInput(c, "in_proj"));
    }
}
double mixerReaders(const StageContext &c, Mixer mixer)
{
    switch (mixer) {
    case Mixer::LinearAttention: // in_proj_qkvz and in_proj_ba, Qwen3.5's four, or KDA's six
        return c.m.linear.perChannelGate ? 6.0 : c.m.family == Family::Qwen3Next ? 2.0 : 4.0;
    case Mixer::Mamba:
    case Mixer::ShortConv:
        return 1.0;
    case Mixer::AttentionAndMamba:
        return normReaders(c, true) + 1.0;
    default:
        return c.m.isMla() ? 2.0 : normReaders(c, true);
    }
}

// Gemma 4's global layers: their own head width and key/value heads.
Dims globalAttentionDims(const StageContext &c, Dims d)
{
    const double headDim = double(c.m.globalHeadDim > 0 ? c.m.globalHeadDim : c.m.headDim);
    const double kvHeads = double(c.m.globalKvHeads > 0 ? c.m.globalKvHeads : c.m.kvHeads);
    const double ratio = d.qWidth > 0 ? d.kvSavedWidth / d.qWidth : 1.0;
    d.qWidth = double(c.m.attentionHeads) * headDim / d.tp;
    d.kvWidth = kvHeads * headDim / d.tp;
    d.kvSavedWidth = ratio >= 1.0 ? d.qWidth : std::max(d.kvWidth, headDim);
    return d;
}

} // namespace

std::string_view mixerSource(Mixer mixer)
{
    switch (mixer) {
    case Mixer::LinearAttention:
        return "per-layer saved-tensor inventory (Gated DeltaNet layers)";
    case Mixer::Mamba:
        return "per-layer saved-tensor inventory (Mamba2 layers)";
    case Mixer::ShortConv:
        return "per-layer saved-tensor inventory (short-convolution layers)";
    case Mixer::AttentionAndMamba:
        return "per-layer saved-tensor inventory (attention and Mamba2 layers)";
    case Mixer::GlobalAttention:
        return "per-layer saved-tensor inventory (global-attention layers)";
    default:
        return "per-layer saved-tensor inventory";
    }
}

// Fills `inv` (in place: the cache of StageShared) with one part of a layer of the kind.
void layerInventory(const StageContext &c, const Dims &d, LayerSpec spec, LayerPart part,
                    Inventory &inv)
{
    inv.clear();
    const LayerKind kind = spec.mlp == LayerMlp::Moe ? LayerKind::Moe : LayerKind::Dense;
    const bool dropoutMasks = c.t.dropout > 0 && hasResidualDropout(c.m.family);
    const bool attnInputSaved = mixerInputSaved(c, spec.mixer);
    const double attnReaders = mixerReaders(c, spec.mixer);
    // In a MoE layer the router (trainable in a full fine-tune) and the shared experts read the
    // norm output; the routed experts read gathered copies of it.
    const bool moeLayer = kind == LayerKind::Moe && c.m.isMoe();
    const bool sharedReads = moeLayer && c.m.moe.sharedExperts > 0 &&
                             (linearSavesInput(c, "up_proj") || linearSavesInput(c, "gate_proj"));
    const bool mlpInputSaved =
        moeLayer ? c.full || sharedReads
                 : linearSavesInput(c, "up_proj") || linearSavesInput(c, "gate_proj");
    const double mlpReaders =
        moeLayer ? (c.full ? 1.0 : 0.0) + (sharedReads ? normReaders(c, false) : 0.0)
                 : normReaders(c, false);
    const bool sharedNorm = c.m.parallelBlock && c.m.normsPerLayer < 2;
    // OLMo 2 has no norms before its sublayers, only after them (modeling_olmo2.py); Gemma 2
    // and 3 have both (four per layer).
    const bool preNorms = c.m.family != Family::Olmo2 && c.m.family != Family::Olmo3;
    const bool postNorms =
        c.m.family == Family::Olmo2 || c.m.family == Family::Olmo3 ||
        (c.m.normsPerLayer == 4 && (c.m.family == Family::Gemma2 || c.m.family == Family::Gemma3 ||
                                    c.m.family == Family::Gemma4 || c.m.family == Family::Glm4));

    if (part == LayerPart::Mixer) {
        if (spec.mixer == Mixer::None)
            return; // an MLP-only block: its one norm is the MLP part's
        if (!preNorms)
            addUnnormedInput(c, d, inv, attnInputSaved, attnReaders);
        else if (c.m.normsPerLayer > 0)
            addNorm(c, d, inv, attnInputSaved || (sharedNorm && mlpInputSaved),
                    (attnInputSaved ? attnReaders : 0.0) +
                        (sharedNorm && mlpInputSaved ? mlpReaders : 0.0));
        switch (spec.mixer) {
        case Mixer::GlobalAttention:
            addAttention(c, globalAttentionDims(c, d), inv);
            break;
        case Mixer::LinearAttention:
            addLinearAttention(c, d, inv);
            break;
        case Mixer::Mamba:
            addMamba(c, d, inv);
            break;
        case Mixer::ShortConv:
            addShortConv(c, d, inv);
            break;
        case Mixer::AttentionAndMamba:
            addAttention(c, d, inv);
            addMamba(c, d, inv);
            break;
        default:
            addAttention(c, d, inv);
            break;
        }
        if (postNorms)
            addPostNorm(c, d, inv);
        if (dropoutMasks)
            inv.push_back(
                {"attention residual dropout mask", "b*s*h*1", d.tokens * d.h / d.outsideDiv});
        return;
    }
    if (spec.mlp == LayerMlp::None)
        return; // a mixer-only block (Nemotron-H)
    if (!preNorms)
        addUnnormedInput(c, d, inv, mlpInputSaved, mlpReaders);
    else if (c.m.normsPerLayer > 1 || (spec.mixer == Mixer::None && c.m.normsPerLayer > 0))
        addNorm(c, d, inv, mlpInputSaved, mlpReaders, c.m.parallelBlock);
    addMlp(c, d, inv, kind);
    if (postNorms)
        addPostNorm(c, d, inv);
    if (dropoutMasks)
        inv.push_back({"MLP residual dropout mask", "b*s*h*1", d.tokens * d.h / d.outsideDiv});
}

// At the end of backward the stage's first layer holds what it saved (or recomputed) until its
// own backward has consumed it; but until then its own gradients, and an untied embedding's
// (made last), do not exist, while the gradients item counts them all. What the moment adds to
// the gradients is what exceeds them: at the layer's MLP backward the whole layer's tensors,
// none of its gradients made; at its mixer's the mixer part's, the MLP's gradients made
// (measured on an H200: Qwen3-30B-A3B under HF Trainer peaks at the end of backward with the
// gradients alone). Where backward does not make the gradients layer by layer, all of it.
double firstLayerLeftAtEnd(const StageContext &c, size_t group, double whole, double mixerPart)
{
    // No gradient made layer by layer: nothing overlaps, and the weight lists need no walk (this
    // runs for every stage of every estimate).
    if (layerByLayerGradientBytes(c, 1) <= 0)
        return std::max({0.0, whole, mixerPart});
    const auto gradientsOf = [&](const WeightList &list) {
        double bytes = 0;
        for (const auto &t : list)
            bytes += layerByLayerGradientBytes(
                c, double(t.elements()) / (t.tensorParallel ? double(c.tp) : 1.0));
        return bytes;
    };
    const auto &first = c.layerGroups()[group];
    const double layerGrads = gradientsOf(*first.weights);
    const double mlpGrads =
        first.spec.mixer != Mixer::None && first.spec.mlp != LayerMlp::None && layerGrads > 0
            ? gradientsOf(layerWeights(c.m, LayerSpec{Mixer::None, first.spec.mlp}))
            : 0.0;
    double embeddingGrads = 0;
    if (c.hasEmbedding && !c.m.tiedEmbeddings)
        for (const auto &t : c.globals)
            if (t.place == WeightPlace::Embedding)
                embeddingGrads += layerByLayerGradientBytes(c, double(t.elements()));
    return std::max({0.0, whole - layerGrads - embeddingGrads,
                     mixerPart - (layerGrads - mlpGrads) - embeddingGrads});
}

} // namespace vramplan
