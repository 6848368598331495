// The attention of one layer: multi-head (grouped) attention with its q/k norms, output gate and
// sinks; Gemma 4's global attention; multi-head latent attention with DeepSeek's lightning
// indexer.

#include "model/weight_builders.h"

namespace vramplan {
namespace {

constexpr auto L = WeightPlace::Layer;

// Multi-head latent attention as transformers' DeepseekV3Attention builds it: q through
// q_a_proj (h -> q_lora_rank), q_a_layernorm and q_b_proj (-> heads * (nope + rope)), or one
// q_proj; kv_a_proj_with_mqa (h -> kv_lora_rank + rope), kv_a_layernorm, kv_b_proj
// (kv_lora_rank -> heads * (nope + v)); o_proj (heads * v -> h). The down-projections are
// replicated across tensor-parallel ranks (Megatron's MLA: linear_q_down_proj and
// linear_kv_down_proj are not split).
void addMlaAttention(WeightList &out, const ModelConfig &m)
{
    const int64_t h = m.hiddenSize;
    const int64_t a = m.attentionHeads;
    const auto &mla = m.mla;
    const bool inBias = m.bias || m.qkvBias;
    if (mla.qLoraRank > 0) {
        out.push_back({"q_a_proj.weight", "q_a_proj", L, mla.qLoraRank, h, 1, false, true});
        if (inBias)
            out.push_back({"q_a_proj.bias", {}, L, mla.qLoraRank, 1, 1, false, false});
        out.push_back({"q_a_layernorm.weight", {}, L, mla.qLoraRank, 1, 1, false, false});
        addLinear(out, {"q_b_proj.weight", {}, "q_b_proj"}, mla.qLoraRank, a * mla.qkHeadDim(),
                  false, L);
    } else {
        addLinear(out, {"q_proj.weight", {}, "q_proj"}, h, a * mla.qkHeadDim(), false, L);
    }
    const int64_t kvA = mla.kvLoraRank + mla.qkRopeHeadDim;
    out.push_back({"kv_a_proj_with_mqa.weight", "kv_a_proj_with_mqa", L, kvA, h, 1, false, true});
    if (inBias)
        out.push_back({"kv_a_proj_with_mqa.bias", {}, L, kvA, 1, 1, false, false});
    out.push_back({"kv_a_layernorm.weight", {}, L, mla.kvLoraRank, 1, 1, false, false});
    addLinear(out, {"kv_b_proj.weight", {}, "kv_b_proj"}, mla.kvLoraRank,
              a * (mla.qkNopeHeadDim + mla.vHeadDim), false, L);
    addLinear(out, {"o_proj.weight", "o_proj.bias", "o_proj"}, a * mla.vHeadDim, h,
              m.bias || m.oBias, L);
}

// DeepSeek sparse attention's lightning indexer (transformers DeepseekV32Indexer,
// GlmMoeDsaIndexer; built in every layer): wq_b from the query's low-rank latent, wk and
// weights_proj from the layer input, a LayerNorm (weight and bias) over the key. Replicated
// across tensor-parallel ranks (vLLM's Indexer uses ReplicatedLinear).
void addIndexer(WeightList &out, const ModelConfig &m)
{
    const auto &ix = m.indexer;
    const int64_t h = m.hiddenSize;
    const int64_t q = m.mla.qLoraRank > 0 ? m.mla.qLoraRank : h;
    out.push_back({"indexer.wq_b.weight", {}, L, ix.heads * ix.headDim, q, 1, false, true});
    out.push_back({"indexer.wk.weight", {}, L, ix.headDim, h, 1, false, true});
    out.push_back({"indexer.k_norm (weight, bias)", {}, L, 2 * ix.headDim, 1, 1, false, false});
    out.push_back({"indexer.weights_proj.weight", {}, L, ix.heads, h, 1, false, false});
}

} // namespace

void addAttentionWeights(WeightList &out, const ModelConfig &m, Mixer mixer)
{
    const int64_t h = m.hiddenSize;
    const bool global = mixer == Mixer::GlobalAttention;
    const int64_t headDim = global && m.globalHeadDim > 0 ? m.globalHeadDim : m.headDim;
    const int64_t kvHeads = global && m.globalKvHeads > 0 ? m.globalKvHeads : m.kvHeads;
    const int64_t qWidth = m.attentionHeads * headDim;
    const int64_t kvWidth = kvHeads * headDim;
    const bool qkvBias = m.bias || m.qkvBias;
    if (m.isMla()) {
        addMlaAttention(out, m);
        if (m.indexer.heads > 0)
            addIndexer(out, m);
    } else {
        // Gated attention (Qwen3NextAttention): q_proj yields the query and a gate per element.
        const int64_t qRows = m.attentionOutputGate ? 2 * qWidth : qWidth;
        addLinear(out, {"q_proj.weight", "q_proj.bias", "q_proj"}, h, qRows, qkvBias,
                  WeightPlace::Layer);
        addLinear(out, {"k_proj.weight", "k_proj.bias", "k_proj"}, h, kvWidth, qkvBias,
                  WeightPlace::Layer);
        // Gemma 4's global layers with attention_k_eq_v use the keys as values: no v_proj.
        if (!(global && m.globalKeyIsValue))
            addLinear(out, {"v_proj.weight", "v_proj.bias", "v_proj"}, h, kvWidth, qkvBias,
                      WeightPlace::Layer);
        addLinear(out, {"o_proj.weight", "o_proj.bias", "o_proj"}, qWidth, h, m.bias || m.oBias,
                  WeightPlace::Layer);
    }
    // q/k norms: an RMSNorm weight of head_dim shared by every head (Qwen3, Gemma 3), or over
    // the whole projection (OLMo 2, split with the heads under tensor parallelism); Llama 4's
    // L2 norm has no weight.
    if (m.qkNorm == QkNorm::Head && !m.isMla()) {
        out.push_back({"q_norm.weight", {}, WeightPlace::Layer, headDim, 1, 1, false, false});
        out.push_back({"k_norm.weight", {}, WeightPlace::Layer, headDim, 1, 1, false, false});
    } else if (m.qkNorm == QkNorm::Full && !m.isMla()) {
        out.push_back({"q_norm.weight", {}, WeightPlace::Layer, qWidth, 1, 1, true, false});
        out.push_back({"k_norm.weight", {}, WeightPlace::Layer, kvWidth, 1, 1, true, false});
    }
    if (m.attentionSinks) // gpt-oss: nn.Parameter(num_attention_heads), split with the heads
        out.push_back({"sinks", {}, WeightPlace::Layer, m.attentionHeads, 1, 1, true, false});
}

} // namespace vramplan
