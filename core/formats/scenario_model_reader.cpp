// Reading a scenario file's `model` section: a preset or a Hugging Face config merged with the
// fields given, the defaults each family implies, and the checks between model fields.

#include "formats/scenario_json.h"

#include "catalog.h"
#include "formats/checkpoint_folder.h"
#include "formats/json_reader.h"
#include "formats/scenario_readers.h"
#include "model/hf_config.h"

#include <algorithm>

namespace vramplan {
using namespace scenario_json_internal;

namespace {

using nlohmann::json;

void defaultIfMissing(json &m, const char *key, json value)
{
    if (!m.contains(key) || m[key].is_null())
        m[key] = std::move(value);
}

Parsed<json> mergedModelFields(const json &model)
{
    json merged = json::object();
    if (model.contains("preset") && !model["preset"].is_null()) {
        if (!model["preset"].is_string())
            return Parsed<json>::fail("model.preset: must be a string, got " +
                                      describeJson(model["preset"]));
        const auto id = model["preset"].get<std::string>();
        const auto *preset = Catalog::builtin().preset(id);
        if (!preset)
            return Parsed<json>::fail("model.preset: unknown preset '" + printableLine(id, 64) +
                                      "' (known: " + Catalog::builtin().presetIds() + ")");
        auto fields = modelFieldsFromHfConfig(preset->hfConfig, "resources/models/" + id);
        if (!fields)
            return fields;
        merged.update(*fields.value);
    }
    if (model.contains("hf_config") && !model["hf_config"].is_null()) {
        auto fields = modelFieldsFromHfConfig(model["hf_config"], "model.hf_config");
        if (!fields)
            return fields;
        merged = json::object(); // an explicit config replaces the preset's numbers
        merged.update(*fields.value);
    }
    if (model.contains("checkpoint") && !model["checkpoint"].is_null()) {
        // A local checkpoint folder: its config's fields and the exact count of its tensors.
        if (!model["checkpoint"].is_string())
            return Parsed<json>::fail("model.checkpoint: must be a folder's path, got " +
                                      describeJson(model["checkpoint"]));
        const auto folder = model["checkpoint"].get<std::string>();
        auto checkpoint = readCheckpointFolder(folder);
        if (!checkpoint)
            return Parsed<json>::fail("model.checkpoint: " + checkpoint.error);
        auto fields = modelFieldsFromHfConfig(checkpoint.value->config, folder + "/config.json");
        if (!fields)
            return fields;
        merged = json::object();
        merged.update(*fields.value);
        merged["checkpoint_parameters"] = checkpoint.value->total;
    }
    for (const auto &[key, value] : model.items()) {
        if (key == "preset" || key == "hf_config" || key == "checkpoint")
            continue;
        if (key == "moe" && value.is_object() && merged.contains("moe"))
            merged["moe"].update(value);
        else
            merged[key] = value;
    }
    return Parsed<json>::ok(std::move(merged));
}

} // namespace

namespace scenario_json_internal {

// Fields that contradict one another, as "model.FIELD: problem", or "".
std::string modelConsistency(const ModelConfig &m)
{
    if (m.slidingLayers > m.layers)
        return "model.sliding_layers: " + std::to_string(m.slidingLayers) + " exceeds the " +
               std::to_string(m.layers) + " layers";
    if (m.slidingLayers > 0 && m.slidingWindow == 0)
        return "model.sliding_window: is 0, but sliding_layers names " +
               std::to_string(m.slidingLayers) + " sliding-window layers";
    // These families' modelling code derives the head width from the hidden size (GPT-2's c_attn
    // is h -> 3h, BERT's query/key/value h -> h): a head_dim that contradicts it names no model.
    const Family f = m.family;
    if ((f == Family::Gpt2 || f == Family::Bert || f == Family::GptNeox || f == Family::Phi ||
         f == Family::Falcon || f == Family::Internlm2 || f == Family::GraniteHybrid ||
         f == Family::Lfm2) &&
        m.attentionHeads * m.headDim != m.hiddenSize)
        return "model.head_dim: " + std::to_string(m.headDim) + " x " +
               std::to_string(m.attentionHeads) + " heads is not hidden_size " +
               std::to_string(m.hiddenSize) + ", which " + std::string(toString(f)) +
               " splits into its heads";
    if (m.isMla() && m.kvHeads != m.attentionHeads)
        return "model.kv_heads: multi-head latent attention has one key and value per head (" +
               std::to_string(m.attentionHeads) + "), got " + std::to_string(m.kvHeads);
    return layerKindConsistency(m);
}

bool readModel(const json &document, ModelConfig &m, std::string &error)
{
    const json empty = json::object();
    const json &model = present(document, "model") ? document["model"] : empty;
    if (!model.is_object()) {
        error = "model: must be a JSON object, got " + describeJson(model);
        return false;
    }
    auto merged = mergedModelFields(model);
    if (!merged) {
        error = merged.error;
        return false;
    }
    json &f = *merged.value;
    if (model.contains("preset") && model["preset"].is_string())
        m.preset = model["preset"].get<std::string>();

    JsonReader r(f, "model", error);
    r.string("name", m.name, 200);
    r.enumeration("family", m.family);
    if (!r.ok())
        return false;
    f["family"] = std::string(toString(m.family));
    applyFamilyDefaults(f);

    r.integer("layers", m.layers, 1, maxLayers);
    r.integer("hidden_size", m.hiddenSize, 1, maxHidden);
    r.integer("attention_heads", m.attentionHeads, 1, maxHeads);
    m.kvHeads = m.attentionHeads;
    r.integer("kv_heads", m.kvHeads, 1, maxHeads);
    const bool explicitHeadDim = r.has("head_dim");
    r.integer("head_dim", m.headDim, 1, maxHidden);
    r.integer("ffn_hidden_size", m.ffnHiddenSize, 1, maxFfn);
    r.enumeration("ffn_type", m.ffnType);
    r.enumeration("hidden_act", m.activation);
    r.integer("vocab_size", m.vocabSize, 1, maxVocab);
    r.enumeration("norm", m.norm);
    r.boolean("tied_embeddings", m.tiedEmbeddings);
    r.boolean("bias", m.bias);
    r.boolean("qkv_bias", m.qkvBias);
    r.boolean("lm_head_bias", m.lmHeadBias);
    r.integer("max_positions", m.maxPositions, 1, maxPositions);
    r.enumeration("positions", m.positions);
    r.boolean("parallel_block", m.parallelBlock);
    r.integer("norms_per_layer", m.normsPerLayer, 0, 4);
    r.integer("token_types", m.tokenTypes, 0, 1 << 16);
    r.boolean("pooler", m.pooler);
    r.enumeration("head", m.head);
    r.integer("classifier_labels", m.classifierLabels, 1, 1 << 20);
    r.boolean("o_bias", m.oBias);
    r.enumeration("qk_norm", m.qkNorm);
    r.integer("sliding_window", m.slidingWindow, 0, maxSequence);
    r.integer("sliding_layers", m.slidingLayers, 0, maxLayers);
    r.number("attention_softcap", m.attentionSoftcap, 0.0, 1.0e6);
    r.number("final_softcap", m.finalSoftcap, 0.0, 1.0e6);
    r.boolean("attention_sinks", m.attentionSinks);
    r.integer("mtp_layers", m.mtpLayers, 0, 64);
    if (const json *mla = r.object("mla")) {
        JsonReader ar(*mla, "model.mla", error);
        ar.integer("q_lora_rank", m.mla.qLoraRank, 0, maxHidden);
        ar.integer("kv_lora_rank", m.mla.kvLoraRank, 0, maxHidden);
        ar.integer("qk_rope_head_dim", m.mla.qkRopeHeadDim, 0, maxHidden);
        ar.integer("qk_nope_head_dim", m.mla.qkNopeHeadDim, 0, maxHidden);
        ar.integer("v_head_dim", m.mla.vHeadDim, 1, maxHidden);
        ar.finish();
        if (error.empty() && m.mla.kvLoraRank > 0 && m.mla.qkHeadDim() < 1)
            return r.fail("model.mla.qk_nope_head_dim",
                          "and qk_rope_head_dim must not both be 0 (a query needs a head)");
    }
    if (const json *moe = r.object("moe")) {
        JsonReader mr(*moe, "model.moe", error);
        mr.integer("experts", m.moe.experts, 0, maxExperts);
        mr.integer("experts_per_token", m.moe.expertsPerToken, 0, maxExperts);
        mr.integer("expert_ffn_hidden_size", m.moe.expertFfnHiddenSize, 0, maxFfn);
        mr.integer("shared_experts", m.moe.sharedExperts, 0, maxExperts);
        mr.integer("shared_expert_ffn_hidden_size", m.moe.sharedExpertFfnHiddenSize, 0, maxFfn);
        mr.integer("dense_layers", m.moe.denseLayers, 0, maxLayers);
        mr.integer("layer_step", m.moe.layerStep, 1, maxLayers);
        mr.boolean("router_bias", m.moe.routerBias);
        mr.boolean("expert_bias", m.moe.expertBias);
        mr.boolean("score_correction_bias", m.moe.scoreCorrectionBias);
        mr.boolean("normalize_top_k", m.moe.normalizeTopK);
        mr.enumeration("router", m.moe.router);
        mr.number("imbalance", m.moe.imbalance, 1.0, 64.0);
        mr.number("capacity_factor", m.moe.capacityFactor, 0.0, 64.0);
        mr.boolean("shared_expert_gate", m.moe.sharedExpertGate);
        mr.integer("latent_size", m.moe.latentSize, 0, maxHidden);
        mr.boolean("dense_beside_experts", m.moe.denseBesideExperts);
        mr.finish();
        if (error.empty() && m.moe.experts > 0) {
            if (m.moe.expertsPerToken == 0)
                m.moe.expertsPerToken = std::min<int64_t>(2, m.moe.experts);
            if (m.moe.expertsPerToken > m.moe.experts)
                return r.fail("model.moe.experts_per_token",
                              "must not exceed experts (" + std::to_string(m.moe.experts) +
                                  "), got " + std::to_string(m.moe.expertsPerToken));
        }
    }
    readLayerKinds(r, m, error);
    r.finish();
    if (!r.ok())
        return false;
    // Sliding-window layers named one by one count as sliding_layers.
    if (const auto sliding = std::count(m.layerMixers.begin(), m.layerMixers.end(), 's');
        sliding > 0)
        m.slidingLayers = sliding;

    if (!explicitHeadDim) {
        if (m.hiddenSize % m.attentionHeads != 0)
            return r.fail("model.hidden_size",
                          std::to_string(m.hiddenSize) + " is not divisible by attention_heads " +
                              std::to_string(m.attentionHeads) + " (give head_dim to override)");
        m.headDim = m.hiddenSize / m.attentionHeads;
    }
    if (m.attentionHeads % m.kvHeads != 0)
        return r.fail("model.kv_heads", std::to_string(m.kvHeads) +
                                            " does not divide attention_heads " +
                                            std::to_string(m.attentionHeads));
    if (const std::string problem = modelConsistency(m); !problem.empty()) {
        error = problem;
        return false;
    }
    return true;
}

} // namespace scenario_json_internal

void applyFamilyDefaults(json &m)
{
    const auto family = fromString<Family>(m.value("family", "llama")).value_or(Family::Llama);
    const auto is = [family](std::initializer_list<Family> set) {
        return std::find(set.begin(), set.end(), family) != set.end();
    };
    const bool gelu = is({Family::Gpt2, Family::Bert, Family::Phi, Family::GptNeox, Family::Falcon});
    const bool gemmaLike = is({Family::Gemma, Family::Gemma2, Family::Gemma3});
    defaultIfMissing(m, "ffn_type", gelu ? "gelu" : (gemmaLike ? "geglu" : "swiglu"));
    defaultIfMissing(m, "hidden_act",
                     is({Family::Gpt2, Family::Phi})
                         ? "gelu_tanh_python"
                         : (gelu || gemmaLike ? "gelu" : "silu"));
    defaultIfMissing(m, "norm", gelu ? "layernorm" : "rmsnorm");
    defaultIfMissing(m, "bias", is({Family::Gpt2, Family::Bert, Family::Phi, Family::GptNeox}));
    defaultIfMissing(m, "qkv_bias", is({Family::Qwen2, Family::GptOss, Family::Glm4Moe}));
    defaultIfMissing(m, "o_bias", is({Family::GptOss}));
    defaultIfMissing(m, "lm_head_bias", family == Family::Phi);
    defaultIfMissing(m, "tied_embeddings",
                     is({Family::Gpt2, Family::Bert, Family::Gemma, Family::Gemma2, Family::Gemma3,
                         Family::Falcon}));
    defaultIfMissing(m, "positions", is({Family::Gpt2, Family::Bert}) ? "learned" : "rope");
    defaultIfMissing(m, "parallel_block", is({Family::Phi, Family::GptNeox, Family::Falcon}));
    defaultIfMissing(m, "norms_per_layer",
                     is({Family::Phi, Family::Falcon}) ? 1 : (is({Family::Gemma2, Family::Gemma3}) ? 4 : 2));
    defaultIfMissing(m, "token_types", family == Family::Bert ? 2 : 0);
    defaultIfMissing(m, "pooler", family == Family::Bert);
    defaultIfMissing(m, "max_positions", family == Family::Bert ? 512 : 4096);
    defaultIfMissing(m, "qk_norm",
                     is({Family::Qwen3, Family::Qwen3Moe, Family::Gemma3})
                         ? "head"
                         : (family == Family::Olmo2 ? "full"
                                                    : (family == Family::Llama4 ? "l2" : "none")));
    defaultIfMissing(m, "attention_sinks", family == Family::GptOss);
    if (m.contains("moe") && m["moe"].is_object()) {
        // What each family's router does (modeling_<family>.py): DeepSeek-V3, GLM-4.5 and
        // Llama 4 score experts with a sigmoid; DeepSeek-V3 and GLM-4.5 add a score-correction
        // buffer; gpt-oss's router and experts have biases and it softmaxes the top-k.
        json &moe = m["moe"];
        const bool sigmoid =
            is({Family::DeepseekV3, Family::Glm4Moe, Family::Llama4, Family::KimiLinear});
        defaultIfMissing(moe, "router", sigmoid ? "sigmoid" : "softmax");
        defaultIfMissing(moe, "score_correction_bias",
                         is({Family::DeepseekV3, Family::Glm4Moe, Family::KimiLinear}));
        defaultIfMissing(moe, "router_bias", family == Family::GptOss);
        defaultIfMissing(moe, "expert_bias", family == Family::GptOss);
    }
    if (!m.contains("ffn_hidden_size") && m.contains("hidden_size") &&
        m["hidden_size"].is_number_integer()) {
        const int64_t h = m["hidden_size"].get<int64_t>();
        // Llama's rule for an unstated SwiGLU width: 2/3 of 4h, rounded up to 256.
        const int64_t gated = ((8 * h / 3 + 255) / 256) * 256;
        m["ffn_hidden_size"] = m["ffn_type"] == "gelu" ? 4 * h : gated;
    }
}

} // namespace vramplan
