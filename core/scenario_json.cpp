#include "scenario_json.h"

#include "catalog.h"
#include "hf_config.h"
#include "json_reader.h"
#include "serving_json.h"

#include <algorithm>
#include <cctype>

namespace vramplan {
namespace {

using nlohmann::json;

// Bounds that keep every product in the estimator finite and every count inside int64
// (layers * experts * 3 * hidden * ffn stays below 2^63 at these limits).
constexpr int64_t maxLayers = 2048;
constexpr int64_t maxHidden = int64_t(1) << 18;
constexpr int64_t maxHeads = int64_t(1) << 14;
constexpr int64_t maxFfn = int64_t(1) << 20;
constexpr int64_t maxVocab = int64_t(1) << 24;
constexpr int64_t maxPositions = int64_t(1) << 24;
constexpr int64_t maxExperts = 1024;
constexpr int64_t maxBatch = int64_t(1) << 20;
constexpr int64_t maxSequence = int64_t(1) << 24;
constexpr int64_t maxGpus = int64_t(1) << 20;
constexpr int64_t maxParallel = int64_t(1) << 14;

// A section given as null counts as absent, like a null field inside a section.
bool present(const json &document, const char *key)
{
    return document.contains(key) && !document[key].is_null();
}

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
                                      JsonReader::describe(model["preset"]));
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
    for (const auto &[key, value] : model.items()) {
        if (key == "preset" || key == "hf_config")
            continue;
        if (key == "moe" && value.is_object() && merged.contains("moe"))
            merged["moe"].update(value);
        else
            merged[key] = value;
    }
    return Parsed<json>::ok(std::move(merged));
}

// The Hugging Face model types of 2024-2026, whose defaults for the newer fields differ from
// the struct's (applyFamilyDefaults).
bool newerFamily(Family f)
{
    return f >= Family::Qwen3;
}

// Fields that contradict one another, as "model.FIELD: problem", or "".
std::string modelConsistency(const ModelConfig &m)
{
    if (m.slidingLayers > m.layers)
        return "model.sliding_layers: " + std::to_string(m.slidingLayers) + " exceeds the " +
               std::to_string(m.layers) + " layers";
    if (m.slidingLayers > 0 && m.slidingWindow == 0)
        return "model.sliding_window: is 0, but sliding_layers names " +
               std::to_string(m.slidingLayers) + " sliding-window layers";
    if (m.isMla() && m.kvHeads != m.attentionHeads)
        return "model.kv_heads: multi-head latent attention has one key and value per head (" +
               std::to_string(m.attentionHeads) + "), got " + std::to_string(m.kvHeads);
    return {};
}

bool readModel(const json &document, ModelConfig &m, std::string &error)
{
    const json empty = json::object();
    const json &model = present(document, "model") ? document["model"] : empty;
    if (!model.is_object()) {
        error = "model: must be a JSON object, got " + JsonReader::describe(model);
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
    r.finish();
    if (!r.ok())
        return false;

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

// `framework_version`: "4.57", "4.57.1" or "transformers 4.57" (the name, when written, must
// be the scenario's framework: a version of another framework would be silently misread).
bool parseFrameworkVersion(const std::string &text, Framework framework, FrameworkVersion &out,
                           std::string &error)
{
    return parseReleaseVersion(text, toString(framework), "framework_version", out, error);
}

bool readTraining(const json &document, TrainingConfig &t, std::string &error)
{
    if (!present(document, "training"))
        return true;
    JsonReader r(document["training"], "training", error);
    r.enumeration("mode", t.mode);
    r.integer("micro_batch_size", t.microBatchSize, 1, maxBatch);
    r.integer("sequence_length", t.sequenceLength, 1, maxSequence);
    r.integer("gradient_accumulation_steps", t.gradientAccumulationSteps, 1, maxBatch);
    r.enumeration("precision", t.precision);
    r.enumeration("optimizer", t.optimizer);
    r.enumeration("activation_recompute", t.recompute);
    r.integer("recompute_layers", t.recomputeLayers, 0, maxLayers);
    r.integer("mtp_layers", t.mtpLayers, 0, 16);
    r.enumeration("loss", t.loss);
    r.boolean("compile", t.compile);
    r.boolean("compile_loss", t.compileLoss);
    r.enumeration("kernels", t.kernels);
    r.enumeration("loop", t.loop);
    r.enumeration("attention", t.attention);
    r.number("dropout", t.dropout, 0.0, 0.99);
    if (const json *ft = r.object("finetune")) {
        JsonReader fr(*ft, "training.finetune", error);
        fr.enumeration("method", t.finetune.method);
        fr.integer("lora_rank", t.finetune.loraRank, 1, 1 << 16);
        fr.stringList("lora_targets", t.finetune.loraTargets);
        // QLoRA stores its base in 4 bits unless the file says otherwise.
        if (t.finetune.method == FinetuneMethod::Qlora)
            t.finetune.baseWeightBits = 4;
        fr.integer("base_weight_bits", t.finetune.baseWeightBits, 4, 32);
        fr.number("lora_dropout", t.finetune.loraDropout, 0.0, 0.99);
        fr.finish();
        const int64_t bits = t.finetune.baseWeightBits;
        if (error.empty() && bits != 4 && bits != 8 && bits != 16 && bits != 32)
            return fr.fail("training.finetune.base_weight_bits",
                           "must be 4, 8, 16 or 32, got " + std::to_string(bits));
    }
    r.finish();
    return r.ok();
}

bool readParallelism(const json &document, ParallelConfig &p, std::string &error)
{
    if (!present(document, "parallelism"))
        return true;
    JsonReader r(document["parallelism"], "parallelism", error);
    r.integer("gpus", p.gpus, 1, maxGpus);
    r.integer("tensor_parallel", p.tensorParallel, 1, maxParallel);
    r.integer("pipeline_parallel", p.pipelineParallel, 1, maxParallel);
    r.integer("virtual_pipeline_parallel", p.virtualPipelineParallel, 1, maxParallel);
    r.boolean("sequence_parallel", p.sequenceParallel);
    r.integer("context_parallel", p.contextParallel, 1, maxParallel);
    r.integer("expert_parallel", p.expertParallel, 1, maxParallel);
    r.integer("zero_stage", p.zeroStage, 0, 3);
    r.integer("fsdp_version", p.fsdpVersion, 1, 2);
    r.boolean("fsdp_float8_all_gather", p.fsdpFloat8AllGather);
    r.enumeration("offload_optimizer", p.offloadOptimizer);
    r.enumeration("offload_parameters", p.offloadParameters);
    r.finish();
    return r.ok();
}

bool readGpu(const json &document, GpuConfig &g, std::string &error)
{
    if (!present(document, "gpu"))
        return true;
    JsonReader r(document["gpu"], "gpu", error);
    std::string preset;
    if (r.string("preset", preset, 128)) {
        const auto *spec = Catalog::builtin().gpu(preset);
        if (!spec)
            return r.fail("gpu.preset", "unknown GPU '" + preset +
                                            "' (known: " + Catalog::builtin().gpuIds() + ")");
        g.preset = preset;
        g.name = spec->name;
        g.architecture = spec->architecture;
        g.memoryGiB = spec->memoryMiB / 1024.0;
    }
    double gib = 0;
    // A capacity that differs from the preset's makes it a custom card of that size.
    if (r.number("memory_gib", gib, 0.0, 1.0e6, true) &&
        (g.preset.empty() || std::abs(gib - g.memoryGiB) > 1.0))
        g.memoryGiB = gib;
    r.string("name", g.name, 256);
    r.string("architecture", g.architecture, 64);
    r.finish();
    return r.ok();
}

// What the user measured and the terms fitted to it (calibration.h); absent in most files.
bool readCalibration(const json &document, Calibration &c, std::string &error)
{
    if (!present(document, "calibration"))
        return true;
    JsonReader r(document["calibration"], "calibration", error);
    c.present = true;
    if (!r.enumeration("metric", c.metric) && r.ok())
        return r.fail("calibration.metric", "is missing (allocated, reserved or device)");
    if (!r.number("measured_bytes", c.measuredBytes, 0.0, 1.0e15, true) && r.ok())
        return r.fail("calibration.measured_bytes", "is missing");
    r.number("activation_scale", c.activationScale, 0.05, 20.0);
    r.number("overhead_bytes", c.overheadBytes, -1.0e15, 1.0e15);
    r.finish();
    return r.ok();
}

// Constraints between sections: the layout must fit the GPU count and the model's shapes.
bool checkLayout(const Scenario &s, std::string &error)
{
    const auto &p = s.parallelism;
    const auto &m = s.model;
    auto fail = [&](const std::string &field, const std::string &problem) {
        error = field + ": " + problem;
        return false;
    };
    const int64_t modelParallel = p.tensorParallel * p.pipelineParallel * p.contextParallel;
    if (modelParallel > p.gpus || p.gpus % modelParallel != 0)
        return fail("parallelism.gpus",
                    std::to_string(p.gpus) +
                        " is not a multiple of tensor_parallel x pipeline_parallel x "
                        "context_parallel = " +
                        std::to_string(modelParallel));
    if (m.attentionHeads % p.tensorParallel != 0)
        return fail("parallelism.tensor_parallel",
                    std::to_string(p.tensorParallel) + " does not divide the " +
                        std::to_string(m.attentionHeads) + " attention heads");
    if (m.kvHeads % p.tensorParallel != 0 && p.tensorParallel % m.kvHeads != 0)
        return fail("parallelism.tensor_parallel",
                    std::to_string(p.tensorParallel) + " and the " + std::to_string(m.kvHeads) +
                        " key/value heads do not divide one another");
    if (p.pipelineParallel > m.layers)
        return fail("parallelism.pipeline_parallel", std::to_string(p.pipelineParallel) +
                                                         " stages for " + std::to_string(m.layers) +
                                                         " layers");
    if (p.virtualPipelineParallel > 1 &&
        (p.pipelineParallel == 1 || p.pipelineParallel * p.virtualPipelineParallel > m.layers))
        return fail("parallelism.virtual_pipeline_parallel",
                    "needs pipeline_parallel > 1 and at most one layer per virtual stage (" +
                        std::to_string(m.layers) + " layers)");
    if (p.expertParallel > 1) {
        if (!m.isMoe())
            return fail("parallelism.expert_parallel", "needs a mixture-of-experts model");
        if (m.moe.experts % p.expertParallel != 0)
            return fail("parallelism.expert_parallel",
                        std::to_string(p.expertParallel) + " does not divide the " +
                            std::to_string(m.moe.experts) + " experts");
        if (p.dataParallel() % p.expertParallel != 0)
            return fail("parallelism.expert_parallel",
                        std::to_string(p.expertParallel) +
                            " does not divide the data-parallel size " +
                            std::to_string(p.dataParallel()));
    }
    if (s.training.recomputeLayers > m.layers)
        return fail("training.recompute_layers", "must not exceed the " + std::to_string(m.layers) +
                                                     " layers, got " +
                                                     std::to_string(s.training.recomputeLayers));
    if (s.training.finetune.method != FinetuneMethod::Full &&
        s.training.finetune.loraTargets.empty())
        return fail("training.finetune.lora_targets", "must name at least one layer for LoRA");
    return true;
}

} // namespace

bool parseReleaseVersion(std::string_view text, std::string_view name, std::string_view key,
                         FrameworkVersion &out, std::string &error)
{
    std::string_view rest = text;
    const std::string shown = printableLine(std::string(text), 40);
    if (const size_t space = rest.find(' '); space != std::string_view::npos) {
        if (rest.substr(0, space) != name) {
            error = std::string(key) + ": \"" + shown + "\" names another " +
                    (key.rfind("serving.", 0) == 0 ? "engine" : "framework") + " than \"" +
                    std::string(name) + "\"";
            return false;
        }
        rest = rest.substr(space + 1);
    }
    int parts[3] = {0, 0, 0};
    int count = 0;
    while (!rest.empty() && count < 3) {
        size_t digits = 0;
        int64_t value = 0;
        while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9' && value < 100000)
            value = value * 10 + (rest[digits++] - '0');
        if (digits == 0 || value >= 100000)
            break;
        parts[count++] = int(value);
        rest = rest.substr(digits);
        if (rest.empty() || rest[0] != '.')
            break;
        rest = rest.substr(1);
    }
    // A suffix such as "rc1", ".dev0" or "+cu124" after major.minor is allowed and ignored.
    const bool suffixOk = rest.empty() || std::isalpha(static_cast<unsigned char>(rest[0])) ||
                          rest[0] == '+' || rest[0] == '-';
    if (count < 2 || !suffixOk) {
        error = std::string(key) + ": expected a release such as \"" +
                std::string(name == "vllm" || name == "sglang" ? "0.21" : "4.57") + "\" or \"" +
                std::string(name) + (name == "vllm" || name == "sglang" ? " 0.21" : " 4.57") +
                "\", got \"" + shown + "\"";
        return false;
    }
    out = {true, parts[0], parts[1], parts[2]};
    return true;
}

FrameworkVersion releaseOrRefused(std::string_view text, std::string_view name,
                                  std::string_view key)
{
    if (text.empty())
        return {};
    FrameworkVersion version;
    std::string error;
    return parseReleaseVersion(text, name, key, version, error) ? version
                                                                 : FrameworkVersion{true, -1, 0, 0};
}

std::string frameworkVersionText(const FrameworkVersion &v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor) +
           (v.patch > 0 ? "." + std::to_string(v.patch) : "");
}

std::string checkScenario(const Scenario &s)
{
    std::string error;
    const auto &m = s.model;
    if (m.attentionHeads % m.kvHeads != 0)
        return "model.kv_heads: " + std::to_string(m.kvHeads) +
               " does not divide attention_heads " + std::to_string(m.attentionHeads);
    if (m.isMoe() && m.moe.expertsPerToken > m.moe.experts)
        return "model.moe.experts_per_token: must not exceed experts (" +
               std::to_string(m.moe.experts) + ")";
    if (std::string problem = modelConsistency(m); !problem.empty())
        return problem;
    // A release the parser refused (the window's field marks it with a negative major).
    if (s.frameworkVersion.given && s.frameworkVersion.major < 0)
        return "framework_version: expected a release such as \"4.57\" or \"" +
               std::string(toString(s.framework)) + " 4.57\"";
    if (s.serving.present && s.serving.engineVersion.given && s.serving.engineVersion.major < 0)
        return "serving.engine_version: expected a release such as \"0.21\" or \"" +
               std::string(toString(s.serving.engine)) + " 0.21\"";
    checkLayout(s, error);
    return error;
}

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
        const bool sigmoid = is({Family::DeepseekV3, Family::Glm4Moe, Family::Llama4});
        defaultIfMissing(moe, "router", sigmoid ? "sigmoid" : "softmax");
        defaultIfMissing(moe, "score_correction_bias", is({Family::DeepseekV3, Family::Glm4Moe}));
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

Parsed<Scenario> scenarioFromJson(const json &document)
{
    std::string error;
    Scenario s;
    JsonReader top(document, "", error);
    std::string format;
    if (!top.string("format", format, 64)) {
        if (top.ok())
            top.fail("format", "is missing (expected \"vramplan-scenario\")");
        return Parsed<Scenario>::fail(error);
    }
    if (format != "vramplan-scenario")
        return Parsed<Scenario>::fail("format: expected \"vramplan-scenario\", got \"" +
                                      printableLine(format, 40) + "\"");
    int64_t version = scenarioFormatVersion;
    if (top.has("version") && top.integer("version", version, 1, int64_t(1) << 30) &&
        version > scenarioFormatVersion)
        return Parsed<Scenario>::fail("version: " + std::to_string(version) +
                                      " is newer than this vramplan reads (" +
                                      std::to_string(scenarioFormatVersion) + "); update vramplan");
    top.string("name", s.name, 1024);
    top.enumeration("framework", s.framework);
    std::string frameworkVersion;
    if (top.string("framework_version", frameworkVersion, 64) && !frameworkVersion.empty() &&
        !parseFrameworkVersion(frameworkVersion, s.framework, s.frameworkVersion, error))
        return Parsed<Scenario>::fail(error);
    top.object("model");
    top.object("training");
    top.object("parallelism");
    top.object("gpu");
    top.object("calibration");
    top.object("serving");
    top.finish();
    if (!top.ok())
        return Parsed<Scenario>::fail(error);
    if (!readModel(document, s.model, error) || !readTraining(document, s.training, error) ||
        !readParallelism(document, s.parallelism, error) || !readGpu(document, s.gpu, error) ||
        !readCalibration(document, s.calibration, error) ||
        !readServing(document, s.serving, error) ||
        !checkLayout(s, error))
        return Parsed<Scenario>::fail(error);
    return Parsed<Scenario>::ok(std::move(s));
}

namespace {

// " at line L, column C" of the first number whose value overflows a double, or "".
std::string overflowPosition(std::string_view text)
{
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
            continue;
        }
        const bool startsNumber =
            (text[i] == '-' || std::isdigit(static_cast<unsigned char>(text[i]))) &&
            (i == 0 || std::string_view(" \t\r\n:[,").find(text[i - 1]) != std::string_view::npos);
        if (!startsNumber)
            continue;
        const std::string token(text.substr(i, 400));
        char *end = nullptr;
        const double v = std::strtod(token.c_str(), &end);
        if (end != token.c_str() && !std::isfinite(v))
            return " at line " + std::to_string(line) + ", column " +
                   std::to_string(i - lineStart + 1);
    }
    return {};
}

} // namespace

std::string printableLine(std::string text, size_t limit)
{
    for (char &ch : text)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
            ch = '?';
    if (text.size() > limit)
        text = text.substr(0, limit) + "... (cut)";
    return text;
}

Parsed<json> jsonFromText(std::string_view text)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Parsed<json>::fail("the file is empty (expected JSON)");
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        return Parsed<json>::fail("not valid JSON: a NUL byte at offset " + std::to_string(nul) +
                                  " (not a text file?)");
    try {
        // A callback rejects absurd nesting before it can exhaust the stack.
        return Parsed<json>::ok(json::parse(text, [](int depth, json::parse_event_t, json &) {
            if (depth > 64)
                throw std::runtime_error("nesting deeper than 64 levels");
            return true;
        }));
    } catch (const json::parse_error &e) {
        std::string what = e.what();
        // Drop nlohmann's prefix and cut its echo of the token read so far.
        if (const auto pos = what.find("parse error"); pos != std::string::npos)
            what = what.substr(pos);
        if (const auto echo = what.find("; last read: '");
            echo != std::string::npos && what.size() - echo > 60)
            what = what.substr(0, echo + 50) + "...'";
        return Parsed<json>::fail(printableLine("not valid JSON: " + what));
    } catch (const json::out_of_range &) {
        // A number beyond double's range; nlohmann names no position for it, so find it.
        return Parsed<json>::fail("not valid JSON: a number too large for a double" +
                                  overflowPosition(text));
    } catch (const std::exception &e) {
        return Parsed<json>::fail(
            printableLine(std::string("not a usable JSON document: ") + e.what()));
    }
}

Parsed<Scenario> scenarioFromText(std::string_view text)
{
    auto document = jsonFromText(text);
    if (!document) {
        if (document.error.rfind("the file is empty", 0) == 0)
            return Parsed<Scenario>::fail("the file is empty (expected a JSON scenario)");
        return Parsed<Scenario>::fail(document.error);
    }
    return scenarioFromJson(*document.value);
}

json scenarioToJson(const Scenario &s)
{
    const auto &m = s.model;
    json model = {{"family", toString(m.family)},
                  {"layers", m.layers},
                  {"hidden_size", m.hiddenSize},
                  {"attention_heads", m.attentionHeads},
                  {"kv_heads", m.kvHeads},
                  {"head_dim", m.headDim},
                  {"ffn_hidden_size", m.ffnHiddenSize},
                  {"ffn_type", toString(m.ffnType)},
                  {"hidden_act", toString(m.activation)},
                  {"vocab_size", m.vocabSize},
                  {"norm", toString(m.norm)},
                  {"tied_embeddings", m.tiedEmbeddings},
                  {"bias", m.bias},
                  {"qkv_bias", m.qkvBias},
                  {"lm_head_bias", m.lmHeadBias},
                  {"max_positions", m.maxPositions},
                  {"positions", toString(m.positions)},
                  {"parallel_block", m.parallelBlock},
                  {"norms_per_layer", m.normsPerLayer},
                  {"token_types", m.tokenTypes},
                  {"pooler", m.pooler},
                  {"head", toString(m.head)},
                  {"classifier_labels", m.classifierLabels}};
    if (!m.preset.empty())
        model["preset"] = m.preset;
    if (m.isMoe()) {
        const MoeConfig d;
        model["moe"] = {{"experts", m.moe.experts},
                        {"experts_per_token", m.moe.expertsPerToken},
                        {"expert_ffn_hidden_size", m.moe.expertFfnHiddenSize},
                        {"shared_experts", m.moe.sharedExperts}};
        // Fields of the 2024-2026 layouts are written only where they differ from the default
        // (older families' files stay as they were), and always for the newer families, whose
        // defaults are not the struct's.
        json &moe = model["moe"];
        const bool all = newerFamily(m.family);
        if (all || m.moe.sharedExpertFfnHiddenSize != d.sharedExpertFfnHiddenSize)
            moe["shared_expert_ffn_hidden_size"] = m.moe.sharedExpertFfnHiddenSize;
        if (all || m.moe.denseLayers != d.denseLayers)
            moe["dense_layers"] = m.moe.denseLayers;
        if (all || m.moe.layerStep != d.layerStep)
            moe["layer_step"] = m.moe.layerStep;
        if (all || m.moe.routerBias != d.routerBias)
            moe["router_bias"] = m.moe.routerBias;
        if (all || m.moe.expertBias != d.expertBias)
            moe["expert_bias"] = m.moe.expertBias;
        if (all || m.moe.scoreCorrectionBias != d.scoreCorrectionBias)
            moe["score_correction_bias"] = m.moe.scoreCorrectionBias;
        if (all || m.moe.normalizeTopK != d.normalizeTopK)
            moe["normalize_top_k"] = m.moe.normalizeTopK;
        if (all || m.moe.router != d.router)
            moe["router"] = toString(m.moe.router);
        if (all || m.moe.imbalance != d.imbalance)
            moe["imbalance"] = m.moe.imbalance;
        if (all || m.moe.capacityFactor != d.capacityFactor)
            moe["capacity_factor"] = m.moe.capacityFactor;
    }
    if (m.isMla())
        model["mla"] = {{"q_lora_rank", m.mla.qLoraRank},
                        {"kv_lora_rank", m.mla.kvLoraRank},
                        {"qk_rope_head_dim", m.mla.qkRopeHeadDim},
                        {"qk_nope_head_dim", m.mla.qkNopeHeadDim},
                        {"v_head_dim", m.mla.vHeadDim}};
    const bool newer = newerFamily(m.family);
    if (newer || m.oBias)
        model["o_bias"] = m.oBias;
    if (newer || m.qkNorm != QkNorm::None)
        model["qk_norm"] = toString(m.qkNorm);
    if (m.slidingWindow > 0) {
        model["sliding_window"] = m.slidingWindow;
        model["sliding_layers"] = m.slidingLayers;
    }
    if (m.attentionSoftcap > 0)
        model["attention_softcap"] = m.attentionSoftcap;
    if (m.finalSoftcap > 0)
        model["final_softcap"] = m.finalSoftcap;
    if (newer || m.attentionSinks)
        model["attention_sinks"] = m.attentionSinks;
    if (m.mtpLayers > 0)
        model["mtp_layers"] = m.mtpLayers;
    const auto &t = s.training;
    const auto &ft = t.finetune;
    const auto &p = s.parallelism;
    json out = {{"format", "vramplan-scenario"},
                {"version", scenarioFormatVersion},
                {"name", s.name},
                {"model", model},
                {"training",
                 {{"mode", toString(t.mode)},
                  {"micro_batch_size", t.microBatchSize},
                  {"sequence_length", t.sequenceLength},
                  {"gradient_accumulation_steps", t.gradientAccumulationSteps},
                  {"precision", toString(t.precision)},
                  {"optimizer", toString(t.optimizer)},
                  {"activation_recompute", toString(t.recompute)},
                  {"attention", toString(t.attention)},
                  {"dropout", t.dropout},
                  {"finetune",
                   {{"method", toString(ft.method)},
                    {"lora_rank", ft.loraRank},
                    {"lora_targets", ft.loraTargets},
                    {"base_weight_bits", ft.baseWeightBits},
                    {"lora_dropout", ft.loraDropout}}}}},
                {"parallelism",
                 {{"gpus", p.gpus},
                  {"tensor_parallel", p.tensorParallel},
                  {"pipeline_parallel", p.pipelineParallel},
                  {"virtual_pipeline_parallel", p.virtualPipelineParallel},
                  {"sequence_parallel", p.sequenceParallel},
                  {"context_parallel", p.contextParallel},
                  {"expert_parallel", p.expertParallel},
                  {"zero_stage", p.zeroStage},
                  {"offload_optimizer", toString(p.offloadOptimizer)},
                  {"offload_parameters", toString(p.offloadParameters)}}},
                {"framework", toString(s.framework)},
                {"gpu", {{"memory_gib", s.gpu.memoryGiB}, {"name", s.gpu.name}}}};
    if (t.recomputeLayers >= 0)
        out["training"]["recompute_layers"] = t.recomputeLayers;
    if (t.mtpLayers > 0)
        out["training"]["mtp_layers"] = t.mtpLayers;
    if (t.loss != LossKind::Standard)
        out["training"]["loss"] = toString(t.loss);
    if (t.compile)
        out["training"]["compile"] = true;
    if (!t.compileLoss)
        out["training"]["compile_loss"] = false;
    if (t.kernels != Kernels::None)
        out["training"]["kernels"] = toString(t.kernels);
    if (t.loop != TrainingLoop::Custom)
        out["training"]["loop"] = toString(t.loop);
    if (p.fsdpVersion > 0)
        out["parallelism"]["fsdp_version"] = p.fsdpVersion;
    if (p.fsdpFloat8AllGather)
        out["parallelism"]["fsdp_float8_all_gather"] = true;
    if (s.frameworkVersion.given)
        out["framework_version"] = frameworkVersionText(s.frameworkVersion);
    if (!s.gpu.preset.empty())
        out["gpu"]["preset"] = s.gpu.preset;
    if (!s.gpu.architecture.empty())
        out["gpu"]["architecture"] = s.gpu.architecture;
    if (const auto &c = s.calibration; c.present)
        out["calibration"] = {{"metric", toString(c.metric)},
                              {"measured_bytes", c.measuredBytes},
                              {"activation_scale", c.activationScale},
                              {"overhead_bytes", c.overheadBytes}};
    if (s.serving.present)
        out["serving"] = servingToJson(s.serving);
    return out;
}

} // namespace vramplan
