// The mixers that replace attention in hybrid models: Gated DeltaNet (Qwen3-Next, Qwen3.5) and
// its Kimi Delta Attention variant (Kimi Linear), Mamba2 (Nemotron-H, Granite 4.0-H, Falcon-H1)
// and LFM2's gated short convolution, as the transformers classes named below build them. Heads
// split across tensor-parallel ranks as vLLM shards them (ColumnParallelLinear in_proj,
// RowParallelLinear out_proj, per-head vectors).

#include "model/weight_builders.h"

namespace vramplan {
namespace {

constexpr auto L = WeightPlace::Layer;

} // namespace

// Qwen3NextGatedDeltaNet / Qwen3_5GatedDeltaNet: the input projection to q, k, v and the output
// gate z (one fused in_proj_qkvz in Qwen3-Next, in_proj_qkv and in_proj_z in Qwen3.5) and to the
// per-head beta and decay inputs b and a; a depthwise conv1d of kernel linear_conv_kernel_dim
// over q, k and v (no bias); dt_bias and A_log per value head; a gated RMSNorm over
// linear_value_head_dim shared by the heads; out_proj.
void addLinearAttentionWeights(WeightList &out, const ModelConfig &m)
{
    const auto &la = m.linear;
    const int64_t h = m.hiddenSize;
    const int64_t kd = la.keyWidth(), vd = la.valueWidth();
    if (la.perChannelGate) {
        addKimiDeltaWeights(out, m);
        return;
    }
    if (m.family == Family::Qwen3Next) {
        out.push_back({"linear_attn.in_proj_qkvz.weight", "in_proj_qkvz", L, 2 * kd + 2 * vd, h, 1,
                       true, true});
        out.push_back(
            {"linear_attn.in_proj_ba.weight", "in_proj_ba", L, 2 * la.valueHeads, h, 1, true, true});
    } else {
        out.push_back(
            {"linear_attn.in_proj_qkv.weight", "in_proj_qkv", L, 2 * kd + vd, h, 1, true, true});
        out.push_back({"linear_attn.in_proj_z.weight", "in_proj_z", L, vd, h, 1, true, true});
        out.push_back(
            {"linear_attn.in_proj_b.weight", "in_proj_b", L, la.valueHeads, h, 1, true, true});
        out.push_back(
            {"linear_attn.in_proj_a.weight", "in_proj_a", L, la.valueHeads, h, 1, true, true});
    }
    out.push_back({"linear_attn.conv1d.weight", {}, L, la.convWidth(), la.convKernel, 1, true,
                   false});
    out.push_back({"linear_attn.dt_bias", {}, L, la.valueHeads, 1, 1, true, false});
    out.push_back({"linear_attn.A_log", {}, L, la.valueHeads, 1, 1, true, false});
    out.push_back({"linear_attn.norm.weight", {}, L, la.valueHeadDim, 1, 1, false, false});
    out.push_back({"linear_attn.out_proj.weight", "out_proj", L, h, vd, 1, true, true});
}

// KimiDeltaAttention (Kimi Linear's modeling_kimi.py; fla/layers/kda.py), as the checkpoint
// stores it: q_proj, k_proj and v_proj, each with its depthwise ShortConvolution of
// short_conv_kernel_size (q_conv1d, k_conv1d, v_conv1d; no bias); the decay per key channel from
// f_a_proj (h -> head_dim, replicated in vLLM) and f_b_proj (head_dim -> keys), A_log per head
// and dt_bias per key channel; beta from b_proj (h -> heads); the output gate from g_a_proj and
// g_b_proj (no bias); o_norm, a gated RMSNorm over head_dim; o_proj.
void addKimiDeltaWeights(WeightList &out, const ModelConfig &m)
{
    const auto &la = m.linear;
    const int64_t h = m.hiddenSize, rank = la.valueHeadDim;
    const int64_t kd = la.keyWidth(), vd = la.valueWidth(), kc = la.convKernel;
    out.push_back({"self_attn.q_proj.weight", "q_proj", L, kd, h, 1, true, true});
    out.push_back({"self_attn.k_proj.weight", "k_proj", L, kd, h, 1, true, true});
    out.push_back({"self_attn.v_proj.weight", "v_proj", L, vd, h, 1, true, true});
    out.push_back({"self_attn.q_conv1d.weight", {}, L, kd, kc, 1, true, false});
    out.push_back({"self_attn.k_conv1d.weight", {}, L, kd, kc, 1, true, false});
    out.push_back({"self_attn.v_conv1d.weight", {}, L, vd, kc, 1, true, false});
    out.push_back({"self_attn.f_a_proj.weight", "f_a_proj", L, rank, h, 1, false, true});
    out.push_back({"self_attn.f_b_proj.weight", "f_b_proj", L, kd, rank, 1, true, true});
    out.push_back({"self_attn.A_log", {}, L, la.keyHeads, 1, 1, true, false});
    out.push_back({"self_attn.dt_bias", {}, L, kd, 1, 1, true, false});
    out.push_back({"self_attn.b_proj.weight", "b_proj", L, la.keyHeads, h, 1, true, true});
    out.push_back({"self_attn.g_a_proj.weight", "g_a_proj", L, rank, h, 1, false, true});
    out.push_back({"self_attn.g_b_proj.weight", "g_b_proj", L, vd, rank, 1, true, true});
    out.push_back({"self_attn.o_norm.weight", {}, L, la.valueHeadDim, 1, 1, false, false});
    out.push_back({"self_attn.o_proj.weight", "o_proj", L, h, vd, 1, true, true});
}

// NemotronHMamba2Mixer / GraniteMoeHybridMambaLayer / FalconH1Mixer: in_proj to z, x, B, C
// and dt (2 * inner + 2 * groups * state + heads); a depthwise conv1d over x, B and C; dt_bias,
// A_log and D per head; the gated RMSNorm over the inner width; out_proj.
void addMambaWeights(WeightList &out, const ModelConfig &m)
{
    const auto &mb = m.mamba;
    const int64_t h = m.hiddenSize;
    addLinear(out, {"mixer.in_proj.weight", "mixer.in_proj.bias", "in_proj"}, h, mb.inProjWidth(),
              mb.projBias, L);
    out.push_back({"mixer.conv1d.weight", {}, L, mb.convWidth(), mb.convKernel, 1, true, false});
    if (mb.convBias)
        out.push_back({"mixer.conv1d.bias", {}, L, mb.convWidth(), 1, 1, true, false});
    out.push_back({"mixer.dt_bias", {}, L, mb.heads, 1, 1, true, false});
    out.push_back({"mixer.A_log", {}, L, mb.heads, 1, 1, true, false});
    out.push_back({"mixer.D", {}, L, mb.heads, 1, 1, true, false});
    if (mb.gatedNorm)
        out.push_back({"mixer.norm.weight", {}, L, mb.innerWidth(), 1, 1, true, false});
    addLinear(out, {"mixer.out_proj.weight", "mixer.out_proj.bias", "out_proj"},
              mb.innerWidth(), h, mb.projBias, L);
}

// Lfm2ShortConv: in_proj h -> 3h (B, C, x), a depthwise conv1d of conv_L_cache over B * x, and
// out_proj; no biases (conv_bias false in every LFM2 config).
void addShortConvWeights(WeightList &out, const ModelConfig &m)
{
    const int64_t h = m.hiddenSize;
    out.push_back({"conv.in_proj.weight", "in_proj", L, 3 * h, h, 1, true, true});
    out.push_back({"conv.conv.weight", {}, L, h, m.shortConvKernel, 1, true, false});
    out.push_back({"conv.out_proj.weight", "out_proj", L, h, h, 1, true, true});
}

} // namespace vramplan
