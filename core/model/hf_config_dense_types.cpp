// Hugging Face configs of dense attention models read as Llama-like fields plus their own:
// OLMo 3, GLM-4 (0414), ChatGLM 2/3 and GLM-4-9B-chat (THUDM remote code), InternLM 2/2.5 and 3
// (remote code), Hunyuan dense, ERNIE 4.5. Each key and its default follow the configuration
// class (or the remote code's) of the type.

#include "model/hf_reader.h"

namespace vramplan {

using nlohmann::json;

bool denseModelFields(const json &config, const std::string &type, HfReader &r, json &m)
{
    (void)config;
    if (type == "olmo3") {
        // Olmo3 is OLMo 2's layer (q/k norms over the whole projection, norms after the
        // sublayers) with three sliding-window layers to one full (layer_types).
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = llamaLikeFields(r, "olmo3", false);
        m["qk_norm"] = "full";
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
        readSlidingLayers(r, m, layers, 4, r.integer({"sliding_window"}, 4096, 0));
    } else if (type == "glm4") {
        // Glm4ForCausalLM (GLM-4-0414): q, k and v biases (attention_bias, default true), a fused
        // gate_up_proj and four RMSNorms per layer.
        m = llamaLikeFields(r, "glm4", false, 128);
        m["qkv_bias"] = r.boolean("attention_bias", true);
        m["norms_per_layer"] = 4;
    } else if (type == "chatglm") {
        // THUDM's ChatGLMForConditionalGeneration (ChatGLM2/3, GLM-4-9B-chat): query_key_value of
        // heads + 2 * multi_query_group_num heads of kv_channels, dense, a packed SwiGLU
        // (dense_h_to_4h of 2 * ffn_hidden_size), a separate output_layer.
        const int64_t h = r.integer({"hidden_size"});
        const int64_t heads = r.integer({"num_attention_heads"});
        const bool multiQuery = r.boolean("multi_query_attention", false);
        const bool linearBias = r.boolean("add_bias_linear", false);
        m = {{"family", "chatglm"},
             {"layers", r.integer({"num_layers", "num_hidden_layers"})},
             {"hidden_size", h},
             {"attention_heads", heads},
             {"kv_heads", multiQuery ? r.integer({"multi_query_group_num"}, 1) : heads},
             {"head_dim", r.integer({"kv_channels"}, h / std::max<int64_t>(1, heads))},
             {"ffn_hidden_size", r.integer({"ffn_hidden_size"})},
             {"vocab_size", r.integer({"padded_vocab_size", "vocab_size"})},
             {"max_positions", r.integer({"seq_length", "max_position_embeddings"}, 8192)},
             {"tied_embeddings", false},
             {"norm", r.boolean("rmsnorm", true) ? "rmsnorm" : "layernorm"},
             {"bias", linearBias},
             {"qkv_bias", linearBias || r.boolean("add_qkv_bias", false)}};
    } else if (type == "internlm2") {
        // InternLM2ForCausalLM: a fused wqkv of (heads + 2 * kv heads) * head_dim, wo, w1/w3/w2,
        // every linear biased by `bias`; head_dim is hidden / heads.
        m = llamaLikeFields(r, "internlm2", false);
        m["bias"] = r.boolean("bias", false);
    } else if (type == "internlm3") {
        // InternLM3ForCausalLM: Llama's layout with head_dim; q/k/v biased by qkv_bias, o_proj
        // and the MLP by bias.
        m = llamaLikeFields(r, "internlm3", false);
        m["qkv_bias"] = r.boolean("qkv_bias", false);
        m["bias"] = r.boolean("bias", false) && r.boolean("qkv_bias", false);
    } else if (type == "hunyuan_v1_dense") {
        // HunYuanDenseV1ForCausalLM: Llama's layout with query_layernorm and key_layernorm over
        // head_dim (use_qk_norm).
        m = llamaLikeFields(r, "hunyuan_v1_dense", false);
        m["qk_norm"] = r.boolean("use_qk_norm", true) ? "head" : "none";
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
    } else if (type == "ernie4_5") {
        // Ernie4_5ForCausalLM: Llama's layout with head_dim; every linear (and an untied head)
        // biased by use_bias; embeddings tied by default.
        m = llamaLikeFields(r, "ernie4_5", true);
        const bool bias = r.boolean("use_bias", false);
        m["bias"] = bias;
        m["lm_head_bias"] = bias && !m["tied_embeddings"].get<bool>();
    } else {
        return false;
    }
    return true;
}

} // namespace vramplan
