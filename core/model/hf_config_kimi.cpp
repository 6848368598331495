// Hugging Face configs of Kimi Linear (model_type kimi_linear: Moonshot's configuration_kimi.py
// KimiLinearConfig and modeling_kimi.py, transformers' models/kimi_linear): Kimi Delta Attention
// in the layers linear_attn_config lists as kda_layers, 1-based (KimiLinearConfig.is_kda_layer(i)
// tests i + 1), multi-head latent attention without RoPE (mla_use_nope; its tensors are
// DeepSeek-V3's) in the others; a dense SwiGLU MLP before first_k_dense_replace and
// DeepSeek-V3-style experts after it (KimiSparseMoeBlock: a sigmoid router with an
// e_score_correction_bias, num_shared_experts shared experts of moe_intermediate_size each).

#include "model/hf_reader.h"

#include <string>
#include <vector>

namespace vramplan {

using nlohmann::json;

namespace {

// linear_attn_config[key]: 1-based layer numbers, each in 1..layers, into `flags` (0-based).
void readLayerNumbers(HfReader &r, const char *key, int64_t layers, std::vector<char> &flags)
{
    const json &config = r.config();
    const auto it = config.find(key);
    if (it == config.end() || it->is_null())
        return;
    if (!it->is_array()) {
        r.fail(key, "must be a list of layer numbers (from 1), got " + describeJson(*it));
        return;
    }
    for (const auto &n : *it) {
        if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > layers) {
            r.fail(key, "holds " + describeJson(n) + ", not a layer number from 1 to " +
                            std::to_string(layers) + " (the lists count from 1)");
            return;
        }
        flags[size_t(n.get<int64_t>() - 1)] = 1;
    }
}

// linear_attn_config: the KDA layers and their shapes (KimiDeltaAttention: num_heads of head_dim
// for queries, keys and values alike). Kimi K3's variants of the block are refused, not guessed.
json kimiDeltaAttention(HfReader &r, int64_t heads, int64_t layers, std::string &mixers)
{
    std::vector<char> kda(layerSlots(layers), 0), full(layerSlots(layers), 0);
    readLayerNumbers(r, "kda_layers", layers, kda);
    readLayerNumbers(r, "full_attn_layers", layers, full);
    for (size_t i = 0; i < kda.size() && r.ok(); ++i)
        if (kda[i] && full[i])
            r.fail("kda_layers", "and full_attn_layers both name layer " + std::to_string(i + 1));
    if (r.boolean("use_full_rank_gate", false))
        r.fail("use_full_rank_gate", "is true (Kimi K3's full-rank gates): not modelled");
    mixers.clear();
    for (char k : kda)
        mixers += k ? 'l' : 'a';
    const int64_t kdaHeads = r.integer({"num_heads"}, heads);
    const int64_t headDim = r.integer({"head_dim"}, 128);
    return {{"key_heads", kdaHeads},
            {"value_heads", kdaHeads},
            {"key_head_dim", headDim},
            {"value_head_dim", headDim},
            {"conv_kernel", r.integer({"short_conv_kernel_size"}, 4)},
            {"per_channel_gate", true}};
}

} // namespace

json kimiLinearFields(HfReader &r)
{
    const int64_t layers = r.integer({"num_hidden_layers"});
    const int64_t heads = r.integer({"num_attention_heads"});
    for (const char *k3 :
         {"mla_use_output_gate", "routed_expert_hidden_size", "attn_res_block_size"})
        if (r.has(k3) && r.config()[k3] != false)
            r.fail(k3, "is a Kimi K3 feature vramplan does not model");
    json m = mlaDecoderFields(r, "kimi_linear", layers, heads);
    std::string mixers(layerSlots(layers), 'a');
    if (r.has("linear_attn_config")) {
        json la = nested(r, "linear_attn_config", [&](HfReader &inner) {
            return kimiDeltaAttention(inner, heads, layers, mixers);
        });
        if (mixers.find('l') != std::string::npos)
            m["linear_attention"] = la;
    }
    m["layer_types"] = mixerList(mixers);
    // KimiDecoderLayer: experts where num_experts is set, layer_idx >= first_k_dense_replace and
    // layer_idx % moe_layer_freq == 0; a dense MLP of intermediate_size elsewhere.
    const int64_t experts = r.integer({"num_experts"}, 0, 0);
    const int64_t dense = r.integer({"first_k_dense_replace"}, 0, 0);
    const int64_t every = r.integer({"moe_layer_freq"}, 1);
    std::string mlps;
    for (int64_t i = 0; i < int64_t(layerSlots(layers)); ++i)
        mlps += experts > 0 && i >= dense && i % every == 0 ? 'e' : 'd';
    m["mlp_types"] = mlpList(mlps);
    if (experts > 0) {
        json moe = {{"experts", experts},
                    {"experts_per_token", r.integer({"num_experts_per_token"})},
                    {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"})},
                    {"shared_experts", r.integer({"num_shared_experts"}, 0, 0)},
                    {"dense_layers", dense},
                    {"layer_step", 1},
                    {"normalize_top_k", r.boolean("moe_renormalize", true)},
                    {"router", r.string("moe_router_activation_func", "sigmoid") == "softmax"
                                   ? "softmax"
                                   : "sigmoid"},
                    {"score_correction_bias", true}};
        checkExperts(r, moe, "num_experts_per_token", "num_experts");
        m["moe"] = moe;
    }
    // vLLM keeps the KDA recurrent state in float32 whatever the model's dtype
    // (MambaStateDtypeCalculator.kda_state_dtype); the convolution windows in the model's.
    m["state_element_bytes"] = 4;
    return m;
}

} // namespace vramplan
