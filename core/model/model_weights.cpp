#include "model/model_weights.h"

#include "model/weight_builders.h"

#include <algorithm>

namespace vramplan {

WeightList layerWeights(const ModelConfig &m)
{
    return layerWeights(m, m.isMoe() ? LayerKind::Moe : LayerKind::Dense);
}

WeightList layerWeights(const ModelConfig &m, LayerKind kind)
{
    return layerWeights(m, LayerSpec{Mixer::Attention,
                                     kind == LayerKind::Moe ? LayerMlp::Moe : LayerMlp::Dense});
}

WeightList layerWeights(const ModelConfig &m, LayerSpec spec)
{
    WeightList out;
    const int64_t h = m.hiddenSize;
    static constexpr std::string_view normNames[] = {"norm1.weight", "norm2.weight", "norm3.weight",
                                                     "norm4.weight"};
    for (int64_t i = 0; i < std::min<int64_t>(m.normsPerLayer, 4); ++i)
        out.push_back({normNames[i], {}, WeightPlace::Layer, h, normWidth(m), 1, false, false});
    switch (spec.mixer) {
    case Mixer::Attention:
    case Mixer::GlobalAttention:
        addAttentionWeights(out, m, spec.mixer);
        break;
    case Mixer::LinearAttention:
        addLinearAttentionWeights(out, m);
        break;
    case Mixer::Mamba:
        addMambaWeights(out, m);
        break;
    case Mixer::ShortConv:
        addShortConvWeights(out, m);
        break;
    case Mixer::AttentionAndMamba: // Falcon-H1: both in every layer, side by side
        addAttentionWeights(out, m, Mixer::Attention);
        addMambaWeights(out, m);
        break;
    case Mixer::None:
        break;
    }
    if (spec.mlp == LayerMlp::Moe && m.isMoe())
        addMoeWeights(out, m);
    else if (spec.mlp != LayerMlp::None)
        addMlp(out, m, m.ffnHiddenSize, WeightPlace::Layer, 1, denseMlp, m.bias);
    return out;
}

WeightList globalWeights(const ModelConfig &m)
{
    WeightList out;
    const int64_t h = m.hiddenSize;
    out.push_back(
        {"embed_tokens.weight", {}, WeightPlace::Embedding, m.vocabSize, h, 1, true, false});
    if (m.positions == PositionKind::Learned)
        out.push_back({"embed_positions.weight",
                       {},
                       WeightPlace::Embedding,
                       m.maxPositions,
                       h,
                       1,
                       false,
                       false});
    if (m.tokenTypes > 0)
        out.push_back({"token_type_embeddings.weight",
                       {},
                       WeightPlace::Embedding,
                       m.tokenTypes,
                       h,
                       1,
                       false,
                       false});
    // BERT normalises the embeddings and has no final norm (post-LN); the others the reverse.
    if (m.family == Family::Bert)
        out.push_back({"embeddings.norm.weight",
                       {},
                       WeightPlace::Embedding,
                       h,
                       normWidth(m),
                       1,
                       false,
                       false});
    else
        out.push_back(
            {"final_norm.weight", {}, WeightPlace::FinalNorm, h, normWidth(m), 1, false, false});
    if (m.pooler)
        addLinear(out, {"pooler.dense.weight", "pooler.dense.bias", {}}, h, h, true,
                  WeightPlace::Pooler);
    if (m.head == Head::Classifier) {
        addLinear(out, {"classifier.weight", "classifier.bias", {}}, h,
                  std::max<int64_t>(1, m.classifierLabels), true, WeightPlace::OutputHead);
    } else if (!m.tiedEmbeddings) {
        out.push_back(
            {"lm_head.weight", "lm_head", WeightPlace::OutputHead, m.vocabSize, h, 1, true, false});
    }
    if (m.head == Head::LanguageModel && m.family == Family::Bert) {
        // BERT's masked-LM head transforms the hidden state (dense + activation + LayerNorm)
        // before the decoder, whose bias exists even with tied weights (transformers
        // modeling_bert.py BertPredictionHeadTransform, BertLMPredictionHead; Megatron's
        // BertLMHead likewise).
        addLinear(out,
                  {"cls.predictions.transform.dense.weight", "cls.predictions.transform.dense.bias",
                   {}},
                  h, h, true, WeightPlace::OutputHead);
        out.push_back({"cls.predictions.transform.norm.weight",
                       {},
                       WeightPlace::OutputHead,
                       h,
                       normWidth(m),
                       1,
                       false,
                       false});
    }
    if (m.head == Head::LanguageModel && (m.lmHeadBias || m.family == Family::Bert))
        out.push_back(
            {"lm_head.bias", {}, WeightPlace::OutputHead, m.vocabSize, 1, 1, true, false});
    return out;
}

LayerKinds layerKindsIn(const ModelConfig &m, int64_t from, int64_t to)
{
    // Called for every estimate and stage: each layer's two plan characters are looked up as
    // one key among the few seen (a plan repeats a short pattern), and only a new key is
    // turned into a LayerSpec and matched against the kinds.
    LayerKinds kinds;
    struct Seen
    {
        int key;
        size_t index;
    };
    StaticVector<Seen, 16> seen; // plan key -> index in kinds
    const auto &mixers = m.layerMixers;
    const auto &mlps = m.layerMlps;
    for (int64_t i = std::max<int64_t>(0, from); i < std::min(to, m.layers); ++i) {
        const size_t at = size_t(i);
        const int mlpKey = at < mlps.size() ? mlps[at] : (m.isMoeLayer(i) ? 1 : 0);
        const int key = (at < mixers.size() ? mixers[at] : 0) * 256 + mlpKey;
        auto hit = std::find_if(seen.begin(), seen.end(),
                                [key](const Seen &k) { return k.key == key; });
        size_t index;
        if (hit != seen.end()) {
            index = hit->index;
        } else {
            const LayerSpec spec = m.layerSpec(i);
            auto it = std::find_if(kinds.begin(), kinds.end(),
                                   [&](const LayerKindCount &k) { return k.spec == spec; });
            if (it == kinds.end()) {
                const size_t before = kinds.size();
                kinds.push_back({spec, 0, 0}); // past 8 kinds: dropped() says so
                if (kinds.size() == before)
                    continue;
                it = kinds.end() - 1;
            }
            index = size_t(it - kinds.begin());
            seen.push_back({key, index});
        }
        ++kinds[index].layers;
    }
    return kinds;
}

namespace {

// Every parameter of `list`, and those one token passes through (top-k of the experts).
void tally(const ModelConfig &m, const WeightList &list, int64_t &all, int64_t &active)
{
    for (const auto &t : list) {
        all += t.elements();
        active += t.place == WeightPlace::Expert
                      ? t.rows * t.cols * std::min(m.moe.expertsPerToken, t.copies)
                      : t.elements();
    }
}

} // namespace

ParameterCounts countParameters(const ModelConfig &m)
{
    const WeightList globals = globalWeights(m);
    if (m.hasLayerPlan()) {
        const LayerKinds kinds = layerKindsIn(m, 0, m.layers);
        std::array<WeightList, 8> weights;
        for (size_t k = 0; k < kinds.size(); ++k)
            weights[k] = layerWeights(m, kinds[k].spec);
        return countParameters(m, kinds, weights, globals, visionWeights(m));
    }
    ParameterCounts c =
        countParameters(m, layerWeights(m), layerWeights(m, LayerKind::Dense), globals);
    c.kinds = layerKindsIn(m, 0, m.layers);
    for (auto &kind : c.kinds) {
        int64_t all = 0, active = 0;
        tally(m, layerWeights(m, kind.spec), all, active);
        kind.perLayer = all;
    }
    int64_t active = 0;
    tally(m, visionWeights(m), c.vision, active);
    c.total += c.vision;
    return c;
}

ParameterCounts countParameters(const ModelConfig &m, const LayerKinds &kinds,
                                const std::array<WeightList, 8> &kindWeights,
                                const WeightList &globals, const WeightList &vision)
{
    // Hybrid layers: each kind's tensors once, times its layers. perLayer holds the largest
    // kind (what one gathered layer costs), moeLayers the layers with routed experts.
    ParameterCounts c = countParameters(m, WeightList{}, WeightList{}, globals);
    c.layers = c.perLayer = c.moeLayers = 0;
    c.kinds = kinds;
    int64_t activeLayers = 0;
    for (size_t k = 0; k < kinds.size(); ++k) {
        int64_t all = 0, active = 0;
        tally(m, kindWeights[k], all, active);
        c.kinds[k].perLayer = all;
        c.layers += all * kinds[k].layers;
        activeLayers += active * kinds[k].layers;
        c.perLayer = std::max(c.perLayer, all);
        if (kinds[k].spec.mlp == LayerMlp::Moe)
            c.moeLayers += kinds[k].layers;
    }
    c.perDenseLayer = 0;
    c.denseLayers = m.layers - c.moeLayers;
    c.total = c.embedding + c.layers + c.finalNorm + c.outputHead;
    c.activePerToken = c.embedding + activeLayers + c.finalNorm + c.outputHead;
    int64_t visionActive = 0;
    tally(m, vision, c.vision, visionActive);
    c.total += c.vision;
    return c;
}

ParameterCounts countParameters(const ModelConfig &m, const WeightList &layer,
                                const WeightList &dense, const WeightList &globals)
{
    ParameterCounts c;
    const auto tally = [&m](const WeightList &list, int64_t &all, int64_t &active) {
        for (const auto &t : list) {
            all += t.elements();
            active += t.place == WeightPlace::Expert
                          ? t.rows * t.cols * std::min(m.moe.expertsPerToken, t.copies)
                          : t.elements();
        }
    };
    int64_t activeLayer = 0, activeDense = 0;
    tally(layer, c.perLayer, activeLayer);
    tally(dense, c.perDenseLayer, activeDense);
    c.moeLayers = m.moeLayersIn(0, m.layers);
    c.denseLayers = m.layers - c.moeLayers;
    if (!m.isMoe()) {
        c.moeLayers = 0;
        c.denseLayers = m.layers;
    }
    const int64_t mainLayers = m.isMoe() ? c.moeLayers : c.denseLayers;
    const int64_t otherLayers = m.isMoe() ? c.denseLayers : 0;
    c.layers = c.perLayer * mainLayers + c.perDenseLayer * otherLayers;
    for (const auto &t : globals) {
        switch (t.place) {
        case WeightPlace::Embedding:
            c.embedding += t.elements();
            break;
        case WeightPlace::FinalNorm:
            c.finalNorm += t.elements();
            break;
        default:
            c.outputHead += t.elements();
            break;
        }
    }
    c.total = c.embedding + c.layers + c.finalNorm + c.outputHead;
    c.activePerToken = c.embedding + activeLayer * mainLayers + activeDense * otherLayers +
                       c.finalNorm + c.outputHead;
    return c;
}

CheckpointExtras checkpointExtras(const ModelConfig &m, int64_t fp8BlockSize)
{
    CheckpointExtras x;
    const int64_t h = m.hiddenSize;
    const auto elements = [](const WeightList &list) {
        int64_t n = 0;
        for (const auto &t : list)
            n += t.elements();
        return n;
    };
    // The multi-token prediction layer is of the last layer's kind (DeepSeek-V3 §2.2); in the
    // hybrids a full-attention layer with the model's MLP (vLLM Qwen3NextMultiTokenPredictor).
    const LayerSpec mtpSpec =
        m.hasLayerPlan() ? LayerSpec{Mixer::Attention, m.isMoe() ? LayerMlp::Moe : LayerMlp::Dense}
                         : m.layerSpec(m.layers - 1);
    const WeightList mtpLayer = layerWeights(m, mtpSpec);
    const bool mtpIsMoe = mtpSpec.mlp == LayerMlp::Moe && m.isMoe();
    const LayerKinds kinds = layerKindsIn(m, 0, m.layers);
    int64_t moeLayers = 0;
    for (const auto &k : kinds)
        if (k.spec.mlp == LayerMlp::Moe && m.isMoe())
            moeLayers += k.layers;
    const int64_t bufferPerMoeLayer =
        m.isMoe() && m.moe.scoreCorrectionBias ? m.moe.experts : 0;
    // The MTP layers' router buffers count with the buffers (as the published tensor lists do).
    x.buffers = bufferPerMoeLayer * (moeLayers + (mtpIsMoe ? m.mtpLayers : 0));
    // Gemma 4's persistent buffers: Gemma4TextDecoderLayer's layer_scalar (one a layer) and the
    // vision tower's std_bias and std_scale (Gemma4VisionModel with standardize, as the published
    // configs set it); the Hub's safetensors totals of 26B-A4B and 31B count them.
    if (m.family == Family::Gemma4)
        x.buffers += m.layers;
    if (m.vision.present() && m.vision.tower == VisionTower::Gemma4)
        x.buffers += 2 * m.vision.hiddenSize;
    if (m.mtpLayers > 0) {
        // Each MTP module is one more decoder layer with enorm and hnorm (h each), eh_proj
        // (2h -> h) and a final norm (h). DeepSeek's published checkpoints (and GLM-4.5's) also
        // store their own copy of the embedding and of the output head
        // (model.layers.61.embed_tokens / shared_head.head); GLM-5's and Qwen's share them.
        const bool ownEmbedding = m.family == Family::DeepseekV2 ||
                                  m.family == Family::DeepseekV3 || m.family == Family::Glm4Moe ||
                                  m.family == Family::DeepseekV32;
        x.mtp = m.mtpLayers * (elements(mtpLayer) + 3 * h + 2 * h * h +
                               (ownEmbedding ? 2 * m.vocabSize * h : 0));
    }
    if (fp8BlockSize > 0) {
        // One fp32 weight_scale_inv per block of every fp8 linear in the layers (embeddings,
        // head, norms and router stay in bf16) (DeepSeek-V3 §3.3.2, 128 x 128 blocks).
        const auto blocks = [fp8BlockSize](int64_t n) {
            return (n + fp8BlockSize - 1) / fp8BlockSize;
        };
        const auto scales = [&](const WeightList &list) {
            int64_t n = 0;
            for (const auto &t : list)
                if (t.quantizable)
                    n += blocks(t.rows) * blocks(t.cols) * t.copies;
            return n;
        };
        for (const auto &k : kinds)
            x.fp8Scales += scales(layerWeights(m, k.spec)) * k.layers;
        // The MTP layer's decoder layer is fp8 too; its eh_proj stays bf16 (the published
        // DeepSeek-V3 tensor list has no scale for it).
        x.fp8Scales += m.mtpLayers * scales(mtpLayer);
    }
    return x;
}

} // namespace vramplan
