// Linear layers and MLPs under a family's module names, and a mixture-of-experts layer's router,
// routed experts (in a latent width where the model has one), shared experts and their gate.

#include "model/weight_builders.h"

namespace vramplan {

void addLinear(WeightList &out, LinearNames names, int64_t in, int64_t outF, bool withBias,
               WeightPlace place, int64_t copies)
{
    out.push_back({names.weight, names.lora, place, outF, in, copies, true, true});
    if (withBias)
        out.push_back({names.bias, {}, place, outF, 1, copies, true, false});
}

const MlpNames denseMlp = {{"mlp.gate_proj.weight", "mlp.gate_proj.bias", "gate_proj"},
                           {"mlp.up_proj.weight", "mlp.up_proj.bias", "up_proj"},
                           {"mlp.down_proj.weight", "mlp.down_proj.bias", "down_proj"}};
const MlpNames sharedMlp = {
    {"shared_experts.gate_proj.weight", "shared_experts.gate_proj.bias", "gate_proj"},
    {"shared_experts.up_proj.weight", "shared_experts.up_proj.bias", "up_proj"},
    {"shared_experts.down_proj.weight", "shared_experts.down_proj.bias", "down_proj"}};
const MlpNames expertMlp = {{"experts.gate_proj.weight", "experts.gate_proj.bias", "gate_proj"},
                            {"experts.up_proj.weight", "experts.up_proj.bias", "up_proj"},
                            {"experts.down_proj.weight", "experts.down_proj.bias", "down_proj"}};
// Experts stored as 3-D parameters (gpt-oss GptOssExperts, Llama 4 Llama4TextExperts): no
// nn.Linear, so no PEFT target name adapts them.
const MlpNames fusedExpertMlp = {
    {"experts.gate_up_proj (gate half)", "experts.gate_up_proj_bias (gate half)", {}},
    {"experts.gate_up_proj (up half)", "experts.gate_up_proj_bias (up half)", {}},
    {"experts.down_proj", "experts.down_proj_bias", {}}};

void addMlp(WeightList &out, const ModelConfig &m, int64_t ffn, WeightPlace place, int64_t copies,
            const MlpNames &names, bool withBias, int64_t width)
{
    const int64_t h = width > 0 ? width : m.hiddenSize;
    if (m.ffnType != FfnType::Gelu)
        addLinear(out, names.gate, h, ffn, withBias, place, copies);
    addLinear(out, names.up, h, ffn, withBias, place, copies);
    addLinear(out, names.down, ffn, h, withBias, place, copies);
}

void addMoeWeights(WeightList &out, const ModelConfig &m)
{
    const int64_t h = m.hiddenSize;
    const auto &moe = m.moe;
    constexpr auto L = WeightPlace::Layer;
    // The router is a linear h -> experts (with a bias in gpt-oss), never quantised or split;
    // DeepSeek-V3's e_score_correction_bias is a buffer (checkpointExtras).
    out.push_back({"router.weight", {}, L, moe.experts, h, 1, false, false});
    if (moe.routerBias)
        out.push_back({"router.bias", {}, L, moe.experts, 1, 1, false, false});
    const int64_t ffn = moe.expertFfnHiddenSize > 0 ? moe.expertFfnHiddenSize : m.ffnHiddenSize;
    const bool fused = m.family == Family::GptOss || m.family == Family::Llama4;
    if (moe.latentSize > 0) {
        // Nemotron 3 Super's latent MoE (NemotronHMoE): the routed experts run in the latent
        // width between fc1_latent_proj (h -> latent) and fc2_latent_proj (latent -> h).
        addLinear(out, {"fc1_latent_proj.weight", "fc1_latent_proj.bias", "fc1_latent_proj"}, h,
                  moe.latentSize, m.bias, L);
        addLinear(out, {"fc2_latent_proj.weight", "fc2_latent_proj.bias", "fc2_latent_proj"},
                  moe.latentSize, h, m.bias, L);
    }
    addMlp(out, m, ffn, WeightPlace::Expert, moe.experts, fused ? fusedExpertMlp : expertMlp,
           m.bias || moe.expertBias, moe.latentSize);
    if (moe.sharedExperts > 0) {
        // The shared experts are one MLP of shared_experts times the width
        // (DeepseekV3MoE: intermediate_size = moe_intermediate_size * n_shared_experts).
        const int64_t sharedFfn =
            moe.sharedExpertFfnHiddenSize > 0 ? moe.sharedExpertFfnHiddenSize : ffn;
        addMlp(out, m, sharedFfn * moe.sharedExperts, L, 1, sharedMlp, m.bias);
    }
    if (m.family == Family::Ernie45Moe) // moe_statics: a frozen nn.Parameter [1, experts]
        out.push_back({"moe_statics.e_score_correction_bias", {}, L, moe.experts, 1, 1, false,
                       false});
    if (moe.sharedExpertGate) // Qwen2MoeSparseMoeBlock.shared_expert_gate: Linear(h, 1)
        out.push_back({"shared_expert_gate.weight", {}, L, 1, h, 1, false, false});
    if (moe.denseBesideExperts) {
        // Gemma 4's MoE layer (Gemma4TextDecoderLayer with enable_moe_block): the dense MLP runs
        // beside the experts; the router (Gemma4TextRouter) has a scale per hidden unit and per
        // expert, and three more RMSNorms wrap the two branches.
        addMlp(out, m, m.ffnHiddenSize, L, 1, denseMlp, m.bias);
        out.push_back({"router.scale", {}, L, h, 1, 1, false, false});
        out.push_back({"router.per_expert_scale", {}, L, moe.experts, 1, 1, false, false});
        out.push_back({"pre_feedforward_layernorm_2.weight", {}, L, h, 1, 1, false, false});
        out.push_back({"post_feedforward_layernorm_1.weight", {}, L, h, 1, 1, false, false});
        out.push_back({"post_feedforward_layernorm_2.weight", {}, L, h, 1, 1, false, false});
    }
}

} // namespace vramplan
