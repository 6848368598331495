// Hugging Face configs of mixture-of-experts models beyond the Llama-like ones: DeepSeek-V3.2 and
// GLM-5 (multi-head latent attention with DeepSeek's sparse-attention indexer), MiniMax-M2,
// Qwen2-MoE (Qwen1.5-MoE, Qwen2-57B), Hunyuan MoE, ERNIE 4.5 MoE. Each key and its default follow
// the transformers configuration class of the type.

#include "model/hf_reader.h"

#include <string>

namespace vramplan {

using nlohmann::json;

namespace {

// A key that older configs give per layer (Hunyuan's moe_topk, moe_intermediate_size): one
// value for every layer, or the list's values if they are all equal.
int64_t perLayerConstant(HfReader &r, const char *key, int64_t fallback)
{
    const json &config = r.config();
    const auto it = config.find(key);
    if (it == config.end() || !it->is_array())
        return r.integer({key}, fallback);
    if (it->empty() || !(*it)[0].is_number_integer()) {
        r.fail(key, "must be a whole number or a list of them, got " + describeJson(*it));
        return fallback > 0 ? fallback : 1;
    }
    const int64_t first = (*it)[0].get<int64_t>();
    for (const auto &v : *it)
        if (!v.is_number_integer() || v.get<int64_t>() != first) {
            r.fail(key, "differs between layers; one value for every layer is supported");
            return first > 0 ? first : 1;
        }
    if (first < 1)
        r.fail(key, "must be >= 1, got " + std::to_string(first));
    return first;
}

// DeepSeek-V3.2 (DeepseekV32Config) and GLM-5 (GlmMoeDsaConfig): DeepSeek-V3's layout, and the
// lightning indexer in every layer (index_n_heads x index_head_dim, top index_topk keys).
bool sparseAttentionFields(const json &config, const std::string &type, HfReader &r, json &m,
                           const std::string &path)
{
    if (!newerModelFields(config, "deepseek_v3", r, m, path) || !r.ok())
        return true;
    const bool glm = type == "glm_moe_dsa";
    m["family"] = type;
    m["indexer"] = {{"heads", r.integer({"index_n_heads"}, glm ? 32 : 64)},
                    {"head_dim", r.integer({"index_head_dim"}, 128)},
                    {"top_k", r.integer({"index_topk"}, 2048)}};
    const int64_t layers = m["layers"].get<int64_t>();
    m["layer_types"] = json::array();
    for (int64_t i = 0; i < layers; ++i)
        m["layer_types"].push_back("sparse_attention");
    return true;
}

} // namespace

bool moeModelFields(const json &config, const std::string &type, HfReader &r, json &m,
                    const std::string &path)
{
    if (type == "deepseek_v32" || type == "glm_moe_dsa") {
        return sparseAttentionFields(config, type, r, m, path);
    } else if (type == "minimax_m2") {
        // MiniMaxM2ForCausalLM: q/k RMSNorms over the whole projection (qk_norm_type per_layer),
        // routed experts of intermediate_size in every layer, a sigmoid router with an
        // e_score_correction_bias buffer (use_routing_bias); no shared expert.
        m = llamaLikeFields(r, "minimax_m2", false, 128);
        m["qk_norm"] = r.boolean("use_qk_norm", true) ? "full" : "none";
        json moe = {{"experts", r.integer({"num_local_experts"}, 256)},
                    {"experts_per_token", r.integer({"num_experts_per_tok"}, 8)},
                    {"expert_ffn_hidden_size", r.integer({"intermediate_size"})},
                    {"router", r.string("scoring_func", "sigmoid") == "sigmoid" ? "sigmoid"
                                                                                 : "softmax"},
                    {"score_correction_bias", r.boolean("use_routing_bias", true)}};
        checkExperts(r, moe, "num_experts_per_tok", "num_local_experts");
        m["moe"] = moe;
    } else if (type == "qwen2_moe") {
        // Qwen2MoeForCausalLM: q/k/v biases (qkv_bias), routed experts where i is not in
        // mlp_only_layers and (i + 1) % decoder_sparse_step == 0, one shared expert with its
        // sigmoid gate; dense MLPs of intermediate_size elsewhere.
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = llamaLikeFields(r, "qwen2_moe", false);
        m["qkv_bias"] = r.boolean("qkv_bias", true);
        json moe = {{"experts", r.integer({"num_experts"}, 60)},
                    {"experts_per_token", r.integer({"num_experts_per_tok"}, 4)},
                    {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"}, 1408)},
                    {"shared_experts", 1},
                    {"shared_expert_ffn_hidden_size",
                     r.integer({"shared_expert_intermediate_size"}, 5632)},
                    {"shared_expert_gate", true},
                    {"normalize_top_k", r.boolean("norm_topk_prob", false)},
                    {"layer_step", r.integer({"decoder_sparse_step"}, 1)}};
        checkExperts(r, moe, "num_experts_per_tok", "num_experts");
        m["moe"] = moe;
        const auto it = config.find("mlp_only_layers");
        if (it != config.end() && it->is_array() && !it->empty()) {
            const int64_t step = moe["layer_step"].get<int64_t>();
            std::string mlps;
            for (int64_t i = 0; i < layers; ++i)
                mlps += (i + 1) % step == 0 ? 'e' : 'd';
            for (const auto &v : *it)
                if (v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<int64_t>() < layers)
                    mlps[size_t(v.get<int64_t>())] = 'd';
            json list = json::array();
            for (char c : mlps)
                list.push_back(c == 'e' ? "moe" : "dense");
            m["mlp_types"] = list;
        }
    } else if (type == "hunyuan_v1_moe") {
        // HunYuanMoEV1ForCausalLM: per-head query/key layernorms; in every layer a shared MLP of
        // intermediate_size * num_shared_expert, the gate wg and num_experts experts.
        m = llamaLikeFields(r, "hunyuan_v1_moe", false);
        m["qk_norm"] = r.boolean("use_qk_norm", true) ? "head" : "none";
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
        const int64_t shared = perLayerConstant(r, "num_shared_expert", 1);
        json moe = {{"experts", perLayerConstant(r, "num_experts", 64)},
                    {"experts_per_token", perLayerConstant(r, "moe_topk", 8)},
                    {"expert_ffn_hidden_size",
                     perLayerConstant(r, "moe_intermediate_size", m["ffn_hidden_size"])},
                    {"shared_experts", shared},
                    {"shared_expert_ffn_hidden_size", m["ffn_hidden_size"]}};
        checkExperts(r, moe, "moe_topk", "num_experts");
        m["moe"] = moe;
    } else if (type == "ernie4_5_moe") {
        // Ernie4_5_MoeForCausalLM: routed experts in layers moe_layer_start_index ..
        // moe_layer_end_index every moe_layer_interval, with shared experts and a
        // moe_statics.e_score_correction_bias parameter per MoE layer; dense MLPs elsewhere.
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = llamaLikeFields(r, "ernie4_5_moe", true);
        const bool bias = r.boolean("use_bias", false);
        m["bias"] = bias;
        m["lm_head_bias"] = bias && !m["tied_embeddings"].get<bool>();
        const int64_t start = r.integer({"moe_layer_start_index"}, 1, 0);
        const int64_t interval = r.integer({"moe_layer_interval"}, 1);
        const json end = r.config().value("moe_layer_end_index", json(-1));
        const int64_t last = end.is_number_integer() && end.get<int64_t>() >= 0
                                 ? end.get<int64_t>()
                                 : layers - 1;
        const int64_t width = r.integer({"moe_intermediate_size"}, 1536);
        json moe = {{"experts", r.integer({"moe_num_experts"}, 64)},
                    {"experts_per_token", r.integer({"moe_k"}, 6)},
                    {"expert_ffn_hidden_size", width},
                    {"shared_experts", r.integer({"moe_num_shared_experts"}, 0, 0)},
                    {"shared_expert_ffn_hidden_size", width}};
        checkExperts(r, moe, "moe_k", "moe_num_experts");
        m["moe"] = moe;
        json list = json::array();
        for (int64_t i = 0; i < layers; ++i)
            list.push_back((i + 1) % interval == 0 && i >= start && i <= last ? "moe" : "dense");
        m["mlp_types"] = list;
    } else {
        return false;
    }
    return true;
}

} // namespace vramplan
