// The saved tensors of the mixers that replace attention in hybrid models, per layer and
// micro-batch, as the kernels people run save them (training.linear_kernels fla) or as the torch
// fallbacks of transformers' modeling files keep them (torch): Gated DeltaNet
// (flash-linear-attention's chunk_gated_delta_rule, causal-conv1d, FusedRMSNormGated), Mamba2
// (mamba_ssm's mamba_split_conv1d_scan_combined), LFM2's gated short convolution. Heads split
// across tensor-parallel ranks.

#include "training/activation_dims.h"
#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {
namespace {

bool torchKernels(const StageContext &c)
{
    return c.t.linearKernels == LinearKernels::Torch;
}

} // namespace

// Qwen3NextGatedDeltaNet / Qwen3_5GatedDeltaNet.forward. With flash-linear-attention
// (fla/ops/gated_delta_rule/chunk.py ChunkGatedDeltaRuleFunction.forward) the kernel saves the
// l2-normalised q and k with their fp32 rstd, v, the fp32 cumulative decay g, beta and the
// per-chunk (I + A)^-1 of 64 columns; the chunk states h are recomputed in backward.
// causal_conv1d_fn saves its input only; FusedRMSNormGated its input, gate and rstd. Qwen3-Next
// repeats q and k to the value heads before the kernel; Qwen3.5 passes grouped heads (fla >= 0.5).
void addLinearAttention(const StageContext &c, const Dims &d, Inventory &inv)
{
    const auto &la = c.m.linear;
    const double tp = d.tp;
    const double hv = double(la.valueHeads) / tp, hk = double(la.keyHeads) / tp;
    const double k = double(la.keyHeadDim), vd = hv * double(la.valueHeadDim);
    const double conv = 2 * hk * k + vd;
    const double t = d.tokens, cb = d.c;
    if (torchKernels(c)) {
        // torch_chunk_gated_delta_rule works in fp32 on [b, heads, s, .]: about eight key-wide
        // and three value-wide intermediates, four of the chunk's width, and every chunk state
        // S_i (key x value per 64 tokens), each an operand of the next chunk's matmuls.
        inv.push_back({"GDN chunked delta rule (torch): fp32 intermediates and chunk states",
                       "b*s*Hv*(8K + 3V + 4*64 + K*V/64)*4",
                       t * hv *
                           (8 * k + 3 * double(la.valueHeadDim) + 4 * 64 +
                            k * double(la.valueHeadDim) / 64) *
                           4});
        inv.push_back({"GDN conv1d input and SiLU input (torch)", "b*s*conv*2c",
                       t * conv * 2 * cb});
        inv.push_back({"GDN gated RMSNorm (torch: fp32 copies, the gate's SiLU)",
                       "b*s*Hv*V*16", t * vd * 16});
    } else {
        const double hq = c.m.family == Family::Qwen3Next ? hv : hk;
        inv.push_back({"GDN conv1d input (causal_conv1d_fn)", "b*s*(2*Hk*K + Hv*V)*c",
                       t * conv * cb});
        inv.push_back({"GDN q and k, l2-normalised, with fp32 rstd (chunk_gated_delta_rule)",
                       "b*s*Hq*(2K*c + 8)", t * hq * (2 * k * cb + 8)});
        inv.push_back({"GDN v (contiguous copy for the kernel)", "b*s*Hv*V*c", t * vd * cb});
        inv.push_back({"GDN decay: fp32 cumulative g, softplus input and output", "b*s*Hv*12",
                       t * hv * 12});
        inv.push_back({"GDN beta (sigmoid of b)", "b*s*Hv*c", t * hv * cb});
        inv.push_back({"GDN per-chunk (I + A)^-1 (64 columns)", "b*s*Hv*64*c",
                       t * hv * 64 * cb});
        inv.push_back({"GDN gated RMSNorm input, gate and rstd (FusedRMSNormGated)",
                       "b*s*(2*Hv*V*c + Hv*4)", t * (2 * vd * cb + 4 * hv)});
    }
    if (linearSavesInput(c, "out_proj"))
        inv.push_back({"GDN out_proj input", "b*s*Hv*V*c", t * vd * cb});
    for (const char *target : {"in_proj_qkvz", "in_proj_qkv", "in_proj_z"})
        addLora(c, d, inv, target, d.h, true);
    addLora(c, d, inv, "out_proj", vd, false);
}

// A Mamba2 mixer (NemotronHMamba2Mixer, GraniteMoeHybridMambaLayer, FalconH1Mixer). Under
// training transformers calls mamba_ssm's fused mamba_split_conv1d_scan_combined
// (MambaSplitConv1dScanCombinedFn.forward saves the in_proj output zxbcdt, the scan output
// before the gated norm and its rstd, and recomputes the convolution, the chunk states and the
// normed output). Nemotron-H's model creates a cache unless use_cache is off, which selects the
// unfused path (causal_conv1d_fn, mamba_chunk_scan_combined, a torch gated norm); gradient
// checkpointing turns the cache off. The torch fallback (torch_forward) keeps the chunked
// scan's fp32 intermediates.
void addMamba(const StageContext &c, const Dims &d, Inventory &inv)
{
    const auto &mb = c.m.mamba;
    const double tp = d.tp;
    const double inner = double(mb.innerWidth()) / tp, heads = double(mb.heads) / tp;
    const double inProj = double(mb.inProjWidth()) / tp, conv = double(mb.convWidth()) / tp;
    const double groups = std::max(1.0, double(mb.groups) / tp);
    const double n = double(mb.stateSize), l = double(mb.chunkSize), p = double(mb.headDim);
    const double t = d.tokens, cb = d.c;
    const bool outSaved = linearSavesInput(c, "out_proj");
    if (torchKernels(c)) {
        inv.push_back({"Mamba2 in_proj output and conv1d output (torch)", "b*s*(in + conv)*c",
                       t * (inProj + conv) * cb});
        // torch_forward: x in fp32 and padded, x*dt, B and C repeated to the heads, the
        // segment-sum decay L (heads x chunk per token), G and M, B_decay, the chunk states
        // before and after passing (per chunk), C times states, the gated norm in fp32.
        inv.push_back({"Mamba2 chunked scan (torch): fp32 intermediates",
                       "b*s*(3I + 2*H*N + 3*H*l + H*N + 2*H*P*N/l + I)*4",
                       t * (3 * inner + 2 * heads * n + 3 * heads * l + heads * n +
                            2 * heads * p * n / l + inner) *
                           4});
        inv.push_back({"Mamba2 gated RMSNorm (torch, fp32)", "b*s*I*5*4", t * inner * 20});
    } else if (c.m.family == Family::NemotronH && c.hfModelCode() &&
               c.t.recompute != Recompute::Full) {
        inv.push_back({"Mamba2 in_proj output (conv and dt views)", "b*s*in*c", t * inProj * cb});
        inv.push_back({"Mamba2 conv1d output (x, B, C)", "b*s*conv*c", t * conv * cb});
        inv.push_back({"Mamba2 scan output and fp32 dA_cumsum (mamba_chunk_scan_combined)",
                       "b*s*(I*c + H*4)", t * (inner * cb + heads * 4)});
        inv.push_back({"Mamba2 gated RMSNorm (Zamba2RMSNormGated: fp32 copies)",
                       "b*s*I*(16 + c)", t * inner * (16 + cb)});
    } else {
        inv.push_back({"Mamba2 in_proj output zxbcdt (fused scan)", "b*s*in*c",
                       t * inProj * cb});
        inv.push_back({"Mamba2 scan output before the gated norm, and its rstd",
                       "b*s*(I*c + G*4)", t * (inner * cb + groups * 4)});
    }
    // Falcon-H1 scales in_proj's output by mup_vector: one more tensor of its width.
    if (c.m.family == Family::FalconH1)
        inv.push_back({"Mamba2 in_proj output times mup_vector (Falcon-H1)", "b*s*in*c",
                       t * inProj * cb});
    // Inside the fused function F.linear(out_proj) keeps nothing apart; elsewhere out_proj keeps
    // the normed output.
    if (outSaved && (torchKernels(c) || c.m.family == Family::NemotronH))
        inv.push_back({"Mamba2 out_proj input", "b*s*I*c", t * inner * cb});
    addLora(c, d, inv, "in_proj", d.h, true);
    addLora(c, d, inv, "out_proj", inner, false);
}

// Lfm2ShortConv.forward: in_proj to B, C and x (kept: B*x and C*conv read views of it), the
// product B*x (the convolution's input), the convolution's output, and out_proj's input; the
// same with causal_conv1d (no activation to recompute).
void addShortConv(const StageContext &c, const Dims &d, Inventory &inv)
{
    const double h = d.h / d.tp, t = d.tokens, cb = d.c;
    inv.push_back({"short conv in_proj output (B, C, x)", "b*s*3h*c", t * 3 * h * cb});
    inv.push_back({"short conv input B*x and output", "b*s*2h*c", t * 2 * h * cb});
    if (linearSavesInput(c, "out_proj"))
        inv.push_back({"short conv out_proj input", "b*s*h*c", t * h * cb});
    addLora(c, d, inv, "in_proj", d.h, true);
    addLora(c, d, inv, "out_proj", h, false);
}

// The transient of the torch Mamba2 scan that outlives no op: G_intermediate
// (b, chunks, l, l, heads, N) in fp32, materialised once per layer in forward and again in
// backward (modeling_*.py torch_forward).
double mambaTorchTransientBytes(const StageContext &c, const Dims &d)
{
    const auto &mb = c.m.mamba;
    return d.tokens * double(mb.chunkSize) * double(mb.heads) / d.tp * double(mb.stateSize) * 4;
}

} // namespace vramplan
