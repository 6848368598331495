#pragma once
// Reads the keys of a Hugging Face config.json, which carries many more keys than vramplan
// needs: unknown keys are fine here (a config.json is someone else's format); wrong types and
// out-of-range values are errors that name the key. Internal to model/ (hf_config*.cpp).

#include "json_value_text.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace vramplan {

class HfReader
{
public:
    using json = nlohmann::json;
    HfReader(const json &config, const std::string &path) : m_config(config), m_path(path) {}

    const json &config() const { return m_config; }
    const std::string &path() const { return m_path; }
    bool has(const char *key) const
    {
        const auto it = m_config.find(key);
        return it != m_config.end() && !it->is_null();
    }

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }

    // First of the given keys present; value required unless fallback >= 0.
    int64_t integer(std::initializer_list<const char *> keys, int64_t fallback = -1,
                    int64_t min = 1, int64_t max = int64_t(1) << 30)
    {
        for (const char *key : keys) {
            const auto it = m_config.find(key);
            if (it == m_config.end() || it->is_null())
                continue;
            if (!(it->is_number_integer() || it->is_number_unsigned())) {
                fail(key, "must be a whole number, got " + describeJson(*it));
                return fallback > 0 ? fallback : min;
            }
            const double v = it->get<double>();
            if (v < double(min) || v > double(max)) {
                fail(key, "must be >= " + std::to_string(min) + " and <= " + std::to_string(max) +
                              ", got " + describeJson(*it));
                return min;
            }
            return it->get<int64_t>();
        }
        if (fallback < 0)
            fail(*keys.begin(), "is missing");
        return fallback;
    }

    bool boolean(const char *key, bool fallback)
    {
        const auto it = m_config.find(key);
        if (it == m_config.end() || it->is_null())
            return fallback;
        if (!it->is_boolean()) {
            fail(key, "must be true or false, got " + describeJson(*it));
            return fallback;
        }
        return it->get<bool>();
    }

    std::string string(const char *key, const std::string &fallback)
    {
        const auto it = m_config.find(key);
        if (it == m_config.end() || it->is_null())
            return fallback;
        if (!it->is_string()) {
            fail(key, "must be a string, got " + describeJson(*it));
            return fallback;
        }
        return it->get<std::string>();
    }

    double number(const char *key, double fallback)
    {
        const auto it = m_config.find(key);
        if (it == m_config.end() || it->is_null())
            return fallback;
        if (!it->is_number()) {
            fail(key, "must be a number, got " + describeJson(*it));
            return fallback;
        }
        return it->get<double>();
    }

    // An error already phrased with its path (a nested config's).
    void failWith(const std::string &message)
    {
        if (m_error.empty())
            m_error = message;
    }

    void fail(const std::string &key, const std::string &problem)
    {
        if (m_error.empty())
            m_error = m_path + "." + key + ": " + problem;
    }

private:
    const json &m_config;
    const std::string &m_path;
    std::string m_error;
};

// hidden_act / activation_function as the model code applies it: "gelu_new" is HF's NewGELU
// (four saved tensors), the others single kernels.
std::string hfActivation(const std::string &act);

// The fields of a Llama-style config (attention, dense MLP, vocabulary, head_dim where given or
// `headDimDefault` > 0), shared by Llama, Mistral, Qwen2/3, Gemma 1-3, OLMo 2, ... ;
// intermediate_size is required unless `ffnDefault` > 0.
nlohmann::json llamaLikeFields(HfReader &r, const std::string &family, bool tiedByDefault,
                               int64_t headDimDefault = -1, int64_t ffnDefault = -1);

// Helpers of the type readers (hf_config_llama_like.cpp).
// Sliding-window layers: from layer_types where given, else every `period`-th layer (1-based) is
// a full-attention layer.
void readSlidingLayers(HfReader &r, nlohmann::json &m, int64_t layers, int64_t period,
                       int64_t window);
// The routed-expert keys shared by DeepSeek-V2/V3, Kimi-K2, GLM-4.5 and their successors.
nlohmann::json deepseekStyleMoe(HfReader &r, int64_t layers);
void checkExperts(HfReader &r, const nlohmann::json &moe, const char *topKKey,
                  const char *expertsKey);
// Multi-head latent attention's keys, and the fields of a decoder built on it (DeepSeek-V2/V3,
// Kimi-K2, Kimi Linear): heads as key/value heads, v_head_dim as head_dim, MTP layers.
nlohmann::json mlaFields(HfReader &r);
nlohmann::json mlaDecoderFields(HfReader &r, const char *family, int64_t layers, int64_t heads);

// A nested config (the text model of Llama 4, Gemma 3, Qwen3.5, ...; a vision tower): read
// with its own path in messages.
template <typename Read>
nlohmann::json nested(HfReader &outer, const char *key, Read read)
{
    const nlohmann::json &config = outer.config();
    const auto it = config.find(key);
    if (it == config.end() || !it->is_object()) {
        outer.fail(key, it == config.end() ? "is missing (the text model's config)"
                                           : "must be an object, got " + describeJson(*it));
        return nlohmann::json::object();
    }
    const std::string path = outer.path() + "." + key;
    HfReader inner(*it, path);
    nlohmann::json m = read(inner);
    if (!inner.ok())
        outer.failWith(inner.error());
    return m;
}


// The 2024-2026 model types (hf_config_llama_like.cpp): fills `m` for `type` and returns true, or
// returns false when the type is not one of them. Errors go to `r`.
bool newerModelFields(const nlohmann::json &config, const std::string &type, HfReader &r,
                      nlohmann::json &m, const std::string &path);
// Their model_type names, for the list of supported types.
extern const std::initializer_list<const char *> newerHfModelTypes;

// The hybrid model types (hf_config_hybrid.cpp): Qwen3-Next, Qwen3.5, Nemotron-H, Granite 4.0-H,
// LFM2, Falcon-H1, Kimi Linear. Fills `m` for `type` and returns true, or returns false for another type.
bool hybridModelFields(const nlohmann::json &config, const std::string &type, HfReader &r,
                       nlohmann::json &m);
extern const std::initializer_list<const char *> hybridHfModelTypes;
// How many per-layer entries to build for `layers` read from a config: none where the read
// failed (the reader holds the error) or the count is absurd.
inline size_t layerSlots(int64_t layers)
{
    return layers > 0 && layers <= (int64_t(1) << 20) ? size_t(layers) : 0;
}

// Per-layer lists of hybrid configs (hf_config_hybrid.cpp): config[key] as one string per layer
// (`layers` < 0: any length), and layer characters into `layer_types` / `mlp_types` names.
std::vector<std::string> perLayerList(HfReader &r, const char *key, int64_t layers);
nlohmann::json mixerList(const std::string &mixers);
nlohmann::json mlpList(const std::string &mlps);
// The Mamba2 hybrids (hf_config_mamba.cpp).
nlohmann::json nemotronFields(HfReader &r);
nlohmann::json graniteHybridFields(HfReader &r);
nlohmann::json falconH1Fields(HfReader &r);
// Kimi Linear: Kimi Delta Attention, MLA and DeepSeek-V3-style experts (hf_config_kimi.cpp).
nlohmann::json kimiLinearFields(HfReader &r);

// Qwen3-VL's vision tower (also Qwen3.5's): vision_config into model.vision fields.
nlohmann::json qwen3VisionTower(HfReader &r);

// The other model types of 2025-2026 and the community's older ones, each file a group:
// dense attention models (hf_config_dense_types.cpp), mixtures of experts and DeepSeek sparse
// attention (hf_config_moe_types.cpp), vision-language models (hf_config_multimodal.cpp).
bool denseModelFields(const nlohmann::json &config, const std::string &type, HfReader &r,
                      nlohmann::json &m);
bool moeModelFields(const nlohmann::json &config, const std::string &type, HfReader &r,
                    nlohmann::json &m, const std::string &path);
bool multimodalModelFields(const nlohmann::json &config, const std::string &type, HfReader &r,
                           nlohmann::json &m);
extern const std::initializer_list<const char *> moreHfModelTypes;

} // namespace vramplan
