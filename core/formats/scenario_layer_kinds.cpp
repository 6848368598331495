// The model fields of the layer-kind extension (SPEC §3, 2026-11): per-layer mixers and MLPs,
// and the shapes of the mixers besides attention (Gated DeltaNet, Mamba2, short convolution),
// Gemma 4's global attention, DeepSeek's indexer and a vision tower; read, checked and written.

#include "formats/enum_names.h"
#include "formats/json_reader.h"
#include "formats/scenario_json.h"
#include "formats/scenario_readers.h"
#include "model/model_weights.h"

#include <algorithm>
#include <utility>

namespace vramplan::scenario_json_internal {
namespace {

using nlohmann::json;

// ModelConfig::layerMixers characters and their spelling in `layer_types`. Sliding and sparse
// attention are attention mixers; the characters keep what the file said.
constexpr std::pair<char, std::string_view> mixerNames[] = {
    {'a', "full_attention"},   {'s', "sliding_attention"}, {'g', "global_attention"},
    {'x', "sparse_attention"}, {'l', "linear_attention"},  {'m', "mamba"},
    {'c', "short_conv"},       {'p', "attention_mamba"},   {'-', "none"}};
constexpr std::pair<char, std::string_view> mlpNames[] = {
    {'d', "dense"}, {'e', "moe"}, {'-', "none"}};

template <size_t N>
std::string namesOf(const std::pair<char, std::string_view> (&table)[N])
{
    std::string out;
    for (size_t i = 0; i < N; ++i)
        out += std::string(i ? ", " : "") + std::string(table[i].second);
    return out;
}

// A list of one name per layer into one character per layer.
template <size_t N>
bool readPerLayer(JsonReader &r, const char *key, const std::pair<char, std::string_view> (&table)[N],
                  int64_t layers, std::string &out)
{
    std::vector<std::string> names;
    if (!r.has(key) || !r.stringList(key, names))
        return r.ok();
    if (int64_t(names.size()) != layers)
        return r.fail(r.fieldPath(key), "names " + std::to_string(names.size()) +
                                            " layers, but model.layers is " +
                                            std::to_string(layers));
    out.clear();
    for (const auto &name : names) {
        const auto *it = std::find_if(std::begin(table), std::end(table),
                                      [&](const auto &e) { return e.second == name; });
        if (it == std::end(table))
            return r.fail(r.fieldPath(key), "'" + printableLine(name, 40) + "' is not one of " +
                                                namesOf(table));
        out += it->first;
    }
    return true;
}

template <size_t N>
json perLayerNames(const std::string &chars, const std::pair<char, std::string_view> (&table)[N])
{
    json out = json::array();
    for (char c : chars)
        for (const auto &[key, name] : table)
            if (key == c)
                out.push_back(name);
    return out;
}

} // namespace

bool readLayerKinds(JsonReader &r, ModelConfig &m, std::string &error)
{
    readPerLayer(r, "layer_types", mixerNames, m.layers, m.layerMixers);
    readPerLayer(r, "mlp_types", mlpNames, m.layers, m.layerMlps);
    r.boolean("attention_output_gate", m.attentionOutputGate);
    r.integer("global_head_dim", m.globalHeadDim, 0, maxHidden);
    r.integer("global_kv_heads", m.globalKvHeads, 0, maxHeads);
    r.boolean("global_key_is_value", m.globalKeyIsValue);
    r.boolean("value_norm", m.valueNorm);
    r.integer("short_conv_kernel", m.shortConvKernel, 1, 64);
    r.integer("state_element_bytes", m.stateElementBytes, 0, 8);
    r.string("hf_model_type", m.hfModelType, 200);
    r.integer("checkpoint_parameters", m.checkpointParameters, 0, int64_t(1) << 50);
    if (const json *la = r.object("linear_attention")) {
        JsonReader lr(*la, "model.linear_attention", error);
        lr.integer("key_heads", m.linear.keyHeads, 0, maxHeads);
        lr.integer("value_heads", m.linear.valueHeads, 0, maxHeads);
        lr.integer("key_head_dim", m.linear.keyHeadDim, 1, 4096);
        lr.integer("value_head_dim", m.linear.valueHeadDim, 1, 4096);
        lr.integer("conv_kernel", m.linear.convKernel, 1, 64);
        lr.boolean("per_channel_gate", m.linear.perChannelGate);
        lr.finish();
    }
    if (const json *mb = r.object("mamba")) {
        JsonReader mr(*mb, "model.mamba", error);
        mr.integer("heads", m.mamba.heads, 0, maxHeads);
        mr.integer("head_dim", m.mamba.headDim, 1, 4096);
        mr.integer("state_size", m.mamba.stateSize, 1, 4096);
        mr.integer("groups", m.mamba.groups, 1, maxHeads);
        mr.integer("conv_kernel", m.mamba.convKernel, 1, 64);
        mr.integer("chunk_size", m.mamba.chunkSize, 1, 1 << 16);
        mr.boolean("conv_bias", m.mamba.convBias);
        mr.boolean("proj_bias", m.mamba.projBias);
        mr.boolean("gated_norm", m.mamba.gatedNorm);
        mr.finish();
    }
    if (const json *ix = r.object("indexer")) {
        JsonReader ir(*ix, "model.indexer", error);
        ir.integer("heads", m.indexer.heads, 0, maxHeads);
        ir.integer("head_dim", m.indexer.headDim, 1, 4096);
        ir.integer("top_k", m.indexer.topK, 1, maxSequence);
        ir.finish();
    }
    if (const json *vi = r.object("vision")) {
        JsonReader vr(*vi, "model.vision", error);
        auto &v = m.vision;
        vr.enumeration("tower", v.tower);
        vr.integer("depth", v.depth, 0, maxLayers);
        vr.integer("hidden_size", v.hiddenSize, 1, maxHidden);
        vr.integer("intermediate_size", v.intermediateSize, 1, maxFfn);
        vr.integer("heads", v.heads, 1, maxHeads);
        vr.integer("head_dim", v.headDim, 0, 4096);
        vr.integer("patch_size", v.patchSize, 1, 1024);
        vr.integer("temporal_patch_size", v.temporalPatchSize, 1, 64);
        vr.integer("spatial_merge", v.spatialMerge, 1, 64);
        vr.integer("out_hidden_size", v.outHiddenSize, 1, maxHidden);
        vr.integer("position_embeddings", v.positionEmbeddings, 0, maxPositions);
        vr.integer("deepstack_mergers", v.deepstackMergers, 0, 64);
        vr.integer("in_channels", v.inChannels, 1, 64);
        vr.finish();
    }
    return r.ok() && error.empty();
}

std::string layerKindConsistency(const ModelConfig &m)
{
    const auto has = [](const std::string &s, const char *chars) {
        return s.find_first_of(chars) != std::string::npos;
    };
    const std::string &mix = m.layerMixers;
    for (const auto &[plan, key] : {std::pair{&m.layerMixers, "layer_types"},
                                    std::pair{&m.layerMlps, "mlp_types"}})
        if (!plan->empty() && int64_t(plan->size()) != m.layers)
            return std::string("model.") + key + ": names " + std::to_string(plan->size()) +
                   " layers, but model.layers is " + std::to_string(m.layers);
    if (has(mix, "l")) {
        const auto &la = m.linear;
        if (la.keyHeads <= 0 || la.valueHeads <= 0)
            return "model.linear_attention: layer_types names linear_attention layers, but "
                   "key_heads and value_heads are not both given";
        if (la.valueHeads % la.keyHeads != 0)
            return "model.linear_attention.value_heads: " + std::to_string(la.valueHeads) +
                   " is not a multiple of key_heads " + std::to_string(la.keyHeads);
    }
    if (has(mix, "mp")) {
        if (m.mamba.heads <= 0)
            return "model.mamba.heads: layer_types names mamba layers, but mamba.heads is 0";
        if (m.mamba.heads % m.mamba.groups != 0)
            return "model.mamba.groups: " + std::to_string(m.mamba.groups) +
                   " does not divide mamba.heads " + std::to_string(m.mamba.heads);
    }
    if (has(mix, "x") && (m.indexer.heads <= 0 || !m.isMla()))
        return "model.indexer: layer_types names sparse_attention layers, which need multi-head "
               "latent attention (model.mla) and indexer.heads";
    if (has(mix, "g") && m.globalHeadDim <= 0)
        return "model.global_head_dim: layer_types names global_attention layers, but "
               "global_head_dim is 0";
    if (m.globalKvHeads > 0 && m.attentionHeads % m.globalKvHeads != 0)
        return "model.global_kv_heads: " + std::to_string(m.globalKvHeads) +
               " does not divide attention_heads " + std::to_string(m.attentionHeads);
    if (has(m.layerMlps, "e") && !m.isMoe())
        return "model.mlp_types: names moe layers, but model.moe.experts is 0";
    if (m.indexer.heads > 0 && !m.isMla())
        return "model.indexer: DeepSeek's indexer reads multi-head latent attention's query "
               "latent; give model.mla";
    if (layerKindsIn(m, 0, m.layers).dropped() > 0)
        return "model.layer_types: more than 8 kinds of layers (mixer and MLP together)";
    if (m.vision.tower != VisionTower::None && m.vision.present()) {
        const auto &v = m.vision;
        if (v.hiddenSize % v.heads != 0 && v.headDim == 0)
            return "model.vision.hidden_size: " + std::to_string(v.hiddenSize) +
                   " is not divisible by vision.heads " + std::to_string(v.heads);
        if (v.outHiddenSize <= 0)
            return "model.vision.out_hidden_size: is 0 (the width the merger projects to)";
    }
    return {};
}

void writeLayerKinds(const ModelConfig &m, json &model)
{
    if (!m.layerMixers.empty())
        model["layer_types"] = perLayerNames(m.layerMixers, mixerNames);
    if (!m.layerMlps.empty())
        model["mlp_types"] = perLayerNames(m.layerMlps, mlpNames);
    if (m.attentionOutputGate)
        model["attention_output_gate"] = true;
    if (m.globalHeadDim > 0) {
        model["global_head_dim"] = m.globalHeadDim;
        model["global_kv_heads"] = m.globalKvHeads;
        model["global_key_is_value"] = m.globalKeyIsValue;
    }
    if (m.valueNorm)
        model["value_norm"] = true;
    if (m.layerMixers.find('c') != std::string::npos)
        model["short_conv_kernel"] = m.shortConvKernel;
    if (m.stateElementBytes > 0)
        model["state_element_bytes"] = m.stateElementBytes;
    if (!m.hfModelType.empty())
        model["hf_model_type"] = m.hfModelType;
    if (m.checkpointParameters > 0)
        model["checkpoint_parameters"] = m.checkpointParameters;
    if (m.linear.keyHeads > 0) {
        model["linear_attention"] = {{"key_heads", m.linear.keyHeads},
                                     {"value_heads", m.linear.valueHeads},
                                     {"key_head_dim", m.linear.keyHeadDim},
                                     {"value_head_dim", m.linear.valueHeadDim},
                                     {"conv_kernel", m.linear.convKernel}};
        if (m.linear.perChannelGate) // Kimi Delta Attention
            model["linear_attention"]["per_channel_gate"] = true;
    }
    if (m.mamba.heads > 0)
        model["mamba"] = {{"heads", m.mamba.heads},         {"head_dim", m.mamba.headDim},
                          {"state_size", m.mamba.stateSize}, {"groups", m.mamba.groups},
                          {"conv_kernel", m.mamba.convKernel}, {"chunk_size", m.mamba.chunkSize},
                          {"conv_bias", m.mamba.convBias},   {"proj_bias", m.mamba.projBias},
                          {"gated_norm", m.mamba.gatedNorm}};
    if (m.indexer.heads > 0)
        model["indexer"] = {{"heads", m.indexer.heads},
                            {"head_dim", m.indexer.headDim},
                            {"top_k", m.indexer.topK}};
    if (m.vision.tower != VisionTower::None) {
        const auto &v = m.vision;
        model["vision"] = {{"tower", toString(v.tower)},
                           {"depth", v.depth},
                           {"hidden_size", v.hiddenSize},
                           {"intermediate_size", v.intermediateSize},
                           {"heads", v.heads},
                           {"head_dim", v.headDim},
                           {"patch_size", v.patchSize},
                           {"temporal_patch_size", v.temporalPatchSize},
                           {"spatial_merge", v.spatialMerge},
                           {"out_hidden_size", v.outHiddenSize},
                           {"position_embeddings", v.positionEmbeddings},
                           {"deepstack_mergers", v.deepstackMergers},
                           {"in_channels", v.inChannels}};
    }
}

} // namespace vramplan::scenario_json_internal
