// LoRA adapters: which linear layers a PEFT target name adapts (the canonical q_proj ...
// down_proj and each family's own module names), and how many adapter parameters that adds
// (Hu et al. 2021, §4; PEFT's LoraLayer).

#include "model/model_weights.h"

namespace vramplan {
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

int64_t loraParametersPerLayer(const ModelConfig &m, const FinetuneConfig &finetune,
                               LayerKind kind)
{
    const LayerMlp mlp = kind == LayerKind::Moe ? LayerMlp::Moe : LayerMlp::Dense;
    return loraParametersPerLayer(m, finetune, LayerSpec{Mixer::Attention, mlp});
}

int64_t loraParametersPerLayer(const ModelConfig &m, const FinetuneConfig &finetune,
                               LayerSpec spec)
{
    int64_t total = 0;
    // Every linear weight has a PEFT name (loraName), whatever its width: a one-column
    // projection (hidden_size 1) is still a matrix an adapter wraps.
    for (const auto &t : layerWeights(m, spec))
        if (!t.loraName.empty() && isLoraTarget(finetune, t.loraName))
            total += finetune.loraRank * (t.rows + t.cols) * t.copies;
    // A fused q/k/v adapter has one A (r x h) for the three outputs: two fewer r x h matrices.
    const bool attention = spec.mixer == Mixer::Attention || spec.mixer == Mixer::GlobalAttention ||
                           spec.mixer == Mixer::AttentionAndMamba;
    if (fusedQkvLoraTarget(finetune) && !m.isMla() && attention)
        total -= 2 * finetune.loraRank * m.hiddenSize;
    return total;
}

int64_t loraParameters(const ModelConfig &m, const FinetuneConfig &finetune)
{
    if (m.hasLayerPlan()) {
        int64_t total = 0;
        for (const auto &kind : layerKindsIn(m, 0, m.layers))
            total += loraParametersPerLayer(m, finetune, kind.spec) * kind.layers;
        return total;
    }
    const ParameterCounts c = countParameters(m);
    const int64_t moe = m.isMoe() ? c.moeLayers : 0;
    return loraParametersPerLayer(m, finetune, LayerKind::Moe) * moe +
           loraParametersPerLayer(m, finetune, LayerKind::Dense) * (m.layers - moe);
}

} // namespace vramplan
