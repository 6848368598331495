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

namespace {

// The module names PEFT users write for each family, as the canonical projection they adapt.
// PEFT matches a target against the end of a module's name, so GPT-2's "c_proj" adapts both
// the attention output and the MLP's down projection. Fused q/k/v names adapt all three with
// one adapter (see fusedQkvLoraTarget).
struct LoraAlias
{
    std::string_view name;
    std::string_view projections[3];
};

constexpr LoraAlias loraAliases[] = {
    {"query", {"q_proj"}},              // BERT
    {"key", {"k_proj"}},                // BERT
    {"value", {"v_proj"}},              // BERT
    {"wq", {"q_proj"}},                 // Meta, torchtune, torchtitan
    {"wk", {"k_proj"}},                 //
    {"wv", {"v_proj"}},                 //
    {"wo", {"o_proj"}},                 //
    {"w1", {"gate_proj"}},              //
    {"w2", {"down_proj"}},              //
    {"w3", {"up_proj"}},                //
    {"fc1", {"up_proj"}},               // Phi, OPT
    {"fc2", {"down_proj"}},             //
    {"c_fc", {"up_proj"}},              // GPT-2
    {"c_proj", {"o_proj", "down_proj"}}, // GPT-2: attn.c_proj and mlp.c_proj
    {"dense_h_to_4h", {"up_proj"}},     // GPT-NeoX, Falcon
    {"dense_4h_to_h", {"down_proj"}},   //
    {"c_attn", {"q_proj", "k_proj", "v_proj"}},          // GPT-2, fused
    {"query_key_value", {"q_proj", "k_proj", "v_proj"}}, // GPT-NeoX, Falcon, fused
    {"qkv_proj", {"q_proj", "k_proj", "v_proj"}},        // Phi-3, fused
    {"Wqkv", {"q_proj", "k_proj", "v_proj"}},            // MPT, fused
};

bool targetNames(std::string_view target, std::string_view loraName)
{
    if (target == loraName)
        return true;
    for (const auto &alias : loraAliases)
        if (alias.name == target)
            for (const auto projection : alias.projections)
                if (projection == loraName)
                    return true;
    return false;
}

} // namespace

bool isLoraTarget(const FinetuneConfig &finetune, std::string_view loraName)
{
    if (loraName.empty())
        return false;
    for (const auto &target : finetune.loraTargets) {
        if (targetNames(target, loraName))
            return true;
        // PEFT's "all-linear" adapts every linear layer of the blocks, not the output head.
        if ((target == "all-linear" || target == "all") && loraName != "lm_head")
            return true;
    }
    return false;
}

bool fusedQkvLoraTarget(const FinetuneConfig &finetune)
{
    bool fused = false;
    for (const auto &target : finetune.loraTargets) {
        if (target == "all-linear" || target == "all" || targetNames(target, "k_proj") !=
                                                             targetNames(target, "v_proj"))
            return false;
        fused = fused || (targetNames(target, "q_proj") && targetNames(target, "k_proj"));
    }
    return fused;
}

int64_t loraParametersPerLayer(const ModelConfig &m, const FinetuneConfig &finetune)
{
    int64_t total = 0;
    for (const auto &t : layerWeights(m))
        if (t.isMatrix() && isLoraTarget(finetune, t.loraName))
            total += finetune.loraRank * (t.rows + t.cols) * t.copies;
    // A fused q/k/v adapter has one A (r x h) for the three outputs: two fewer r x h matrices.
    if (fusedQkvLoraTarget(finetune))
        total -= 2 * finetune.loraRank * m.hiddenSize;
    return total;
}

} // namespace vramplan
