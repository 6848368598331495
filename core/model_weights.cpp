#include "model_weights.h"

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

void addMlp(WeightList &out, const ModelConfig &m, int64_t ffn, WeightPlace place, int64_t copies,
            bool expert)
{
    const int64_t h = m.hiddenSize;
    if (m.ffnType != FfnType::Gelu)
        addLinear(
            out,
            expert ? LinearNames{"experts.gate_proj.weight", "experts.gate_proj.bias", "gate_proj"}
                   : LinearNames{"mlp.gate_proj.weight", "mlp.gate_proj.bias", "gate_proj"},
            h, ffn, m.bias, place, copies);
    addLinear(out,
              expert ? LinearNames{"experts.up_proj.weight", "experts.up_proj.bias", "up_proj"}
                     : LinearNames{"mlp.up_proj.weight", "mlp.up_proj.bias", "up_proj"},
              h, ffn, m.bias, place, copies);
    addLinear(out,
              expert
                  ? LinearNames{"experts.down_proj.weight", "experts.down_proj.bias", "down_proj"}
                  : LinearNames{"mlp.down_proj.weight", "mlp.down_proj.bias", "down_proj"},
              ffn, h, m.bias, place, copies);
}

} // namespace

WeightList layerWeights(const ModelConfig &m)
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
    addLinear(out, {"q_proj.weight", "q_proj.bias", "q_proj"}, h, qWidth, qkvBias,
              WeightPlace::Layer);
    addLinear(out, {"k_proj.weight", "k_proj.bias", "k_proj"}, h, kvWidth, qkvBias,
              WeightPlace::Layer);
    addLinear(out, {"v_proj.weight", "v_proj.bias", "v_proj"}, h, kvWidth, qkvBias,
              WeightPlace::Layer);
    addLinear(out, {"o_proj.weight", "o_proj.bias", "o_proj"}, qWidth, h, m.bias,
              WeightPlace::Layer);

    if (m.isMoe()) {
        // Mixtral's router is a bias-free linear h -> experts; it is never quantized.
        out.push_back({"router.weight", {}, WeightPlace::Layer, m.moe.experts, h, 1, false, false});
        const int64_t ffn =
            m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize : m.ffnHiddenSize;
        addMlp(out, m, ffn, WeightPlace::Expert, m.moe.experts, true);
        if (m.moe.sharedExperts > 0)
            addMlp(out, m, ffn, WeightPlace::Layer, m.moe.sharedExperts, false);
    } else {
        addMlp(out, m, m.ffnHiddenSize, WeightPlace::Layer, 1, false);
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
    if (m.head == Head::LanguageModel && m.lmHeadBias)
        out.push_back(
            {"lm_head.bias", {}, WeightPlace::OutputHead, m.vocabSize, 1, 1, true, false});
    return out;
}

ParameterCounts countParameters(const ModelConfig &m)
{
    return countParameters(m, layerWeights(m), globalWeights(m));
}

ParameterCounts countParameters(const ModelConfig &m, const WeightList &layer,
                                const WeightList &globals)
{
    ParameterCounts c;
    int64_t activeLayer = 0;
    for (const auto &t : layer) {
        c.perLayer += t.elements();
        if (t.place == WeightPlace::Expert)
            activeLayer += t.rows * t.cols * std::min(m.moe.expertsPerToken, t.copies);
        else
            activeLayer += t.elements();
    }
    c.layers = c.perLayer * m.layers;
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
    c.activePerToken = c.embedding + activeLayer * m.layers + c.finalNorm + c.outputHead;
    return c;
}

bool isLoraTarget(const FinetuneConfig &finetune, std::string_view loraName)
{
    if (loraName.empty())
        return false;
    for (const auto &target : finetune.loraTargets) {
        if (target == loraName)
            return true;
        // PEFT's "all-linear" adapts every linear layer of the blocks, not the output head.
        if ((target == "all-linear" || target == "all") && loraName != "lm_head")
            return true;
    }
    return false;
}

int64_t loraParametersPerLayer(const ModelConfig &m, const FinetuneConfig &finetune)
{
    int64_t total = 0;
    for (const auto &t : layerWeights(m))
        if (t.isMatrix() && isLoraTarget(finetune, t.loraName))
            total += finetune.loraRank * (t.rows + t.cols) * t.copies;
    return total;
}

} // namespace vramplan
