// Hugging Face configs of vision-language models whose vision tower vramplan counts: Gemma 4
// (its text model too: sliding and global attention of different head widths, a MoE block beside
// the dense MLP), Qwen2.5-VL and Qwen3-VL (dense or MoE text models). Qwen3.5's tower is read
// with its hybrid text model (hf_config_hybrid.cpp).

#include "model/hf_reader.h"

#include <string>

namespace vramplan {

using nlohmann::json;

namespace {

// Gemma4TextConfig: per layer_types (default: five sliding to one full), sliding layers of
// head_dim and num_key_value_heads, global layers of global_head_dim with, under
// attention_k_eq_v, num_global_key_value_heads and keys that serve as values; four RMSNorms, and
// with enable_moe_block routed experts beside the dense MLP.
json gemma4Text(HfReader &r)
{
    const int64_t layers = r.integer({"num_hidden_layers"});
    json m = llamaLikeFields(r, "gemma4", true, 256);
    m["hidden_act"] = "gelu";
    m["ffn_type"] = "geglu";
    m["qk_norm"] = "head";
    m["value_norm"] = true;
    m["norms_per_layer"] = 4;
    if (r.boolean("attention_bias", false))
        m["qkv_bias"] = true, m["o_bias"] = true;
    if (r.integer({"hidden_size_per_layer_input"}, 0, 0) > 0 ||
        r.integer({"num_kv_shared_layers"}, 0, 0) > 0)
        r.fail("hidden_size_per_layer_input",
               "per-layer input embeddings and shared KV layers (Gemma 4 E2B/E4B) are not "
               "supported; the 26B and 31B layouts are");
    if (const double cap = r.number("final_logit_softcapping", 0); cap > 0)
        m["final_softcap"] = cap;
    const bool keyIsValue = r.boolean("attention_k_eq_v", false);
    const int64_t kvHeads = m["kv_heads"].get<int64_t>();
    m["global_head_dim"] = r.integer({"global_head_dim"}, m["head_dim"].get<int64_t>());
    m["global_kv_heads"] =
        keyIsValue ? r.integer({"num_global_key_value_heads"}, kvHeads) : kvHeads;
    m["global_key_is_value"] = keyIsValue;
    json types = json::array();
    const json &config = r.config();
    const auto it = config.find("layer_types");
    if (it != config.end() && it->is_array() && int64_t(it->size()) != layers)
        r.fail("layer_types", "names " + std::to_string(it->size()) +
                                  " layers, but num_hidden_layers is " + std::to_string(layers));
    for (int64_t i = 0; i < layers && r.ok(); ++i) {
        std::string t = (i + 1) % 6 == 0 ? "full_attention" : "sliding_attention";
        if (it != config.end() && it->is_array() && (*it)[size_t(i)].is_string())
            t = (*it)[size_t(i)].get<std::string>();
        types.push_back(t == "sliding_attention" ? "sliding_attention" : "global_attention");
    }
    m["layer_types"] = types;
    m["sliding_window"] = r.integer({"sliding_window"}, 1024, 0);
    if (r.boolean("enable_moe_block", false)) {
        json moe = {{"experts", r.integer({"num_experts"})},
                    {"experts_per_token", r.integer({"top_k_experts"})},
                    {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"})},
                    {"dense_beside_experts", true}};
        checkExperts(r, moe, "top_k_experts", "num_experts");
        m["moe"] = moe;
        json mlps = json::array();
        for (int64_t i = 0; i < layers; ++i)
            mlps.push_back("moe");
        m["mlp_types"] = mlps;
    }
    return m;
}

// Gemma4VisionConfig: the tower's blocks and its projection to the text width.
json gemma4Tower(HfReader &r, int64_t textWidth)
{
    const int64_t heads = r.integer({"num_attention_heads"}, 16);
    if (r.integer({"num_key_value_heads"}, heads) != heads)
        r.fail("num_key_value_heads", "grouped key/value heads in the vision tower are not "
                                      "supported");
    return {{"tower", "gemma4"},
            {"depth", r.integer({"num_hidden_layers"}, 27)},
            {"hidden_size", r.integer({"hidden_size"}, 1152)},
            {"intermediate_size", r.integer({"intermediate_size"}, 4304)},
            {"heads", heads},
            {"head_dim", r.integer({"head_dim"}, 72)},
            {"patch_size", r.integer({"patch_size"}, 16)},
            {"position_embeddings", r.integer({"position_embedding_size"}, 10240)},
            {"out_hidden_size", textWidth}};
}

// Qwen2_5_VLVisionConfig's defaults (the 7B config gives only hidden_size and the patch): depth
// 32, intermediate 3420, 16 heads, patch 14, merge 2, out_hidden_size the text width.
json qwen25Tower(HfReader &r, int64_t textWidth)
{
    return {{"tower", "qwen2_5_vl"},
            {"depth", r.integer({"depth"}, 32)},
            {"hidden_size", r.integer({"hidden_size"}, 3584)},
            {"intermediate_size", r.integer({"intermediate_size"}, 3420)},
            {"heads", r.integer({"num_heads"}, 16)},
            {"patch_size", r.integer({"patch_size", "spatial_patch_size"}, 14)},
            {"temporal_patch_size", r.integer({"temporal_patch_size"}, 2)},
            {"spatial_merge", r.integer({"spatial_merge_size"}, 2)},
            {"out_hidden_size", r.integer({"out_hidden_size"}, textWidth)},
            {"in_channels", r.integer({"in_channels", "in_chans"}, 3)}};
}

} // namespace

// Qwen3VLVisionConfig (Qwen3.5's tower has the same blocks): learned positions, deepstack
// mergers for each of deepstack_visual_indexes.
json qwen3VisionTower(HfReader &r)
{
    int64_t deepstack = 0;
    if (const auto it = r.config().find("deepstack_visual_indexes");
        it != r.config().end() && it->is_array())
        deepstack = int64_t(it->size());
    return {{"tower", "qwen3_vl"},
            {"depth", r.integer({"depth"}, 27)},
            {"hidden_size", r.integer({"hidden_size"}, 1152)},
            {"intermediate_size", r.integer({"intermediate_size"}, 4304)},
            {"heads", r.integer({"num_heads"}, 16)},
            {"patch_size", r.integer({"patch_size"}, 16)},
            {"temporal_patch_size", r.integer({"temporal_patch_size"}, 2)},
            {"spatial_merge", r.integer({"spatial_merge_size"}, 2)},
            {"out_hidden_size", r.integer({"out_hidden_size"}, 3584)},
            {"position_embeddings", r.integer({"num_position_embeddings"}, 2304)},
            {"deepstack_mergers", deepstack},
            {"in_channels", r.integer({"in_channels"}, 3)}};
}

namespace {

// Qwen3-VL's text model: Qwen3 (per-head q/k norms), dense or with Qwen3-MoE's experts.
json qwen3VlText(HfReader &r)
{
    json m = llamaLikeFields(r, "qwen3_vl", false, 128,
                             r.integer({"moe_intermediate_size"}, 768));
    m["qk_norm"] = "head";
    if (r.boolean("attention_bias", false))
        m["qkv_bias"] = true, m["o_bias"] = true;
    if (r.has("num_experts") && r.integer({"num_experts"}, 0, 0) > 0) {
        json moe = {{"experts", r.integer({"num_experts"})},
                    {"experts_per_token", r.integer({"num_experts_per_tok"}, 8)},
                    {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"})},
                    {"normalize_top_k", r.boolean("norm_topk_prob", true)},
                    {"layer_step", r.integer({"decoder_sparse_step"}, 1)}};
        checkExperts(r, moe, "num_experts_per_tok", "num_experts");
        m["moe"] = moe;
    }
    return m;
}

} // namespace

bool multimodalModelFields(const json &config, const std::string &type, HfReader &r, json &m)
{
    if (type == "gemma4") {
        m = nested(r, "text_config", gemma4Text);
        if (!r.ok())
            return true;
        m["tied_embeddings"] = r.boolean("tie_word_embeddings", true);
        const int64_t width = m["hidden_size"].get<int64_t>();
        if (config.contains("vision_config") && config["vision_config"].is_object())
            m["vision"] = nested(r, "vision_config",
                                 [width](HfReader &v) { return gemma4Tower(v, width); });
        if (config.contains("audio_config") && !config["audio_config"].is_null())
            r.fail("audio_config", "an audio tower (Gemma 4 E2B/E4B) is not supported");
    } else if (type == "qwen2_5_vl") {
        // Older configs keep the text model's keys at the top level, newer ones in text_config.
        const auto text = [](HfReader &t) {
            json fields = llamaLikeFields(t, "qwen2_5_vl", false);
            fields["qkv_bias"] = true;
            return fields;
        };
        m = config.contains("text_config") ? nested(r, "text_config", text) : text(r);
        if (!r.ok())
            return true;
        const int64_t width = m["hidden_size"].get<int64_t>();
        m["vision"] = nested(r, "vision_config",
                             [width](HfReader &v) { return qwen25Tower(v, width); });
    } else if (type == "qwen3_vl" || type == "qwen3_vl_moe") {
        m = nested(r, "text_config", qwen3VlText);
        if (!r.ok())
            return true;
        m["tied_embeddings"] = r.boolean("tie_word_embeddings", false);
        m["vision"] = nested(r, "vision_config", qwen3VisionTower);
    } else {
        return false;
    }
    return true;
}

} // namespace vramplan
