#include "model/model_weights.h"

#include <algorithm>

namespace vramplan {
namespace {

int64_t normWidth(const ModelConfig &m)
{
    // LayerNorm has a weight and a bias; RMSNorm a weight only.
    return m.norm == NormType::LayerNorm ? 2 : 1;
}

struct LinearNames
{
    std::string_view weight, bias, lora;
};

void addLinear(WeightList &out, LinearNames names, int64_t in, int64_t outF, bool withBias,
               WeightPlace place, int64_t copies = 1)
{
    out.push_back({names.weight, names.lora, place, outF, in, copies, true, true});
    if (withBias)
        out.push_back({names.bias, {}, place, outF, 1, copies, true, false});
}

// An MLP of width `ffn`: gate (gated types), up and down, under the given module names.
struct MlpNames
{
    LinearNames gate, up, down;
};
constexpr MlpNames denseMlp = {{"mlp.gate_proj.weight", "mlp.gate_proj.bias", "gate_proj"},
                               {"mlp.up_proj.weight", "mlp.up_proj.bias", "up_proj"},
                               {"mlp.down_proj.weight", "mlp.down_proj.bias", "down_proj"}};
constexpr MlpNames sharedMlp = {
    {"shared_experts.gate_proj.weight", "shared_experts.gate_proj.bias", "gate_proj"},
    {"shared_experts.up_proj.weight", "shared_experts.up_proj.bias", "up_proj"},
    {"shared_experts.down_proj.weight", "shared_experts.down_proj.bias", "down_proj"}};
constexpr MlpNames expertMlp = {
    {"experts.gate_proj.weight", "experts.gate_proj.bias", "gate_proj"},
    {"experts.up_proj.weight", "experts.up_proj.bias", "up_proj"},
    {"experts.down_proj.weight", "experts.down_proj.bias", "down_proj"}};
// Experts stored as 3-D parameters (gpt-oss GptOssExperts, Llama 4 Llama4TextExperts): no
// nn.Linear, so no PEFT target name adapts them.
constexpr MlpNames fusedExpertMlp = {
    {"experts.gate_up_proj (gate half)", "experts.gate_up_proj_bias (gate half)", {}},
    {"experts.gate_up_proj (up half)", "experts.gate_up_proj_bias (up half)", {}},
    {"experts.down_proj", "experts.down_proj_bias", {}}};

void addMlp(WeightList &out, const ModelConfig &m, int64_t ffn, WeightPlace place, int64_t copies,
            const MlpNames &names, bool withBias)
{
    const int64_t h = m.hiddenSize;
    if (m.ffnType != FfnType::Gelu)
        addLinear(out, names.gate, h, ffn, withBias, place, copies);
    addLinear(out, names.up, h, ffn, withBias, place, copies);
    addLinear(out, names.down, ffn, h, withBias, place, copies);
}

// Multi-head latent attention as transformers' DeepseekV3Attention builds it: q through
// q_a_proj (h -> q_lora_rank), q_a_layernorm and q_b_proj (-> heads * (nope + rope)), or one
// q_proj; kv_a_proj_with_mqa (h -> kv_lora_rank + rope), kv_a_layernorm, kv_b_proj
// (kv_lora_rank -> heads * (nope + v)); o_proj (heads * v -> h). The down-projections are
// replicated across tensor-parallel ranks (Megatron's MLA: linear_q_down_proj and
// linear_kv_down_proj are not split).
void addMlaAttention(WeightList &out, const ModelConfig &m)
{
    const int64_t h = m.hiddenSize;
    const int64_t a = m.attentionHeads;
    const auto &mla = m.mla;
    const bool inBias = m.bias || m.qkvBias;
    constexpr auto L = WeightPlace::Layer;
    if (mla.qLoraRank > 0) {
        out.push_back({"q_a_proj.weight", "q_a_proj", L, mla.qLoraRank, h, 1, false, true});
        if (inBias)
            out.push_back({"q_a_proj.bias", {}, L, mla.qLoraRank, 1, 1, false, false});
        out.push_back({"q_a_layernorm.weight", {}, L, mla.qLoraRank, 1, 1, false, false});
        addLinear(out, {"q_b_proj.weight", {}, "q_b_proj"}, mla.qLoraRank, a * mla.qkHeadDim(),
                  false, L);
    } else {
        addLinear(out, {"q_proj.weight", {}, "q_proj"}, h, a * mla.qkHeadDim(), false, L);
    }
    const int64_t kvA = mla.kvLoraRank + mla.qkRopeHeadDim;
    out.push_back({"kv_a_proj_with_mqa.weight", "kv_a_proj_with_mqa", L, kvA, h, 1, false, true});
    if (inBias)
        out.push_back({"kv_a_proj_with_mqa.bias", {}, L, kvA, 1, 1, false, false});
    out.push_back({"kv_a_layernorm.weight", {}, L, mla.kvLoraRank, 1, 1, false, false});
    addLinear(out, {"kv_b_proj.weight", {}, "kv_b_proj"}, mla.kvLoraRank,
              a * (mla.qkNopeHeadDim + mla.vHeadDim), false, L);
    addLinear(out, {"o_proj.weight", "o_proj.bias", "o_proj"}, a * mla.vHeadDim, h,
              m.bias || m.oBias, L);
}

} // namespace

WeightList layerWeights(const ModelConfig &m)
{
    return layerWeights(m, m.isMoe() ? LayerKind::Moe : LayerKind::Dense);
}

WeightList layerWeights(const ModelConfig &m, LayerKind kind)
{
    WeightList out;
    const int64_t h = m.hiddenSize;
    const int64_t qWidth = m.attentionHeads * m.headDim;
    const int64_t kvWidth = m.kvHeads * m.headDim;
    const bool qkvBias = m.bias || m.qkvBias;

    static constexpr std::string_view normNames[] = {"norm1.weight", "norm2.weight", "norm3.weight",
                                                     "norm4.weight"};
    for (int64_t i = 0; i < std::min<int64_t>(m.normsPerLayer, 4); ++i)
        out.push_back({normNames[i], {}, WeightPlace::Layer, h, normWidth(m), 1, false, false});
    if (m.isMla()) {
        addMlaAttention(out, m);
    } else {
        addLinear(out, {"q_proj.weight", "q_proj.bias", "q_proj"}, h, qWidth, qkvBias,
                  WeightPlace::Layer);
        addLinear(out, {"k_proj.weight", "k_proj.bias", "k_proj"}, h, kvWidth, qkvBias,
                  WeightPlace::Layer);
        addLinear(out, {"v_proj.weight", "v_proj.bias", "v_proj"}, h, kvWidth, qkvBias,
                  WeightPlace::Layer);
        addLinear(out, {"o_proj.weight", "o_proj.bias", "o_proj"}, qWidth, h, m.bias || m.oBias,
                  WeightPlace::Layer);
    }
    // q/k norms: an RMSNorm weight of head_dim shared by every head (Qwen3, Gemma 3), or over
    // the whole projection (OLMo 2, split with the heads under tensor parallelism); Llama 4's
    // L2 norm has no weight.
    if (m.qkNorm == QkNorm::Head && !m.isMla()) {
        out.push_back({"q_norm.weight", {}, WeightPlace::Layer, m.headDim, 1, 1, false, false});
        out.push_back({"k_norm.weight", {}, WeightPlace::Layer, m.headDim, 1, 1, false, false});
    } else if (m.qkNorm == QkNorm::Full && !m.isMla()) {
        out.push_back({"q_norm.weight", {}, WeightPlace::Layer, qWidth, 1, 1, true, false});
        out.push_back({"k_norm.weight", {}, WeightPlace::Layer, kvWidth, 1, 1, true, false});
    }
    if (m.attentionSinks) // gpt-oss: nn.Parameter(num_attention_heads), split with the heads
        out.push_back({"sinks", {}, WeightPlace::Layer, m.attentionHeads, 1, 1, true, false});

    if (m.isMoe() && kind == LayerKind::Moe) {
        // The router is a linear h -> experts (with a bias in gpt-oss), never quantised or
        // split; DeepSeek-V3's e_score_correction_bias is a buffer (checkpointExtras).
        out.push_back({"router.weight", {}, WeightPlace::Layer, m.moe.experts, h, 1, false, false});
        if (m.moe.routerBias)
            out.push_back(
                {"router.bias", {}, WeightPlace::Layer, m.moe.experts, 1, 1, false, false});
        const int64_t ffn =
            m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize : m.ffnHiddenSize;
        const bool fused = m.family == Family::GptOss || m.family == Family::Llama4;
        addMlp(out, m, ffn, WeightPlace::Expert, m.moe.experts, fused ? fusedExpertMlp : expertMlp,
               m.bias || m.moe.expertBias);
        if (m.moe.sharedExperts > 0) {
            // The shared experts are one MLP of shared_experts times the width
            // (DeepseekV3MoE: intermediate_size = moe_intermediate_size * n_shared_experts).
            const int64_t sharedFfn =
                m.moe.sharedExpertFfnHiddenSize > 0 ? m.moe.sharedExpertFfnHiddenSize : ffn;
            addMlp(out, m, sharedFfn * m.moe.sharedExperts, WeightPlace::Layer, 1, sharedMlp,
                   m.bias);
        }
    } else {
        addMlp(out, m, m.ffnHiddenSize, WeightPlace::Layer, 1, denseMlp, m.bias);
    }
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

ParameterCounts countParameters(const ModelConfig &m)
{
    return countParameters(m, layerWeights(m), layerWeights(m, LayerKind::Dense), globalWeights(m));
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
    const WeightList moeLayer = layerWeights(m);
    const WeightList denseLayer = layerWeights(m, LayerKind::Dense);
    const ParameterCounts counts = countParameters(m, moeLayer, denseLayer, globalWeights(m));
    const int64_t bufferPerMoeLayer =
        m.isMoe() && m.moe.scoreCorrectionBias ? m.moe.experts : 0;
    const bool lastIsMoe = m.isMoeLayer(m.layers - 1);
    // The MTP layers' router buffers count with the buffers (as the published tensor lists do).
    x.buffers = bufferPerMoeLayer * (counts.moeLayers + (lastIsMoe ? m.mtpLayers : 0));
    if (m.mtpLayers > 0) {
        // DeepSeek-V3 §2.2: each MTP module is one more decoder layer (of the last layer's
        // kind) with enorm and hnorm (h each), eh_proj (2h -> h), shared_head.norm (h); the
        // published checkpoint stores its own copy of the embedding and of the output head
        // (model.layers.61.embed_tokens / shared_head.head).
        const int64_t h = m.hiddenSize;
        const int64_t mtpLayer = (lastIsMoe ? counts.perLayer : counts.perDenseLayer) + 3 * h +
                            2 * h * h + 2 * m.vocabSize * h;
        x.mtp = m.mtpLayers * mtpLayer;
    }
    if (fp8BlockSize > 0) {
        // One fp32 weight_scale_inv per block of every fp8 linear in the layers (embeddings,
        // head, norms and router stay in bf16) (DeepSeek-V3 §3.3.2, 128 x 128 blocks).
        const auto blocks = [fp8BlockSize](int64_t n) { return (n + fp8BlockSize - 1) / fp8BlockSize; };
        const auto scales = [&](const WeightList &list) {
            int64_t n = 0;
            for (const auto &t : list)
                if (t.quantizable)
                    n += blocks(t.rows) * blocks(t.cols) * t.copies;
            return n;
        };
        const int64_t moeScales = m.isMoe() ? scales(moeLayer) : 0;
        const int64_t denseScales = scales(denseLayer);
        x.fp8Scales = moeScales * counts.moeLayers + denseScales * counts.denseLayers;
        // The MTP layer's decoder layer is fp8 too; its eh_proj stays bf16 (the published
        // DeepSeek-V3 tensor list has no scale for it).
        x.fp8Scales += m.mtpLayers * (lastIsMoe ? moeScales : denseScales);
    }
    return x;
}

} // namespace vramplan
