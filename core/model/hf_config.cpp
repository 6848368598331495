#include "model/hf_config.h"

#include "model/hf_reader.h"

#include <array>
#include <string_view>

namespace vramplan {

const std::initializer_list<const char *> moreHfModelTypes = {
    "olmo3",        "glm4",         "chatglm",          "internlm2",      "internlm3",
    "hunyuan_v1_dense", "ernie4_5", "deepseek_v32",     "glm_moe_dsa",    "minimax_m2",
    "qwen2_moe",    "hunyuan_v1_moe", "ernie4_5_moe",   "gemma4",         "qwen2_5_vl",
    "qwen3_vl",     "qwen3_vl_moe"};

namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 12> supportedTypes = {
    "gpt2", "bert", "llama",    "mistral", "mixtral",        "qwen2",
    "phi3", "gemma", "phi", "gpt_neox", "falcon", "RefinedWebModel"};

// Whether config.json's "architectures" names a class ending in `suffix` (absent or malformed
// lists name none: the key is informative only).
bool namesArchitecture(const json &config, std::string_view suffix)
{
    const auto it = config.find("architectures");
    if (it == config.end() || !it->is_array())
        return false;
    for (const auto &name : *it)
        if (name.is_string() && name.get_ref<const std::string &>().ends_with(suffix))
            return true;
    return false;
}

} // namespace

std::string hfActivation(const std::string &act)
{
    if (act == "gelu_new" || act == "gelu_fast")
        return "gelu_tanh_python"; // NewGELUActivation: four saved tensors
    if (act == "silu" || act == "swish")
        return "silu";
    if (act == "relu")
        return "relu";
    return "gelu"; // gelu, gelu_pytorch_tanh, gelu_python: one saved input
}


std::string supportedHfModelTypes()
{
    std::string out;
    for (auto t : supportedTypes)
        out += (out.empty() ? "" : ", ") + std::string(t);
    for (const char *t : newerHfModelTypes)
        out += ", " + std::string(t);
    for (const char *t : hybridHfModelTypes)
        out += ", " + std::string(t);
    for (const char *t : moreHfModelTypes)
        out += ", " + std::string(t);
    return out;
}

Parsed<json> modelFieldsFromHfConfig(const json &config, const std::string &path)
{
    if (!config.is_object())
        return Parsed<json>::fail(path + ": must be a JSON object (a config.json), got " +
                                  jsonTypeName(config));
    HfReader r(config, path);
    const std::string type = r.string("model_type", "");
    if (!r.ok())
        return Parsed<json>::fail(r.error());
    if (type.empty())
        return Parsed<json>::fail(
            path + ".model_type: is missing (supported: " + supportedHfModelTypes() + ")");

    json m = json::object();
    if (type == "gpt2") {
        const int64_t h = r.integer({"n_embd", "hidden_size"});
        m = {{"family", "gpt2"},
             {"layers", r.integer({"n_layer", "num_hidden_layers"})},
             {"hidden_size", h},
             {"attention_heads", r.integer({"n_head", "num_attention_heads"})},
             {"ffn_hidden_size", r.integer({"n_inner"}, 4 * h)},
             {"vocab_size", r.integer({"vocab_size"})},
             {"max_positions", r.integer({"n_positions", "max_position_embeddings"}, 1024)},
             {"tied_embeddings", r.boolean("tie_word_embeddings", true)},
             {"hidden_act", hfActivation(r.string("activation_function", "gelu_new"))}};
    } else if (type == "bert") {
        m = {{"family", "bert"},
             {"layers", r.integer({"num_hidden_layers"})},
             {"hidden_size", r.integer({"hidden_size"})},
             {"attention_heads", r.integer({"num_attention_heads"})},
             {"ffn_hidden_size", r.integer({"intermediate_size"})},
             {"vocab_size", r.integer({"vocab_size"})},
             {"max_positions", r.integer({"max_position_embeddings"}, 512)},
             {"token_types", r.integer({"type_vocab_size"}, 2, 0)},
             // BertForMaskedLM builds its encoder without the pooler (add_pooling_layer=False).
             {"pooler", !namesArchitecture(config, "ForMaskedLM")},
             {"hidden_act", hfActivation(r.string("hidden_act", "gelu"))}};
    } else if (hybridModelFields(config, type, r, m)) {
        // Qwen3-Next, Qwen3.5, Nemotron-H, Granite 4.0-H, LFM2, Falcon-H1, Kimi Linear
        // (hf_config_hybrid.cpp, hf_config_kimi.cpp)
    } else if (denseModelFields(config, type, r, m) || moeModelFields(config, type, r, m, path) ||
               multimodalModelFields(config, type, r, m)) {
        // OLMo 3, GLM-4, ChatGLM, InternLM, Hunyuan, ERNIE, DeepSeek-V3.2, GLM-5, MiniMax-M2,
        // Qwen2-MoE, Gemma 4, Qwen2.5-VL, Qwen3-VL
    } else if (newerModelFields(config, type, r, m, path)) {
        // Qwen3, DeepSeek, Llama 4, gpt-oss, Gemma 2/3, OLMo 2, ... (hf_config_llama_like.cpp)
    } else if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2" ||
               type == "phi3" || type == "gemma") {
        const std::string family = type;
        // Gemma ties its embeddings unless told otherwise; the others do not.
        m = llamaLikeFields(r, family, family == "gemma");
        const bool attentionBias = r.boolean("attention_bias", false);
        const bool mlpBias = r.boolean("mlp_bias", false);
        if (attentionBias && mlpBias)
            m["bias"] = true;
        else if (attentionBias || family == "qwen2")
            m["qkv_bias"] = true;
        if (family == "gemma") {
            m["ffn_type"] = "geglu";
            m["hidden_act"] = "gelu";
        }
        if (type == "mixtral") {
            m["moe"] = {{"experts", r.integer({"num_local_experts"}, 8)},
                        {"experts_per_token", r.integer({"num_experts_per_tok"}, 2)},
                        {"expert_ffn_hidden_size", r.integer({"intermediate_size"})}};
        }
    } else if (type == "phi") {
        const int64_t heads = r.integer({"num_attention_heads"});
        m = {{"family", "phi"},
             {"layers", r.integer({"num_hidden_layers"})},
             {"hidden_size", r.integer({"hidden_size"})},
             {"attention_heads", heads},
             {"kv_heads", r.integer({"num_key_value_heads"}, heads)},
             {"ffn_hidden_size", r.integer({"intermediate_size"})},
             {"vocab_size", r.integer({"vocab_size"})},
             {"max_positions", r.integer({"max_position_embeddings"}, 2048)},
             {"tied_embeddings", r.boolean("tie_word_embeddings", false)},
             {"hidden_act", hfActivation(r.string("hidden_act", "gelu_new"))}};
    } else if (type == "gpt_neox") {
        const int64_t h = r.integer({"hidden_size"});
        m = {{"family", "gpt_neox"},
             {"layers", r.integer({"num_hidden_layers"})},
             {"hidden_size", h},
             {"attention_heads", r.integer({"num_attention_heads"})},
             {"ffn_hidden_size", r.integer({"intermediate_size"}, 4 * h)},
             {"vocab_size", r.integer({"vocab_size"})},
             {"max_positions", r.integer({"max_position_embeddings"}, 2048)},
             {"tied_embeddings", r.boolean("tie_word_embeddings", false)},
             {"parallel_block", r.boolean("use_parallel_residual", true)},
             {"bias", r.boolean("attention_bias", true)},
             {"hidden_act", hfActivation(r.string("hidden_act", "gelu"))}};
    } else if (type == "falcon" || type == "RefinedWebModel") {
        const int64_t h = r.integer({"hidden_size"});
        const int64_t heads = r.integer({"num_attention_heads", "n_head"});
        const bool newArch = r.boolean("new_decoder_architecture", false);
        const bool multiQuery = r.boolean("multi_query", true);
        const bool parallel = r.boolean("parallel_attn", true);
        const int64_t kv =
            newArch ? r.integer({"num_kv_heads", "n_head_kv"}, heads) : (multiQuery ? 1 : heads);
        m = {{"family", "falcon"},
             {"layers", r.integer({"num_hidden_layers", "n_layer"})},
             {"hidden_size", h},
             {"attention_heads", heads},
             {"kv_heads", kv},
             {"ffn_hidden_size", r.integer({"ffn_hidden_size"}, 4 * h)},
             {"vocab_size", r.integer({"vocab_size"})},
             {"max_positions", r.integer({"max_position_embeddings"}, 2048)},
             {"tied_embeddings", r.boolean("tie_word_embeddings", true)},
             {"bias", r.boolean("bias", false)},
             {"parallel_block", parallel},
             {"norms_per_layer", newArch || !parallel ? 2 : 1},
             {"positions", r.boolean("alibi", false) ? "alibi" : "rope"}};
    } else if (r.has("hidden_size") && r.has("num_hidden_layers") && r.has("num_attention_heads") &&
               r.has("intermediate_size") && r.has("vocab_size")) {
        // Any other decoder: its standard fields planned as a Llama-like block (attention, a
        // gated MLP, RMSNorms), said so in the estimate's warnings and marked generic.
        m = llamaLikeFields(r, "generic", false);
        m["hf_model_type"] = type;
        if (r.boolean("attention_bias", false))
            m["qkv_bias"] = true, m["o_bias"] = true;
    } else {
        return Parsed<json>::fail(path + ".model_type: '" + type +
                                  "' is not one vramplan knows (" + supportedHfModelTypes() +
                                  "), and the config lacks the fields of a generic decoder "
                                  "(hidden_size, num_hidden_layers, num_attention_heads, "
                                  "intermediate_size, vocab_size)");
    }
    if (r.ok() && m.contains("kv_heads") && m.contains("attention_heads") &&
        m["kv_heads"].get<int64_t>() > 0 &&
        m["attention_heads"].get<int64_t>() % m["kv_heads"].get<int64_t>() != 0)
        r.fail("num_key_value_heads", std::to_string(m["kv_heads"].get<int64_t>()) +
                                          " does not divide num_attention_heads " +
                                          std::to_string(m["attention_heads"].get<int64_t>()));
    if (!r.ok())
        return Parsed<json>::fail(r.error());
    if (type != "gemma" && !m.contains("hidden_act")) {
        const std::string act = hfActivation(r.string("hidden_act", "silu"));
        m["hidden_act"] = act;
    }
    return Parsed<json>::ok(std::move(m));
}

} // namespace vramplan
