// Hugging Face config.json of the 2024-2026 model types, read into scenario model fields.
// Each key and its default follow the transformers configuration class of the type
// (configuration_<type>.py, v4.56): a key the checkpoint leaves out takes that class's default.

#include "model/hf_reader.h"

#include <string>

namespace vramplan {

const std::initializer_list<const char *> newerHfModelTypes = {
    "qwen3",  "qwen3_moe", "deepseek_v2", "deepseek_v3", "kimi_k2", "llama4",      "llama4_text",
    "gpt_oss", "gemma2",   "gemma3",      "gemma3_text", "olmo2",   "granite", "smollm3",
    "glm4_moe"};

using nlohmann::json;

// Attention and the dense MLP, as the Llama-style types write them (hf_reader.h).
json llamaLikeFields(HfReader &r, const std::string &family, bool tiedByDefault,
                     int64_t headDimDefault, int64_t ffnDefault)
{
    const int64_t heads = r.integer({"num_attention_heads"});
    json m = {{"family", family},
              {"layers", r.integer({"num_hidden_layers"})},
              {"hidden_size", r.integer({"hidden_size"})},
              {"attention_heads", heads},
              {"kv_heads", r.integer({"num_key_value_heads"}, heads)},
              {"ffn_hidden_size", r.integer({"intermediate_size"}, ffnDefault)},
              {"vocab_size", r.integer({"vocab_size"})},
              {"max_positions", r.integer({"max_position_embeddings"}, 4096)},
              {"tied_embeddings", r.boolean("tie_word_embeddings", tiedByDefault)},
              {"hidden_act", hfActivation(r.string("hidden_act", "silu"))}};
    if (r.has("head_dim"))
        m["head_dim"] = r.integer({"head_dim"});
    else if (headDimDefault > 0)
        m["head_dim"] = headDimDefault;
    return m;
}

// Sliding-window layers: from layer_types (transformers >= 4.53) where given, else from the
// type's fixed pattern: every `period`-th layer (1-based) is a full-attention layer.
void readSlidingLayers(HfReader &r, json &m, int64_t layers, int64_t period, int64_t window)
{
    if (window <= 0)
        return;
    int64_t sliding = 0;
    const json &config = r.config();
    if (const auto it = config.find("layer_types"); it != config.end() && !it->is_null()) {
        if (!it->is_array()) {
            r.fail("layer_types", "must be a list of layer types, got " +
                                      describeJson(*it));
            return;
        }
        if (int64_t(it->size()) != layers) {
            r.fail("layer_types", "names " + std::to_string(it->size()) +
                                      " layers, but num_hidden_layers is " +
                                      std::to_string(layers));
            return;
        }
        for (const auto &t : *it)
            if (t.is_string() && (t.get_ref<const std::string &>() == "sliding_attention" ||
                                  t.get_ref<const std::string &>() == "chunked_attention"))
                ++sliding;
    } else {
        sliding = period > 0 ? layers - layers / period : layers;
    }
    if (sliding > 0) {
        m["sliding_window"] = window;
        m["sliding_layers"] = sliding;
    }
}

// The routed-expert keys shared by DeepSeek-V2/V3, Kimi-K2 and GLM-4.5.
json deepseekStyleMoe(HfReader &r, int64_t layers)
{
    json moe = {{"experts", r.integer({"n_routed_experts"})},
                {"experts_per_token", r.integer({"num_experts_per_tok"})},
                {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"})},
                {"shared_experts", r.integer({"n_shared_experts"}, 0, 0)},
                {"dense_layers", r.integer({"first_k_dense_replace"}, 0, 0)},
                {"normalize_top_k", r.boolean("norm_topk_prob", false)}};
    // DeepSeek-V2 routes layer i when i % moe_layer_freq == 0; every published config has 1.
    if (r.integer({"moe_layer_freq"}, 1) != 1)
        r.fail("moe_layer_freq", "only 1 (every layer after first_k_dense_replace) is supported");
    (void)layers; // first_k_dense_replace >= layers is a dense model, as in transformers
    return moe;
}

void checkExperts(HfReader &r, const json &moe, const char *topKKey, const char *expertsKey)
{
    if (moe["experts_per_token"].get<int64_t>() > moe["experts"].get<int64_t>())
        r.fail(topKKey, std::to_string(moe["experts_per_token"].get<int64_t>()) +
                            " exceeds " + expertsKey + " " +
                            std::to_string(moe["experts"].get<int64_t>()));
}

json mlaDecoderFields(HfReader &r, const char *family, int64_t layers, int64_t heads)
{
    return {{"family", family},
            {"layers", layers},
            {"hidden_size", r.integer({"hidden_size"})},
            {"attention_heads", heads},
            {"kv_heads", heads},
            {"head_dim", r.integer({"v_head_dim"}, 128)},
            {"ffn_hidden_size", r.integer({"intermediate_size"})},
            {"vocab_size", r.integer({"vocab_size"})},
            {"max_positions", r.integer({"max_position_embeddings", "model_max_length"}, 4096)},
            {"tied_embeddings", r.boolean("tie_word_embeddings", false)},
            {"hidden_act", hfActivation(r.string("hidden_act", "silu"))},
            {"mla", mlaFields(r)},
            {"mtp_layers", r.integer({"num_nextn_predict_layers"}, 0, 0)}};
}

json mlaFields(HfReader &r)
{
    return {{"q_lora_rank", r.integer({"q_lora_rank"}, 0, 0)},
            {"kv_lora_rank", r.integer({"kv_lora_rank"})},
            {"qk_rope_head_dim", r.integer({"qk_rope_head_dim"}, 64, 0)},
            {"qk_nope_head_dim", r.integer({"qk_nope_head_dim"}, 128, 0)},
            {"v_head_dim", r.integer({"v_head_dim"}, 128)}};
}

namespace {

// Llama 4's text model (Llama4TextConfig), alone or inside the multimodal config.
json llama4Fields(HfReader &r)
{
    const int64_t heads = r.integer({"num_attention_heads"}, 40);
    const int64_t layers = r.integer({"num_hidden_layers"}, 48);
    json m = {{"family", "llama4"},
              {"layers", layers},
              {"hidden_size", r.integer({"hidden_size"}, 5120)},
              {"attention_heads", heads},
              {"kv_heads", r.integer({"num_key_value_heads"}, 8)},
              {"head_dim", r.integer({"head_dim"}, 128)},
              // Dense layers use intermediate_size_mlp; experts and the shared expert
              // intermediate_size (modeling_llama4.py Llama4TextDecoderLayer).
              {"ffn_hidden_size", r.integer({"intermediate_size_mlp"}, 16384)},
              {"vocab_size", r.integer({"vocab_size"}, 202048)},
              {"max_positions", r.integer({"max_position_embeddings"}, 131072)},
              {"tied_embeddings", r.boolean("tie_word_embeddings", false)},
              {"hidden_act", hfActivation(r.string("hidden_act", "silu"))},
              {"qk_norm", r.boolean("use_qk_norm", true) ? "l2" : "none"}};
    json moe = {{"experts", r.integer({"num_local_experts"}, 16)},
                {"experts_per_token", r.integer({"num_experts_per_tok"}, 1)},
                {"expert_ffn_hidden_size", r.integer({"intermediate_size"}, 8192)},
                {"shared_experts", 1},
                {"layer_step", r.integer({"interleave_moe_layer_step"}, 1)}};
    checkExperts(r, moe, "num_experts_per_tok", "num_local_experts");
    m["moe"] = moe;
    // Chunked attention on the rope layers; every fourth layer (no_rope_layers) attends to the
    // whole sequence (Llama4TextConfig: no_rope_layer_interval 4, attention_chunk_size 8192).
    readSlidingLayers(r, m, layers, r.integer({"no_rope_layer_interval"}, 4),
                      r.integer({"attention_chunk_size"}, 8192, 0));
    return m;
}

// Gemma 3's text model (Gemma3TextConfig defaults), alone or inside the multimodal config.
json gemma3Fields(HfReader &r)
{
    const int64_t layers = r.integer({"num_hidden_layers"}, 26);
    json m = {{"family", "gemma3"},
              {"layers", layers},
              {"hidden_size", r.integer({"hidden_size"}, 2304)},
              {"attention_heads", r.integer({"num_attention_heads"}, 8)},
              {"kv_heads", r.integer({"num_key_value_heads"}, 4)},
              {"head_dim", r.integer({"head_dim"}, 256)},
              {"ffn_hidden_size", r.integer({"intermediate_size"}, 9216)},
              {"vocab_size", r.integer({"vocab_size"}, 262208)},
              {"max_positions", r.integer({"max_position_embeddings"}, 131072)},
              {"tied_embeddings", r.boolean("tie_word_embeddings", true)},
              {"hidden_act", "gelu"}};
    if (const double cap = r.number("final_logit_softcapping", 0); cap > 0)
        m["final_softcap"] = cap;
    if (const double cap = r.number("attn_logit_softcapping", 0); cap > 0)
        m["attention_softcap"] = cap;
    readSlidingLayers(r, m, layers, r.integer({"sliding_window_pattern"}, 6),
                      r.integer({"sliding_window"}, 4096, 0));
    return m;
}

} // namespace

bool newerModelFields(const json &config, const std::string &type, HfReader &r, json &m,
                      const std::string &path)
{
    (void)path;
    if (type == "qwen3" || type == "olmo2" || type == "granite" || type == "smollm3") {
        // Llama's layout; Qwen3 adds per-head q/k norms, OLMo 2 full-width q/k norms after its
        // sublayers; Granite's multipliers and SmolLM3's NoPE layers change no shape.
        // SmolLM3Config ties its embeddings by default; the others do not.
        m = llamaLikeFields(r, type, type == "smollm3");
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
        if (r.boolean("mlp_bias", false))
            m["bias"] = true;
    } else if (type == "qwen3_moe") {
        m = llamaLikeFields(r, "qwen3_moe", false);
        json moe = {{"experts", r.integer({"num_experts"})},
                    {"experts_per_token", r.integer({"num_experts_per_tok"})},
                    {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"})},
                    {"layer_step", r.integer({"decoder_sparse_step"}, 1)},
                    {"normalize_top_k", r.boolean("norm_topk_prob", false)}};
        checkExperts(r, moe, "num_experts_per_tok", "num_experts");
        if (const auto it = config.find("mlp_only_layers");
            it != config.end() && it->is_array() && !it->empty())
            r.fail("mlp_only_layers", "a list of dense layers is not supported (only [])");
        m["moe"] = moe;
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
    } else if (type == "deepseek_v2" || type == "deepseek_v3" || type == "kimi_k2") {
        // Kimi-K2 uses DeepSeek-V3's layout (its config names DeepseekV3ForCausalLM).
        const bool v3 = type != "deepseek_v2";
        const int64_t heads = r.integer({"num_attention_heads"});
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = mlaDecoderFields(r, v3 ? "deepseek_v3" : "deepseek_v2", layers, heads);
        if (r.has("n_routed_experts")) {
            json moe = deepseekStyleMoe(r, layers);
            checkExperts(r, moe, "num_experts_per_tok", "n_routed_experts");
            const std::string scoring = r.string("scoring_func", v3 ? "sigmoid" : "softmax");
            moe["router"] = scoring == "sigmoid" ? "sigmoid" : "softmax";
            moe["score_correction_bias"] = r.string("topk_method", v3 ? "noaux_tc" : "greedy") ==
                                           "noaux_tc";
            m["moe"] = moe;
        }
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
    } else if (type == "glm4_moe") {
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = llamaLikeFields(r, "glm4_moe", false);
        // GLM-4.5: q, k and v carry biases (attention_bias), o_proj none.
        m["qkv_bias"] = r.boolean("attention_bias", false);
        m["qk_norm"] = r.boolean("use_qk_norm", false) ? "head" : "none";
        m["mtp_layers"] = r.integer({"num_nextn_predict_layers"}, 0, 0);
        json moe = deepseekStyleMoe(r, layers);
        checkExperts(r, moe, "num_experts_per_tok", "n_routed_experts");
        m["moe"] = moe;
    } else if (type == "llama4" || type == "llama4_text") {
        // The multimodal config nests the text model; the vision tower and the projector are
        // left out (vramplan plans the language model).
        m = type == "llama4" ? nested(r, "text_config", llama4Fields) : llama4Fields(r);
    } else if (type == "gemma3" || type == "gemma3_text") {
        m = type == "gemma3" ? nested(r, "text_config", gemma3Fields) : gemma3Fields(r);
    } else if (type == "gemma2") {
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = llamaLikeFields(r, "gemma2", true, 256);
        m["hidden_act"] = "gelu";
        if (const double cap = r.number("attn_logit_softcapping", 0); cap > 0)
            m["attention_softcap"] = cap;
        if (const double cap = r.number("final_logit_softcapping", 0); cap > 0)
            m["final_softcap"] = cap;
        // Gemma 2 alternates: even layers slide, odd layers see everything.
        readSlidingLayers(r, m, layers, 2, r.integer({"sliding_window"}, 4096, 0));
    } else if (type == "gpt_oss") {
        const int64_t layers = r.integer({"num_hidden_layers"});
        m = llamaLikeFields(r, "gpt_oss", false, 64);
        json moe = {{"experts", r.integer({"num_local_experts"})},
                    {"experts_per_token", r.integer({"num_experts_per_tok", "experts_per_token"})},
                    {"expert_ffn_hidden_size", r.integer({"intermediate_size"})}};
        checkExperts(r, moe, "num_experts_per_tok", "num_local_experts");
        m["moe"] = moe;
        m["qkv_bias"] = m["o_bias"] = r.boolean("attention_bias", true);
        readSlidingLayers(r, m, layers, 2, r.integer({"sliding_window"}, 128, 0));
    } else {
        return false;
    }
    return true;
}

int64_t hfFp8BlockSize(const json &config)
{
    if (!config.is_object())
        return 0;
    const auto q = config.find("quantization_config");
    if (q == config.end() || !q->is_object() || q->value("quant_method", json()) != "fp8")
        return 0;
    const auto block = q->find("weight_block_size");
    if (block == q->end() || !block->is_array() || block->empty() ||
        !(*block)[0].is_number_integer())
        return 0;
    const int64_t size = (*block)[0].get<int64_t>();
    return size > 0 && size <= (int64_t(1) << 20) ? size : 0;
}

std::string hfLeftOut(const json &config)
{
    if (!config.is_object() || !config.contains("vision_config"))
        return {};
    // The towers vramplan counts (model.vision): Qwen2.5-VL, Qwen3-VL, Qwen3.5, Gemma 4.
    const std::string type = config.value("model_type", json("")).is_string()
                                 ? config.value("model_type", std::string())
                                 : std::string();
    for (const char *counted : {"qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe",
                                "gemma4"})
        if (type == counted)
            return {};
    return "the vision tower and the multimodal projector (vision_config): vramplan counts and "
           "plans the language model (text_config) only";
}

} // namespace vramplan
