// The saved tensors of the mixers that replace attention in hybrid models, per layer and
// micro-batch, as the kernels people run save them (training.linear_kernels fla) or as the torch
// fallbacks of transformers' modeling files keep them (torch): Gated DeltaNet
// (flash-linear-attention's chunk_gated_delta_rule, causal-conv1d, FusedRMSNormGated), Mamba2
// (mamba_ssm's mamba_split_conv1d_scan_combined), LFM2's gated short convolution. Heads split
// across tensor-parallel ranks.

#include "training/activation_dims.h"
#include "training/stage_context.h"
#include "training/state_rules.h"

#include <algorithm>
#include <cmath>

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
        // transformers' torch fallbacks (modeling_qwen3_5.py after PR #47625; measured on the
        // CPU, tests/measure/hybrid_blocks.py): conv1d keeps the in_proj output and SiLU the
        // convolution's output (padded by kernel - 1); torch_chunk_gated_delta_rule repeats q
        // and k to the value heads, works in fp32 and keeps, per value head, the l2norm inputs
        // and statistics of q and k, then on the sequence padded to 64: six key-wide tensors
        // (k, k*beta, scaled q, the solved k_cumdecay, q and k times their decays), three
        // value-wide (v, the solved new values, each chunk's v_new), five chunk-wide (the
        // pairwise decays, k_beta k^T and q k^T products, the UT system, the intra-chunk
        // attention), beta and three decay vectors, and every chunk's state (key x value).
        const double b = double(std::max<int64_t>(1, c.t.microBatchSize));
        const double s = t / b, chunk = 64;
        const double chunks = std::ceil(s / chunk), padded = b * chunks * chunk;
        const double kc = double(la.convKernel), v = double(la.valueHeadDim);
        inv.push_back({"GDN conv1d input and SiLU input (torch)",
                       "b*s*conv*c + b*conv*(s + kernel - 1)*c",
                       t * conv * cb + b * conv * (s + kc - 1) * cb});
        inv.push_back({"GDN decay and beta: softplus input and output (fp32), sigmoid",
                       "b*s*Hv*(8 + c)", t * hv * (8 + cb)});
        // In fp32 without repeated heads, .to(float32, contiguous_format) aliases (the memory
        // format only suggests): l2norm keeps views of the SiLU output, q, k and v together.
        const bool aliased = cb >= 4 && la.valueHeads == la.keyHeads;
        inv.push_back({"GDN q and k l2norm inputs and statistics (torch, fp32)",
                       aliased ? "b*s*(conv + 2*Hv)*4" : "b*s*Hv*(2K + 2)*4",
                       aliased ? t * (conv + 2 * hv) * 4 : t * hv * (2 * k + 2) * 4});
        inv.push_back({"GDN chunked delta rule (torch): fp32 intermediates on the padded sequence",
                       "b*s64*Hv*(6K + 3V + 5*64 + 4)*4",
                       padded * hv * (6 * k + 3 * v + 5 * chunk + 4) * 4});
        inv.push_back({"GDN chunk states (torch, fp32)", "b*chunks*Hv*(K*V + 1)*4",
                       b * chunks * hv * (k * v + 1) * 4});
        if (c.amp)
            // Under autocast the delta rule's matmuls run in 16 bits and each keeps 16-bit
            // copies of its fp32 operands: k*beta and k, q and k (the UT system and q k^T), and in
            // the chunk loop k_cumdecay, the decayed q and k, the intra-chunk attention, v_new
            // twice and the state twice per chunk. The decayed q and k, v_new and the
            // intra-chunk attention are then kept only as those copies, and the two products
            // are 16-bit: per token and head c*(7K + 2V + 64) - 4*(2K + V + 64) - 2*64*(4 - c).
            inv.push_back({"GDN chunked delta rule under autocast: 16-bit matmul operands",
                           "b*s64*Hv*(c*(7K + 2V + 64) - 4*(2K + V + 64) - 128*(4 - c)) + "
                           "b*chunks*Hv*2*K*V*c",
                           std::max(0.0, padded * hv *
                                                 (cb * (7 * k + 2 * v + chunk) -
                                                  4 * (2 * k + v + chunk) - 2 * chunk * (4 - cb)) +
                                             b * chunks * hv * 2 * k * v * cb)});
        // Qwen3_5RMSNormGated: the fp32 input and its rstd, the normed product cast back, the
        // gate in fp32, its SiLU and the weighted product (16-bit where the model is; fp32
        // under autocast, where the weight is fp32).
        const double weighted = c.amp ? 4.0 : cb;
        inv.push_back({"GDN gated RMSNorm (torch: fp32 copies, the gate's SiLU)",
                       "b*s*Hv*(V*(12 + c + weighted bytes) + 4)",
                       t * hv * (v * (12 + cb + weighted) + 4)});
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
        addKimiDeltaExtras(c, d, inv); // Kimi Delta Attention's own tensors; none for GDN
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
        // torch_forward (modeling_nemotron_h.py, measured on the CPU: tests/measure/
        // hybrid_blocks.py): conv1d keeps the in_proj output, SiLU the convolution's output;
        // softplus, clamp and the product keep dt; the scan works in fp32 on the sequence padded
        // to the chunk: x (its fp32 copy, padded for the D residual, times dt), B and C repeated
        // to the heads and B's decayed copy, the segment-sum decay L with G and M (heads x
        // chunk per token), the chunk states before and after passing (chunks + 1), C times
        // the states summed, the decay vectors; the gated norm keeps the gate in fp32, its
        // SiLU, the scan output, the product and the normed output, with a statistic per group.
        const double b = double(std::max<int64_t>(1, c.t.microBatchSize));
        const double s = t / b;
        const double chunks = std::ceil(s / l), padded = b * chunks * l;
        const double kc = double(mb.convKernel);
        const bool fp32 = cb >= 4; // the .float() copies are the tensors themselves
        inv.push_back({"Mamba2 in_proj output and conv1d output (torch)",
                       "b*s*in*c + b*conv*(s + kernel - 1)*c",
                       t * inProj * cb + b * conv * (s + kc - 1) * cb});
        inv.push_back({"Mamba2 dt: softplus and clamp inputs, the clamped dt", "b*s*H*3c",
                       t * heads * 3 * cb});
        inv.push_back({"Mamba2 chunked scan (torch): fp32 x, padded x, x*dt, C*states, output",
                       "b*s*I*4 (fp32: b*s*conv*4) + b*s_l*I*4*4",
                       (fp32 ? t * conv : t * inner) * 4 + padded * inner * 4 * 4});
        inv.push_back({"Mamba2 chunked scan (torch): B, C and decayed B; L, G and M",
                       "b*s_l*H*(3N + 3l + 2)*4", padded * heads * (3 * n + 3 * l + 2) * 4});
        inv.push_back({"Mamba2 chunk states before and after passing (torch)",
                       "2*b*(chunks + 1)*H*P*N*4 + b*H*(chunks + 1)^2*4 + 2*l^2",
                       2 * b * (chunks + 1) * heads * p * n * 4 +
                           b * heads * (chunks + 1) * (chunks + 1) * 4 + 2 * l * l});
        inv.push_back({"Mamba2 gated RMSNorm (torch, fp32)", "b*s*(4I (fp32: 3I)*4 + G*4)",
                       t * ((fp32 ? 3 : 4) * inner * 4 + groups * 4)});
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

// The transient of the torch Mamba2 scan that outlives no op: the largest of the products
// summed at once (modeling_*.py torch_forward), on the sequence padded to the chunk, in fp32:
// G_intermediate (chunk x heads x N per token), the Y_diag product (chunk x heads x P) and the
// chunk states' and C-times-states products (heads x P x N); made in forward and again in
// backward.
double mambaTorchTransientBytes(const StageContext &c, const Dims &d)
{
    const auto &mb = c.m.mamba;
    const double b = double(std::max<int64_t>(1, c.t.microBatchSize));
    const double l = double(mb.chunkSize), s = d.tokens / b;
    const double padded = b * std::ceil(s / l) * l;
    const double n = double(mb.stateSize), p = double(mb.headDim);
    return padded * double(mb.heads) / d.tp * std::max({l * n, l * p, p * n}) * 4;
}

// Bytes of the gradients of `elements` (local) trainable elements where backward makes them one
// layer at a time: a full fine-tune on one pipeline stage, one micro-batch a step (with
// accumulation they are alive all step already, model_states.cpp), neither ZeRO-2/3 nor
// Megatron (which reduce them into shards or buffers); in their training dtype (state_rules.h
// gradientBytes). 0 elsewhere: what is alive then does not depend on the backward order.
double layerByLayerGradientBytes(const StageContext &c, double elements)
{
    const bool made = c.full && c.pp == 1 && c.t.gradientAccumulationSteps <= 1 &&
                      c.p.zeroStage < 2 && c.s.framework != Framework::Megatron;
    return made ? elements * gradientBytes(c) : 0.0;
}

// What autograd holds when a Mamba2 layer's torch scan runs its backward (the step's peak with
// the scan's two fp32 blocks, activations.cpp). Backward runs the layers last to first: each
// frees what it saved and leaves its weights' gradients. At a Mamba2 layer's scan the layers
// before it and its own mixer still hold their saved tensors (its MLP, after the mixer in the
// layer, has run its backward and freed them), and the layers after it, its MLP, the final norm
// and the head have their gradients. The moment is taken at the stage's Mamba2 layer where that
// is largest: the earliest where later MoE layers' expert gradients outweigh the activations
// freed on the way (Nemotron 3 Nano's first layer), the latest where each layer's activations
// outweigh its gradients (Granite 4.0-H Tiny) (allocator snapshots of an H200,
// tests/data/measured/gpu). Gradients count where backward makes them one layer at a time
// (layerByLayerGradientBytes), split by tensor parallelism; without them the moment is the last
// Mamba2 layer's.
MambaScanMoment mambaScanMoment(const StageContext &c, const std::array<double, 8> &mixerSaved,
                                const std::array<double, 8> &mlpSaved)
{
    const auto &groups = c.layerGroups();
    const bool gradients = layerByLayerGradientBytes(c, 1) > 0;
    auto tensorBytes = [&](const WeightTensor &t) {
        return layerByLayerGradientBytes(c, double(t.elements()) /
                                                (t.tensorParallel ? double(c.tp) : 1.0));
    };
    auto bytesOf = [&](const WeightList &list) {
        double bytes = 0;
        for (const auto &t : list)
            bytes += tensorBytes(t);
        return bytes;
    };
    // Per group: a layer's gradients, and those of its MLP part (with the layer's norms, a few
    // h) where the layer also has a mixer.
    std::array<double, 8> layerGrads{}, mlpGrads{};
    for (size_t g = 0; g < groups.size(); ++g) {
        if (!(groups[g].count > 0) || !gradients)
            continue;
        layerGrads[g] = bytesOf(*groups[g].weights);
        const LayerSpec spec = groups[g].spec;
        if (spec.mixer != Mixer::None && spec.mlp != LayerMlp::None)
            mlpGrads[g] = bytesOf(layerWeights(c.m, LayerSpec{Mixer::None, spec.mlp}));
    }
    double later = 0; // the head's, the final norm's (and a tied embedding's)
    if (c.hasHead)
        for (const auto &t : c.globals)
            if (t.place == WeightPlace::FinalNorm || t.place == WeightPlace::OutputHead ||
                (t.place == WeightPlace::Embedding && c.m.tiedEmbeddings))
                later += tensorBytes(t);
    // The stage's layers, last to first: gradients of the later ones, saved tensors of the
    // earlier ones (all saved tensors less those of the layers from this one on).
    const int64_t from = std::min(int64_t(c.stage) * c.stageLayers, c.m.layers - c.stageLayers);
    auto groupOf = [&](int64_t i) {
        const LayerSpec spec = c.m.layerSpec(i);
        for (size_t g = 0; g < groups.size(); ++g)
            if (groups[g].spec == spec)
                return g;
        return size_t(0);
    };
    double savedBefore = 0;
    for (int64_t i = from; i < from + c.stageLayers; ++i) {
        const size_t g = groupOf(i);
        savedBefore += mixerSaved[g] + mlpSaved[g];
    }
    MambaScanMoment best;
    for (int64_t i = from + c.stageLayers; i-- > from;) {
        const size_t g = groupOf(i);
        savedBefore -= mixerSaved[g] + mlpSaved[g];
        const Mixer mixer = groups[g].spec.mixer;
        if (mixer == Mixer::Mamba || mixer == Mixer::AttentionAndMamba) {
            const double saved = savedBefore + mixerSaved[g];
            const double grads = later + mlpGrads[g];
            if (saved + grads > best.saved + best.gradients)
                best = {saved, grads};
        }
        later += layerGrads[g];
    }
    return best;
}

// Kimi Delta Attention (Kimi Linear's modeling_kimi.py with flash-linear-attention), beyond the
// Gated DeltaNet lines of addLinearAttention: its decay is per key channel, not per head.
// fused_kda_gate keeps its input, f_b_proj's output (16-bit), and chunk_kda the chunk-cumulated
// decay g in fp32, both [tokens, heads x head_dim]; chunk_kda keeps the q.k chunk products Aqk
// (64 columns) beside the solved k.k system; f_b_proj and g_b_proj keep the low-rank outputs of
// f_a_proj and g_a_proj (head_dim wide, replicated across tensor-parallel ranks). LoRA: KDA's
// own module names, less the adapters addLinearAttention counted under Gated DeltaNet's.
void addKimiDeltaExtras(const StageContext &c, const Dims &d, Inventory &inv)
{
    const auto &la = c.m.linear;
    if (!la.perChannelGate)
        return;
    const double hk = double(la.keyHeads) / d.tp, hv = double(la.valueHeads) / d.tp;
    const double k = double(la.keyHeadDim), rank = double(la.valueHeadDim);
    const double vd = hv * double(la.valueHeadDim), t = d.tokens, cb = d.c;
    inv.push_back({"KDA per-channel decay: f_b_proj output and fp32 chunk-cumulated g",
                   "b*s*Hk*K*(c + 4)", t * hk * k * (cb + 4)});
    inv.push_back({"KDA q.k chunk products Aqk (64 columns, chunk_kda)", "b*s*Hv*64*c",
                   t * hv * 64 * cb});
    for (const char *gate : {"f_b_proj", "g_b_proj"})
        if (linearSavesInput(c, gate))
            inv.push_back({"KDA low-rank gate input (f_a_proj or g_a_proj output)", "b*s*V*c",
                           t * rank * cb});
    if (linearSavesInput(c, "o_proj") && !linearSavesInput(c, "out_proj"))
        inv.push_back({"KDA o_proj input", "b*s*Hv*V*c", t * vd * cb});
    if (!c.lora)
        return;
    int counted = 0; // adapters of h-wide input addLinearAttention added under GDN's names
    for (const char *gdn : {"in_proj_qkvz", "in_proj_qkv", "in_proj_z"})
        counted += isLoraTarget(c.t.finetune, gdn) ? 1 : 0;
    for (const char *target : {"q_proj", "k_proj", "v_proj", "f_a_proj", "b_proj", "g_a_proj"})
        if (isLoraTarget(c.t.finetune, target) && counted-- <= 0)
            addLora(c, d, inv, target, d.h, true);
    for (const char *gate : {"f_b_proj", "g_b_proj"})
        addLora(c, d, inv, gate, rank, false);
    if (!isLoraTarget(c.t.finetune, "out_proj"))
        addLora(c, d, inv, "o_proj", vd, false);
}

} // namespace vramplan
