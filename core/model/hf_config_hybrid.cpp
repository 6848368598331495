// Hugging Face configs of hybrid models, whose layers mix attention with Gated DeltaNet
// (Qwen3-Next, Qwen3.5; Kimi Linear's variant in hf_config_kimi.cpp), Mamba2 (Nemotron-H,
// Granite 4.0-H, Falcon-H1) or gated short convolutions (LFM2), read into scenario model fields
// with per-layer `layer_types` and `mlp_types`. Each key and its default follow the transformers
// configuration class of the type.

#include "model/hf_reader.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace vramplan {

const std::initializer_list<const char *> hybridHfModelTypes = {
    "qwen3_next", "qwen3_5",  "qwen3_5_text",     "qwen3_5_moe", "qwen3_5_moe_text",
    "nemotron_h", "granitemoehybrid", "lfm2",     "falcon_h1",   "kimi_linear"};

using nlohmann::json;

// config[key] as a list of strings of one entry per layer (empty when absent); errors name it.
std::vector<std::string> perLayerList(HfReader &r, const char *key, int64_t layers)
{
    std::vector<std::string> out;
    const json &config = r.config();
    const auto it = config.find(key);
    if (it == config.end() || it->is_null())
        return out;
    if (!it->is_array()) {
        r.fail(key, "must be a list of layer types, got " + describeJson(*it));
        return out;
    }
    if (layers >= 0 && int64_t(it->size()) != layers) {
        r.fail(key, "names " + std::to_string(it->size()) + " layers, but num_hidden_layers is " +
                        std::to_string(layers));
        return out;
    }
    for (const auto &entry : *it) {
        if (!entry.is_string()) {
            r.fail(key, "must list strings, holds " + describeJson(entry));
            return {};
        }
        out.push_back(entry.get<std::string>());
    }
    return out;
}

// Per-layer characters into the names of `layer_types` / `mlp_types` (formats/).
json mixerList(const std::string &mixers)
{
    json out = json::array();
    for (char c : mixers)
        out.push_back(c == 'l'   ? "linear_attention"
                      : c == 'm' ? "mamba"
                      : c == 'c' ? "short_conv"
                      : c == 'p' ? "attention_mamba"
                      : c == '-' ? "none"
                                 : "full_attention");
    return out;
}
json mlpList(const std::string &mlps)
{
    json out = json::array();
    for (char c : mlps)
        out.push_back(c == 'e' ? "moe" : c == '-' ? "none" : "dense");
    return out;
}

namespace {

// Which layers are full attention: layer_types where given, else every interval-th layer
// (Qwen3NextConfig / Qwen3_5TextConfig __post_init__: (i + 1) % full_attention_interval == 0).
std::string qwenLinearMixers(HfReader &r, int64_t layers)
{
    std::string mixers;
    const auto types = perLayerList(r, "layer_types", layers);
    const int64_t interval = r.integer({"full_attention_interval"}, 4);
    for (int64_t i = 0; i < layers; ++i) {
        if (!types.empty()) {
            const std::string &t = types[size_t(i)];
            if (t != "linear_attention" && t != "full_attention") {
                r.fail("layer_types", "'" + t + "' is not linear_attention or full_attention");
                return {};
            }
            mixers += t == "linear_attention" ? 'l' : 'a';
        } else {
            mixers += (i + 1) % interval == 0 ? 'a' : 'l';
        }
    }
    return mixers;
}

json linearAttentionFields(HfReader &r)
{
    return {{"key_heads", r.integer({"linear_num_key_heads"}, 16)},
            {"value_heads", r.integer({"linear_num_value_heads"}, 32)},
            {"key_head_dim", r.integer({"linear_key_head_dim"}, 128)},
            {"value_head_dim", r.integer({"linear_value_head_dim"}, 128)},
            {"conv_kernel", r.integer({"linear_conv_kernel_dim"}, 4)}};
}

// The text model of Qwen3-Next and Qwen3.5 (dense or MoE): gated attention with per-head q/k
// norms every few layers, Gated DeltaNet in the others. Qwen3-Next routes by mlp_only_layers and
// decoder_sparse_step; Qwen3.5 is dense or MoE in every layer (Qwen3_5DecoderLayer,
// Qwen3_5MoeDecoderLayer; mlp_only_layers is not read).
json qwenHybridText(HfReader &r, const std::string &family, bool tiedByDefault)
{
    // Qwen3.5-MoE's text config has no intermediate_size (no dense MLP): its expert width stands.
    json m = llamaLikeFields(r, family, tiedByDefault, 256,
                             r.integer({"moe_intermediate_size"}, 512));
    const int64_t layers = m["layers"].get<int64_t>();
    m["qk_norm"] = "head";
    m["attention_output_gate"] = true;
    if (r.boolean("attention_bias", false))
        m["qkv_bias"] = true, m["o_bias"] = true;
    const std::string mixers = qwenLinearMixers(r, layers);
    m["layer_types"] = mixerList(mixers);
    m["linear_attention"] = linearAttentionFields(r);
    const bool moe = family != "qwen3_5";
    std::string mlps;
    if (moe) {
        json experts = {{"experts", r.integer({"num_experts"}, family == "qwen3_next" ? 512 : 256)},
                        {"experts_per_token",
                         r.integer({"num_experts_per_tok"}, family == "qwen3_next" ? 10 : 8)},
                        {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"}, 512)},
                        {"shared_experts", 1},
                        {"shared_expert_ffn_hidden_size",
                         r.integer({"shared_expert_intermediate_size"}, 512)},
                        {"shared_expert_gate", true},
                        {"normalize_top_k", r.boolean("norm_topk_prob", true)}};
        checkExperts(r, experts, "num_experts_per_tok", "num_experts");
        m["moe"] = experts;
        std::vector<int64_t> mlpOnly;
        if (family == "qwen3_next")
            for (const auto &v : r.config().value("mlp_only_layers", json::array()))
                if (v.is_number_integer())
                    mlpOnly.push_back(v.get<int64_t>());
        const int64_t step = family == "qwen3_next" ? r.integer({"decoder_sparse_step"}, 1) : 1;
        for (int64_t i = 0; i < layers; ++i) {
            const bool only = std::find(mlpOnly.begin(), mlpOnly.end(), i) != mlpOnly.end();
            mlps += !only && (i + 1) % step == 0 ? 'e' : 'd';
        }
    } else {
        mlps.assign(layerSlots(layers), 'd');
    }
    m["mlp_types"] = mlpList(mlps);
    // vLLM keeps Qwen3.5's recurrent state in mamba_ssm_dtype (float32 in every official config;
    // Qwen3_5ForConditionalGenerationConfig.verify_and_update_config), Qwen3-Next's in bf16.
    if (family != "qwen3_next" && r.string("mamba_ssm_dtype", "") == "float32")
        m["state_element_bytes"] = 4;
    // The checkpoints keep one multi-token prediction layer (mtp.*) that transformers drops on
    // load (_keys_to_ignore_on_load_unexpected); vLLM's Qwen3NextMultiTokenPredictor reads it.
    m["mtp_layers"] = r.integer({"mtp_num_hidden_layers", "num_nextn_predict_layers"}, 1, 0);
    return m;
}

// Lfm2Config: per layer operator_norm and ffn_norm, a gated short convolution or attention with
// per-head q/k norms (head width hidden / heads), and a SwiGLU MLP whose width follows
// block_auto_adjust_ff_dim, block_ffn_dim_multiplier and block_multiple_of.
json lfm2Fields(HfReader &r)
{
    const int64_t layers = r.integer({"num_hidden_layers"});
    int64_t ffn = r.integer({"block_ff_dim", "intermediate_size"}, 12288);
    if (r.boolean("block_auto_adjust_ff_dim", true)) {
        ffn = 2 * ffn / 3;
        if (const double multiplier = r.number("block_ffn_dim_multiplier", 1.0); multiplier > 0)
            ffn = int64_t(multiplier * double(ffn));
        const int64_t multiple = r.integer({"block_multiple_of"}, 256);
        ffn = multiple * ((ffn + multiple - 1) / multiple);
    }
    std::string mixers;
    const auto types = perLayerList(r, "layer_types", layers);
    if (!types.empty()) {
        for (const auto &t : types) {
            if (t != "conv" && t != "full_attention") {
                r.fail("layer_types", "'" + t + "' is not conv or full_attention");
                return json::object();
            }
            mixers += t == "conv" ? 'c' : 'a';
        }
    } else {
        mixers.assign(layerSlots(layers), 'c');
        for (const auto &i : r.config().value("full_attn_idxs", json::array()))
            if (i.is_number_integer() && i.get<int64_t>() >= 0 && i.get<int64_t>() < layers)
                mixers[size_t(i.get<int64_t>())] = 'a';
    }
    const int64_t heads = r.integer({"num_attention_heads", "num_heads"});
    return {{"family", "lfm2"},
            {"layers", layers},
            {"hidden_size", r.integer({"hidden_size"})},
            {"attention_heads", heads},
            {"kv_heads", r.integer({"num_key_value_heads"}, heads)},
            {"ffn_hidden_size", ffn},
            {"vocab_size", r.integer({"vocab_size"})},
            {"max_positions", r.integer({"max_position_embeddings"}, 128000)},
            {"tied_embeddings",
             r.boolean("tie_embedding", r.boolean("tie_word_embeddings", true))},
            {"qk_norm", "head"},
            {"short_conv_kernel", r.integer({"conv_L_cache"}, 3)},
            {"layer_types", mixerList(mixers)},
            {"mlp_types", mlpList(std::string(layerSlots(layers), 'd'))}};
}

} // namespace

bool hybridModelFields(const json &config, const std::string &type, HfReader &r, json &m)
{
    if (type == "qwen3_next") {
        m = qwenHybridText(r, "qwen3_next", false);
    } else if (type == "qwen3_5_text" || type == "qwen3_5_moe_text") {
        m = qwenHybridText(r, type == "qwen3_5_text" ? "qwen3_5" : "qwen3_5_moe", false);
        // vLLM's float32 state applies to the multimodal architectures only (a
        // Qwen3_5ForCausalLM fine-tune's log shows a bf16 state's block size).
        m.erase("state_element_bytes");
    } else if (type == "qwen3_5" || type == "qwen3_5_moe") {
        // Qwen3_5ForConditionalGeneration: the text model in text_config, the tower in
        // vision_config; the head is tied by the top level's tie_word_embeddings.
        const bool tied = r.boolean("tie_word_embeddings", false);
        m = nested(r, "text_config",
                   [&](HfReader &t) { return qwenHybridText(t, type, tied); });
        if (r.ok() && m.is_object() && !m.empty()) {
            m["tied_embeddings"] = tied;
            if (config.contains("vision_config"))
                m["vision"] = nested(r, "vision_config", qwen3VisionTower);
        }
    } else if (type == "nemotron_h") {
        m = nemotronFields(r);
    } else if (type == "granitemoehybrid") {
        m = graniteHybridFields(r);
    } else if (type == "lfm2") {
        m = lfm2Fields(r);
    } else if (type == "falcon_h1") {
        m = falconH1Fields(r);
    } else if (type == "kimi_linear") {
        m = kimiLinearFields(r); // hf_config_kimi.cpp
    } else {
        return false;
    }
    return true;
}

} // namespace vramplan
