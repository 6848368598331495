// The attention sublayer's saved tensors: q, k and v, what the softmax or the kernel keeps, their
// LoRA adapters and SDPA's choice of kernel; and multi-head latent attention (DeepSeek-V2/V3).

#include "training/activation_dims.h"
#include "training/stage_context.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

// Whose Hugging Face eager attention computes the softmax in fp32 (softmax(dtype=float32), then
// cast back): the Llama family and Phi; GPT-2, BERT, GPT-NeoX and Falcon stay in the compute
// dtype (modeling_gpt2.py eager_attention_forward, modeling_bert.py, modeling_gpt_neox.py).
bool upcastsSoftmax(Family f)
{
    return f != Family::Gpt2 && f != Family::Bert && f != Family::GptNeox && f != Family::Falcon;
}

// LitGPT's LoRAQKVLinear adapts q, k and v of the fused qkv projection together: one dropout on
// the shared input, one lora_A for the enabled parts, and, unless all three are enabled,
// zero_pad's index_copy, whose backward keeps its whole source (the adapters' output for the
// enabled parts) (lit_gpt/lora.py LoRAQKVLinear.forward, zero_pad).
void addLitgptQkvLora(const StageContext &c, const Dims &d, Inventory &inv)
{
    if (!c.lora)
        return;
    const bool q = isLoraTarget(c.t.finetune, "q_proj");
    const bool k = isLoraTarget(c.t.finetune, "k_proj");
    const bool v = isLoraTarget(c.t.finetune, "v_proj");
    const int enabled = int(q) + int(k) + int(v);
    if (enabled == 0)
        return;
    if (c.t.finetune.loraDropout > 0)
        inv.push_back({"LoRA dropout mask and output (one for q, k, v)", "b*s*h*(1 + c)",
                       d.tokens * d.h * (1 + d.c)});
    inv.push_back({"LoRA A output (saved by B)", "b*s*r*c per enabled part",
                   d.tokens * double(c.t.finetune.loraRank) * enabled * d.c});
    if (enabled < 3)
        inv.push_back({"LoRA update kept by zero_pad's index_copy", "b*s*(enabled q/k/v widths)*c",
                       d.tokens * ((q ? d.qWidth : 0) + double(int(k) + int(v)) * d.kvWidth) * d.c});
}

} // namespace

void addAttention(const StageContext &c, const Dims &d, Inventory &inv)
{
    if (c.m.isMla()) {
        addMlaAttention(c, d, inv);
        return;
    }
    const bool eager = c.t.attention == Attention::Eager;
    // HF's Phi eager attention upcasts q and k to fp32 before q @ k^T (modeling_phi.py).
    const double qkBytes = eager && c.hfModelCode() && c.m.family == Family::Phi ? 4.0 : d.c;
    inv.push_back(
        {"query (saved by attention)", "b*s*a*d*c", d.tokens * d.qWidth * qkBytes, false, true});
    inv.push_back({"key (saved by attention)", "b*s*kv*d*c (HF repeats K to all heads)",
                   d.tokens * d.kvSavedWidth * qkBytes});
    addQkNorms(c, d, inv);
    // LitGPT and HF's GPT-NeoX split the fused qkv output into views; with one query per group,
    // v stays a view that keeps the whole qkv buffer (q and k are replaced by their RoPE'd
    // copies) (litgpt/model.py CausalSelfAttention.forward: qkv.split, v.reshape;
    // modeling_gpt_neox.py GPTNeoXAttention: qkv[..., 2 * head_size:]; CPU-measured).
    const bool valueViewOfQkv =
        c.m.kvHeads == c.m.attentionHeads &&
        (c.s.framework == Framework::Litgpt ||
         (c.hfModelCode() && c.m.family == Family::GptNeox));
    if (valueViewOfQkv)
        inv.push_back({"value, a view holding the whole fused qkv output", "b*s*(a + 2kv)*d*c",
                       d.tokens * (d.qWidth + 2 * d.kvWidth) * d.c});
    else
        inv.push_back({"value (saved by attention)", "b*s*kv*d*c (HF repeats V to all heads)",
                       d.tokens * d.kvSavedWidth * d.c});
    if (eager) {
        // Softmax keeps its output; HF computes it in fp32 (Llama: softmax(dtype=float32);
        // GPT-2/BERT under autocast or fp32) and casts back; Megatron's fused kernel stays in
        // 16 bits. Dropout keeps a 1-byte mask and its output (the input of probs @ V).
        // Under autocast softmax is on the fp32 list (aten/src/ATen/autocast_mode.cpp).
        // gpt-oss appends one sink logit per head and row, takes the row maximum out and runs
        // the softmax in the scores' dtype (modeling_gpt_oss.py eager_attention_forward).
        const bool sinks = c.m.attentionSinks && c.hfModelCode();
        const bool upcast =
            (c.eagerModelCode() && upcastsSoftmax(c.m.family) && !sinks) || c.fp32 || c.amp;
        const double softmaxBytes = upcast ? 4 : d.c;
        const double seq = d.scores / std::max(1.0, d.tokens * d.qWidth / double(c.m.headDim));
        const double width = sinks ? (seq + 1) / seq : 1.0;
        if (c.m.attentionSoftcap > 0 && c.hfModelCode())
            // Gemma 2: scores / cap, tanh, * cap: tanh keeps its output (modeling_gemma2.py).
            inv.push_back({"soft-capped scores (tanh output)", "b*a*s^2*c", d.scores * d.c, true});
        if (sinks)
            inv.push_back({"row maximum indices (sinks)", "b*a*s*8",
                           d.tokens * d.qWidth / double(c.m.headDim) * 8, true});
        inv.push_back({"attention probabilities (softmax output)", "b*a*s^2*bytes",
                       d.scores * softmaxBytes * width, true});
        if (c.t.dropout > 0)
            inv.push_back({"attention dropout mask and output", "b*a*s^2*(1 + c)",
                           d.scores * (1 + d.c), true});
        else if (softmaxBytes != d.c)
            inv.push_back(
                {"attention probabilities cast to 16 bits", "b*a*s^2*c", d.scores * d.c, true});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back(
                {"attention context (o_proj input)", "b*s*a*d*c", d.tokens * d.qWidth * d.c});
    } else if (sdpaMathPath(c)) {
        // q @ k^T, softmax and probs @ v as separate ops: the softmax output (compute dtype) is
        // kept for both backwards; the output itself is kept only by a trainable o_proj.
        inv.push_back({"attention probabilities (SDPA math path, broadcast key)", "b*a*s^2*c",
                       d.scores * d.c, true});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back(
                {"attention context (o_proj input)", "b*s*a*d*c", d.tokens * d.qWidth * d.c});
    } else {
        // Flash / memory-efficient kernels keep the output and a per-row logsumexp instead of
        // the s^2 probabilities (Dao et al. 2022 §3.1); the output doubles as o_proj's input.
        inv.push_back({"attention output (kept by the kernel, o_proj input)", "b*s*a*d*c",
                       d.tokens * d.qWidth * d.c, false, true});
        inv.push_back({"softmax logsumexp per row", "b*a*s*4",
                       d.tokens * d.qWidth / double(c.m.headDim) * 4, false, true});
    }
    if (c.m.attentionOutputGate) {
        // Gated attention (Qwen3NextAttention): attn_output * sigmoid(gate); the multiply keeps
        // the sigmoid's output (the attention output is kept already), o_proj the product.
        inv.push_back({"attention output gate (sigmoid output, kept by the multiply)",
                       "b*s*a*d*c", d.tokens * d.qWidth * d.c});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back(
                {"gated attention output (o_proj input)", "b*s*a*d*c", d.tokens * d.qWidth * d.c});
        // In fp32, q_norm's x.float() is the query half of q_proj's output itself, and a view
        // keeps its whole storage: the gate half is kept too (measured: qwen35-08b-attn fp32).
        if (c.m.qkNorm == QkNorm::Head && c.eagerModelCode() && d.c >= 4 && !c.amp)
            inv.push_back({"q_proj output's gate half (kept through q_norm's fp32 view)",
                           "b*s*a*d*4", d.tokens * d.qWidth * 4});
    }
    if (!c.lora) {
        // no adapters (the checks below compare target names: skip them)
    } else if (c.s.framework == Framework::Litgpt) {
        addLitgptQkvLora(c, d, inv);
    } else if (fusedQkvLoraTarget(c.t.finetune)) {
        addLora(c, d, inv, "q_proj", d.h, true); // one adapter on the fused projection
    } else {
        addLora(c, d, inv, "q_proj", d.h, true);
        addLora(c, d, inv, "k_proj", d.h, true);
        addLora(c, d, inv, "v_proj", d.h, true);
    }
    if (c.lora)
        addLora(c, d, inv, "o_proj", d.qWidth, false);
}

void addMlaAttention(const StageContext &c, const Dims &d, Inventory &inv)
{
    // transformers DeepseekV3Attention.forward: q = q_b_proj(q_a_layernorm(q_a_proj(x)));
    // kv = kv_a_proj_with_mqa(x) split into the latent and the rope key; the latent goes
    // through kv_a_layernorm and kv_b_proj; queries and keys are concatenations of the
    // no-rope and rope parts (new tensors); values are a view of kv_b_proj's output.
    const auto &mla = c.m.mla;
    const double heads = double(c.m.attentionHeads) / d.tp;
    const double qk = double(mla.qkHeadDim());
    const double v = double(mla.vHeadDim);
    const double kvr = double(mla.kvLoraRank);
    if (mla.qLoraRank > 0) {
        const double qr = double(mla.qLoraRank);
        addRmsNormOf(c, d, inv, "q_a_layernorm fp32 input, rsqrt, normalised",
                     "b*s*q_lora_rank*4 + b*s*4 (+ b*s*q_lora_rank*c trained)", qr, 1, true);
        if (linearSavesInput(c, "q_b_proj"))
            inv.push_back({"q_a_layernorm output (q_b_proj input)", "b*s*q_lora_rank*c",
                           d.tokens * qr * d.c});
    }
    // In fp32, k_pass.to(float32) is the split view itself, which keeps kv_a_proj_with_mqa's
    // whole output (latent and rope key) for pow and the multiply.
    addRmsNormOf(c, d, inv, "kv_a_layernorm fp32 input, rsqrt, normalised",
                 "b*s*kv_lora_rank*4 + b*s*4 (+ b*s*kv_lora_rank*c trained)", kvr, 1, true);
    if (c.fp32 && c.hfModelCode())
        inv.push_back({"kv_a_proj_with_mqa's rope columns (held by the fp32 norm input view)",
                       "b*s*rope*4", d.tokens * double(mla.qkRopeHeadDim) * 4});
    if (linearSavesInput(c, "kv_b_proj"))
        inv.push_back({"kv_a_layernorm output (kv_b_proj input)", "b*s*kv_lora_rank*c",
                       d.tokens * kvr * d.c});
    inv.push_back({"query: no-rope and rope parts concatenated", "b*s*a*(nope + rope)*c",
                   d.tokens * heads * qk * d.c, false, true});
    inv.push_back({"key: no-rope part and the shared rope key concatenated",
                   "b*s*a*(nope + rope)*c", d.tokens * heads * qk * d.c});
    const bool eager = c.t.attention == Attention::Eager;
    // Only transformers pads: cuDNN / Transformer Engine and SDPA's memory-efficient kernel
    // take a value head size that differs from the query's.
    const bool flash = c.t.attention == Attention::Flash && c.hfModelCode();
    // transformers' SDPA path hands the kernel contiguous q, k and v (sdpa_attention.py), so
    // the value is its own copy; eager attention keeps the view, which holds kv_b_proj's output.
    const bool sdpa = c.t.attention == Attention::Sdpa && c.hfModelCode();
    if (flash && v != qk)
        // flash_attention_2 needs one head size: values are padded to nope + rope.
        inv.push_back({"value padded to the query head size (flash)", "b*s*a*(nope + rope)*c",
                       d.tokens * heads * qk * d.c});
    else if (sdpa || !c.hfModelCode())
        inv.push_back({"value (saved by attention)", "b*s*a*v*c", d.tokens * heads * v * d.c});
    else
        inv.push_back({"value, a view holding kv_b_proj's whole output", "b*s*a*(nope + v)*c",
                       d.tokens * heads * (double(mla.qkNopeHeadDim) + v) * d.c});
    if (eager) {
        inv.push_back({"attention probabilities (fp32 softmax output)", "b*a*s^2*4",
                       d.scores * 4, true});
        if (c.t.dropout > 0)
            inv.push_back({"attention dropout mask and output", "b*a*s^2*(1 + c)",
                           d.scores * (1 + d.c), true});
        else if (d.c != 4)
            // softmax(dtype=float32).to(query.dtype): in fp32 the cast returns the same tensor.
            inv.push_back(
                {"attention probabilities cast to 16 bits", "b*a*s^2*c", d.scores * d.c, true});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back({"attention context (o_proj input)", "b*s*a*v*c",
                           d.tokens * heads * v * d.c});
    } else {
        inv.push_back({"attention output (kept by the kernel, o_proj input)", "b*s*a*v*c",
                       d.tokens * heads * (flash && v != qk ? qk : v) * d.c, false, true});
        if (flash && v != qk && linearSavesInput(c, "o_proj"))
            // The padded output is sliced back to v before o_proj, which keeps that copy.
            inv.push_back({"attention context sliced to v (o_proj input)", "b*s*a*v*c",
                           d.tokens * heads * v * d.c});
        // SDPA's memory-efficient kernel (flash takes no query head size that differs from the
        // value's) pads its logsumexp to a multiple of 32 rows.
        const double s = double(c.t.sequenceLength) / double(c.cp);
        const double rows = sdpa && v != qk ? std::ceil(s / 32) * 32 / s : 1.0;
        inv.push_back({"softmax logsumexp per row", "b*a*s*4", d.tokens * heads * 4 * rows, false,
                       true});
    }
    if (c.m.indexer.heads > 0 && c.hfModelCode() && c.t.attention == Attention::Sdpa)
        // DeepSeek sparse attention in transformers (DeepseekV32Attention): the indexer runs
        // without gradients and its top-k becomes an additive mask over dense attention. SDPA
        // hands it to the memory-efficient kernel as attn_bias, which the kernel keeps for its
        // backward (one s x s mask per layer); eager adds it to the scores and keeps nothing of
        // it (measured: tests/measure, deepseekv32-dsa points).
        inv.push_back({"sparse-attention top-k mask (indexer, over dense attention)", "b*s^2*c",
                       d.scores / std::max(1.0, d.qWidth / double(c.m.headDim)) * d.c, true});
    addLora(c, d, inv, mla.qLoraRank > 0 ? "q_a_proj" : "q_proj", d.h, true);
    if (mla.qLoraRank > 0)
        addLora(c, d, inv, "q_b_proj", double(mla.qLoraRank), false);
    addLora(c, d, inv, "kv_a_proj_with_mqa", d.h, true);
    addLora(c, d, inv, "kv_b_proj", kvr, false);
    addLora(c, d, inv, "o_proj", heads * v, false);
}

// Whether torch's SDPA falls back to its math path, which keeps the b*a*s^2 probabilities: its
// flash and memory-efficient kernels need as many key/value heads as query heads (before
// torch 2.5's enable_gqa). lit-gpt (2023) expands K and V for grouped queries but leaves the
// single head of multi-query models (Falcon-7B) broadcast, so those run the math path
// (lit_gpt/model.py CausalSelfAttention: `if n_query_groups != 1: k.expand(...)`;
// aten/src/ATen/native/transformers/sdp_utils_cpp.h check_batch_size_and_num_heads).
bool sdpaMathPath(const StageContext &c)
{
    return (c.s.framework == Framework::Litgpt && c.t.attention == Attention::Sdpa &&
            c.m.kvHeads == 1 && c.m.attentionHeads > 1) ||
           (sdpaWithGroupedHeads(c) && c.fp32);
}

// transformers >= 4.48 passes grouped K/V to SDPA with enable_gqa=True (torch >= 2.5, no
// padding mask) instead of repeating them (integrations/sdpa_attention.py use_gqa_in_sdpa):
// the flash kernel keeps K and V at their own width; in fp32, which flash does not take and
// the memory-efficient kernel does not take with enable_gqa, SDPA runs its math path and
// repeats them inside (CPU-measured, tests/data/measured: qwen3 sdpa fp32). The 2024-2026
// families exist only in those versions.
bool sdpaWithGroupedHeads(const StageContext &c)
{
    return c.hfModelCode() && c.transformersAtLeast(4, 48) && c.t.attention == Attention::Sdpa;
}

} // namespace vramplan
