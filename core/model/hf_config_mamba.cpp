// Hugging Face configs of the Mamba2 hybrids: Nemotron-H (Nemotron 3), Granite 4.0-H and
// Falcon-H1, read into per-layer `layer_types` and `mlp_types` with the `mamba` shapes each
// family names under its own keys (transformers' configuration classes of the types).

#include "model/hf_reader.h"

#include <string>

namespace vramplan {

using nlohmann::json;

namespace {

// Mamba2's keys under each family's names.
struct MambaKeys
{
    const char *heads, *headDim, *state, *groups, *conv, *chunk, *convBias, *projBias;
};

json mambaFields(HfReader &r, const MambaKeys &k, int64_t inner, bool gatedNorm)
{
    const int64_t heads = r.integer({k.heads}, 128);
    int64_t headDim = inner > 0 && heads > 0 ? inner / heads : 64;
    if (r.has(k.headDim) && r.config()[k.headDim].is_number_integer())
        headDim = r.integer({k.headDim});
    if (inner > 0 && heads * headDim != inner)
        r.fail(k.headDim, std::to_string(heads) + " heads of " + std::to_string(headDim) +
                              " do not make the Mamba inner width " + std::to_string(inner));
    return {{"heads", heads},
            {"head_dim", headDim},
            {"state_size", r.integer({k.state}, 128)},
            {"groups", r.integer({k.groups}, 1)},
            {"conv_kernel", r.integer({k.conv}, 4)},
            {"chunk_size", r.integer({k.chunk}, 256)},
            {"conv_bias", r.boolean(k.convBias, true)},
            {"proj_bias", r.boolean(k.projBias, false)},
            {"gated_norm", gatedNorm}};
}

// NemotronHConfig: one block per entry of hybrid_override_pattern (M Mamba2, * attention,
// - MLP, E MoE) or layers_block_type; each block is one RMSNorm and its mixer or MLP
// (NemotronHBlock). The MLP is squared ReLU without a gate; the MoE's routed experts may work in
// a latent width (moe_latent_size) and it keeps an e_score_correction_bias buffer.
} // namespace

json nemotronFields(HfReader &r)
{
    std::string mixers, mlps;
    const json &config = r.config();
    if (const auto it = config.find("hybrid_override_pattern");
        it != config.end() && it->is_string()) {
        for (char c : it->get<std::string>()) {
            if (c != 'M' && c != '*' && c != '-' && c != 'E') {
                r.fail("hybrid_override_pattern",
                       std::string("'") + c + "' is not M, *, - or E");
                return json::object();
            }
            mixers += c == 'M' ? 'm' : c == '*' ? 'a' : '-';
            mlps += c == 'E' ? 'e' : c == '-' ? 'd' : '-';
        }
    } else {
        for (const auto &t : perLayerList(r, "layers_block_type", -1)) {
            const bool mamba = t == "mamba" || t == "linear_attention";
            const bool attention = t == "attention" || t == "full_attention";
            if (!mamba && !attention && t != "mlp" && t != "moe") {
                r.fail("layers_block_type", "'" + t + "' is not mamba, attention, mlp or moe");
                return json::object();
            }
            mixers += mamba ? 'm' : attention ? 'a' : '-';
            mlps += t == "moe" ? 'e' : t == "mlp" ? 'd' : '-';
        }
    }
    if (mixers.empty()) {
        r.fail("hybrid_override_pattern", "is missing (or layers_block_type): the block kinds");
        return json::object();
    }
    const int64_t layers = int64_t(mixers.size());
    if (r.has("num_hidden_layers") && r.integer({"num_hidden_layers"}) != layers)
        r.fail("num_hidden_layers", "is " + std::to_string(r.integer({"num_hidden_layers"})) +
                                        ", but hybrid_override_pattern names " +
                                        std::to_string(layers) + " blocks");
    const int64_t heads = r.integer({"num_attention_heads"});
    const bool mlpBias = r.boolean("mlp_bias", false);
    json m = {{"family", "nemotron_h"},
              {"layers", layers},
              {"hidden_size", r.integer({"hidden_size"})},
              {"attention_heads", heads},
              {"kv_heads", r.integer({"num_key_value_heads"}, heads)},
              {"head_dim", r.integer({"head_dim"}, 128)},
              {"ffn_hidden_size", r.integer({"intermediate_size"})},
              {"vocab_size", r.integer({"vocab_size"})},
              {"max_positions", r.integer({"max_position_embeddings"}, 4096)},
              {"tied_embeddings", r.boolean("tie_word_embeddings", false)},
              {"ffn_type", "gelu"}, // one up and one down projection, no gate
              {"hidden_act", "relu"},
              {"norms_per_layer", 1},
              {"bias", mlpBias},
              {"layer_types", mixerList(mixers)},
              {"mlp_types", mlpList(mlps)}};
    // vLLM's NemotronHForCausalLMConfig takes the SSM state dtype from mamba_ssm_cache_dtype.
    if (r.string("mamba_ssm_cache_dtype", "float32") == "float32")
        m["state_element_bytes"] = 4;
    if (mixers.find('m') != std::string::npos) {
        const MambaKeys keys{"mamba_num_heads", "mamba_head_dim", "ssm_state_size", "n_groups",
                             "conv_kernel",     "chunk_size",     "use_conv_bias",  "use_bias"};
        const int64_t heads = r.integer({"mamba_num_heads"}, 128);
        m["mamba"] = mambaFields(r, keys, heads * r.integer({"mamba_head_dim"}, 64), true);
    }
    if (mlps.find('e') != std::string::npos) {
        json moe = {{"experts", r.integer({"n_routed_experts"})},
                    {"experts_per_token", r.integer({"num_experts_per_tok"})},
                    {"expert_ffn_hidden_size", r.integer({"moe_intermediate_size"})},
                    // NemotronHMoE builds one shared MLP of the shared width, whatever
                    // n_shared_experts says (vLLM multiplies; every config has 1).
                    {"shared_experts", r.integer({"n_shared_experts"}, 1, 0) > 0 ? 1 : 0},
                    {"shared_expert_ffn_hidden_size",
                     r.integer({"moe_shared_expert_intermediate_size"}, 0, 0)},
                    {"router", "sigmoid"},
                    {"score_correction_bias", true},
                    {"normalize_top_k", r.boolean("norm_topk_prob", true)},
                    {"latent_size", r.integer({"moe_latent_size"}, 0, 0)}};
        checkExperts(r, moe, "num_experts_per_tok", "n_routed_experts");
        m["moe"] = moe;
    }
    return m;
}

// GraniteMoeHybridConfig: every layer has two RMSNorms, a Mamba2 or attention mixer (head width
// hidden / heads) and a shared SwiGLU MLP, beside routed experts where num_local_experts > 0.
json graniteHybridFields(HfReader &r)
{
    const int64_t layers = r.integer({"num_hidden_layers"});
    const int64_t h = r.integer({"hidden_size"});
    const int64_t heads = r.integer({"num_attention_heads"});
    const int64_t shared = r.integer({"shared_intermediate_size"}, 1024);
    const int64_t experts = r.integer({"num_local_experts"}, 0, 0);
    std::vector<std::string> types = perLayerList(r, "layer_types", layers);
    if (types.empty())
        types = perLayerList(r, "layers_block_type", layers);
    std::string mixers;
    for (const auto &t : types) {
        if (t != "mamba" && t != "attention") {
            r.fail("layer_types", "'" + t + "' is not mamba or attention");
            return json::object();
        }
        mixers += t == "mamba" ? 'm' : 'a';
    }
    if (mixers.empty())
        mixers.assign(layerSlots(layers), 'a');
    json m = {{"family", "granitemoehybrid"},
              {"layers", layers},
              {"hidden_size", h},
              {"attention_heads", heads},
              {"kv_heads", r.integer({"num_key_value_heads"}, heads)},
              {"ffn_hidden_size", shared},
              {"vocab_size", r.integer({"vocab_size"})},
              {"max_positions", r.integer({"max_position_embeddings"}, 4096)},
              {"tied_embeddings", r.boolean("tie_word_embeddings", true)},
              {"layer_types", mixerList(mixers)},
              {"mlp_types", mlpList(std::string(layerSlots(layers), experts > 0 ? 'e' : 'd'))}};
    if (r.boolean("attention_bias", false))
        m["qkv_bias"] = true, m["o_bias"] = true;
    if (mixers.find('m') != std::string::npos) {
        const MambaKeys keys{"mamba_n_heads",   "mamba_d_head",     "mamba_d_state",
                             "mamba_n_groups",  "mamba_d_conv",     "mamba_chunk_size",
                             "mamba_conv_bias", "mamba_proj_bias"};
        const double expand = r.number("mamba_expand", 2);
        m["mamba"] = mambaFields(r, keys, int64_t(expand * double(h)), true);
    }
    if (experts > 0) {
        json moe = {{"experts", experts},
                    {"experts_per_token", r.integer({"num_experts_per_tok"}, 2)},
                    {"expert_ffn_hidden_size", r.integer({"intermediate_size"})},
                    {"shared_experts", 1},
                    {"shared_expert_ffn_hidden_size", shared}};
        checkExperts(r, moe, "num_experts_per_tok", "num_local_experts");
        m["moe"] = moe;
    }
    return m;
}

// FalconH1Config: attention and a Mamba2 mixer side by side in every layer, then a SwiGLU MLP;
// the Mamba inner width is mamba_d_ssm (null: mamba_expand * hidden); the gated norm exists only
// with mamba_rms_norm. FalconH1Model's mup_vector is a non-persistent buffer: no parameter.
json falconH1Fields(HfReader &r)
{
    json m = llamaLikeFields(r, "falcon_h1", false);
    const int64_t layers = m["layers"].get<int64_t>();
    const int64_t h = m["hidden_size"].get<int64_t>();
    if (r.boolean("attention_bias", false))
        m["qkv_bias"] = true, m["o_bias"] = true;
    if (r.boolean("mlp_bias", false))
        m["bias"] = true;
    m["layer_types"] = mixerList(std::string(layerSlots(layers), 'p'));
    m["mlp_types"] = mlpList(std::string(layerSlots(layers), 'd'));
    const MambaKeys keys{"mamba_n_heads",  "mamba_d_head", "mamba_d_state",   "mamba_n_groups",
                         "mamba_d_conv",   "mamba_chunk_size", "mamba_conv_bias",
                         "mamba_proj_bias"};
    // FalconH1Config: mamba_d_ssm defaults to 1024; only an explicit null means expand x hidden.
    int64_t inner = int64_t(r.number("mamba_expand", 2) * double(h));
    if (!r.config().contains("mamba_d_ssm"))
        inner = 1024;
    else if (r.has("mamba_d_ssm"))
        inner = r.integer({"mamba_d_ssm"});
    m["mamba"] = mambaFields(r, keys, inner, r.boolean("mamba_rms_norm", false));
    return m;
}


} // namespace vramplan
